/**
 * The app's extension endpoints, as the three admin extensions see them: the wire types and one small typed
 * client. Pure (no `shopify` global, no Preact), so every extension bundles its own copy and builds alone.
 *
 * The admin's `fetch` resolves a relative URL against the app URL and adds `Authorization: Bearer <id token>`
 * itself. The backend answers 200 with a JSON body even for business problems (problems, refusals, a courier
 * that is down); anything else — a network error, a timeout, a non-2xx status, a body that is not the expected
 * shape — comes back as an {@link ApiFailure} value for the screen to show with a retry.
 */

export interface RateView {
  courierId: number;
  name: string;
  mode: string;
  /** Rupees, taxes included. */
  totalCharges: number;
  /** Days as the courier quotes them, e.g. "2 - 4". */
  edd: string;
  eddMaxDays: number;
  zone: string;
  isCheapest: boolean;
  isFastest: boolean;
  isRecommended: boolean;
}

export type ShipmentStatus = "booking" | "booked" | "fulfilled" | "failed" | "cancelled";

export interface ShipmentView {
  /** The parcel's name, as its label and the courier have it: the order's name, "-2" and on for further parcels (absent from older answers). */
  name?: string;
  status: ShipmentStatus;
  statusLabel: string;
  awb: string | null;
  courierName: string | null;
  trackingUrl: string | null;
  totalCharges: number | null;
  edd: string | null;
  /** The latest courier stage; `at` is an ISO time. */
  courierStatus: { code: number; label: string; at: string } | null;
  /**
   * Where the courier has the parcel once it has said anything: its state (awaiting_pickup, in_transit,
   * out_for_delivery, delivery_attempted, delivered, rto_initiated, rto_delivered, lost, damaged, cancelled; a return's
   * picked_up, received), in words with the attempts counted, and the attempts to deliver (absent from older answers).
   */
  outcome?: { state: string; label: string; deliveryAttempts: number } | null;
  /** ISO time. */
  estimatedDelivery: string | null;
  lastEvent: { label: string; activity: string; location: string | null; at: string } | null;
  /** What the merchant must do when something went wrong (an RTO, say). */
  attention: string | null;
  /** The shipping label's PDF, a signed link valid for a few minutes; null until booked, and once cancelled. */
  labelUrl: string | null;
  /** What happened to the shipment and who did it, oldest first, in the app's words (absent from older answers). */
  history?: ShipmentHistoryEntry[];
}

export interface ShipmentHistoryEntry {
  /** ISO time. */
  at: string;
  what: string;
  by: string;
  reason: string | null;
}

/** One parcel of an order that ships as several: a box from one location, with its own awb once booked. */
export interface ParcelView {
  /** Parcel `number` of `of`: the booked ones first, then those still to book. */
  number: number;
  of: number;
  /** The location it ships from, as Shopify names it. */
  location: string | null;
  /** What goes in it, one line an item: "2 × Pashmina stole". */
  items: string[];
  /** Its booking; null while it is still to book. */
  shipment: ShipmentView | null;
}

export interface Problem {
  code: string;
  message: string;
  fix: string;
}

export type OrderState = "ready" | "problems" | "shipment" | "cancelled" | "not_found" | "unavailable";

export interface OrderShipping {
  orderId: string;
  orderName: string;
  state: OrderState;
  problems: Problem[];
  /** Non-empty only when `state` is "ready". */
  rates: RateView[];
  /** Set for "unavailable" (the courier service is down, say). */
  message: string | null;
  /** Why auto-booking chose what it chose, e.g. "Rule 2 'COD under ₹2,000' → cheapest: Delhivery ₹98". */
  decision: { reason: string; at: string } | null;
  /** Set when `state` is "shipment": the order's (its first parcel's, when it ships as several). */
  shipment: ShipmentView | null;
  /**
   * Every parcel, when the order ships as more than one (from two locations, or too many products for one courier
   * order): "shipment" once every one is booked, "ready" while some are still to book (the rates are for those).
   */
  parcels?: ParcelView[];
  /** The order's returns and their pickups back to the warehouse, apart from its forward shipment. */
  returns?: ReturnPickupView[];
  /** A cash-on-delivery order's RTO risk and its shopper's confirmation; absent when neither exists. */
  cod?: CodView;
}

/** An order's cash on delivery, as the order-page block shows it (English, as the block's other stored words). */
export interface CodView {
  /** high | medium | low | none; null when not scored (prepaid). */
  riskLevel: "high" | "medium" | "low" | "none" | null;
  riskScore: number | null;
  /** Each factor of the score in words with its points, weightiest first. */
  reasons: string[];
  confirmation: { state: string; label: string; deadlineAt: string; open: boolean } | null;
}

export interface ReturnPickupView {
  returnName: string;
  /** Shopify's return status: REQUESTED, OPEN, DECLINED, CANCELED, CLOSED. */
  status: string;
  /**
   * Where the return is in Dakiya: requested, approved, held, pickup_booked, picked_up, received, processed, inspected,
   * declined, cancelled, closed; and that in words (absent from older answers).
   */
  state?: string;
  stateLabel?: string;
  /** Where the courier has the pickup ("Picked up from the shopper"), else its booking status words; null while none is booked. */
  pickupLabel: string | null;
  courierName: string | null;
  awb: string | null;
  trackingUrl: string | null;
  /** What stops the pickup or why it waits; once booked, what the merchant must do about it (a failed pickup, say). */
  note: string | null;
  receivedAt: string | null;
  /** What happened to the return and who did it, oldest first, in the app's words (absent from older answers). */
  history?: ShipmentHistoryEntry[];
}

export type BookOutcome = "booked" | "already_booked" | "problems" | "refused" | "unavailable" | "not_found";

export interface BookAnswer {
  outcome: BookOutcome;
  message: string | null;
  order: OrderShipping;
}

export interface SyncAnswer {
  order: OrderShipping;
}

export type BulkOutcome = "booked" | "held" | "already_booked" | "failed";

export interface BulkResult {
  orderId: string;
  orderName: string;
  outcome: BulkOutcome;
  awb: string | null;
  courierName: string | null;
  reason: string | null;
}

export interface BulkAnswer {
  results: BulkResult[];
}

/** The most orders one bulk-ship request may carry. */
export const BULK_SHIP_LIMIT = 50;

/** The most labels one document takes (the app refuses more, naming the limit). */
export const LABELS_PER_DOCUMENT = 500;

/**
 * The app route that answers the labels of these orders as one PDF, for `s-admin-print-action`'s `src`: a path
 * relative to the app URL, fetched by the admin with its session token. `bookedOnly` leaves out orders that have
 * no label (not booked, cancelled) instead of refusing the whole document.
 */
export function labelsPath(orderGids: readonly string[], { bookedOnly = false } = {}): string {
  return `/api/labels?orders=${orderGids.map(legacyIdOf).join(",")}${bookedOnly ? "&skip=unbooked" : ""}`;
}

/** Why a call produced no answer the screen can use. */
export type ApiFailure =
  | { kind: "network" }
  | { kind: "timeout" }
  | { kind: "status"; status: number }
  | { kind: "malformed" };

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

export interface DakiyaApi {
  getOrder(orderGid: string): Promise<ApiResult<OrderShipping>>;
  book(orderGid: string, courierId: number): Promise<ApiResult<BookAnswer>>;
  sync(orderGid: string): Promise<ApiResult<SyncAnswer>>;
  /** At most {@link BULK_SHIP_LIMIT} orders; callers chunk larger selections. */
  bulkShip(orderGids: readonly string[]): Promise<ApiResult<BulkAnswer>>;
}

export interface DakiyaApiOptions {
  /** Defaults to the global `fetch`, looked up at call time (the admin, and the tester, install it). */
  fetch?: typeof fetch;
  /** Per kind of request: a booking waits on the courier, a bulk request on up to fifty of them. */
  timeoutMs?: Partial<Timeouts>;
}

interface Timeouts {
  read: number;
  write: number;
  bulk: number;
}

const DEFAULT_TIMEOUT_MS: Timeouts = { read: 15_000, write: 45_000, bulk: 120_000 };

/** "gid://shopify/Order/123" → "123", the id the app's routes take. */
export function legacyIdOf(orderGid: string): string {
  const match = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid);
  if (!match) throw new Error(`Not an order GID: ${orderGid}`);
  return match[1]!;
}

/** Splits a selection into request-sized chunks, keeping the merchant's order. */
export function chunk<T>(items: readonly T[], size: number = BULK_SHIP_LIMIT): T[][] {
  if (size < 1) throw new Error(`Chunk size must be positive, got ${size}`);
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export function createDakiyaApi(options: DakiyaApiOptions = {}): DakiyaApi {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUT_MS, ...options.timeoutMs };
  const send = <T>(
    timeout: keyof Timeouts,
    path: string,
    body: unknown,
    isAnswer: (value: unknown) => value is T,
  ): Promise<ApiResult<T>> =>
    request({
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      method: body === undefined ? "GET" : "POST",
      path,
      body,
      timeoutMs: timeouts[timeout],
      isAnswer,
    });

  return {
    getOrder: (orderGid) => send("read", `/api/orders/${legacyIdOf(orderGid)}`, undefined, isOrderShipping),
    book: (orderGid, courierId) =>
      send("write", `/api/orders/${legacyIdOf(orderGid)}/book`, { courierId }, isBookAnswer),
    sync: (orderGid) => send("write", `/api/orders/${legacyIdOf(orderGid)}/sync`, {}, isSyncAnswer),
    bulkShip: (orderGids) => {
      if (orderGids.length < 1 || orderGids.length > BULK_SHIP_LIMIT) {
        throw new Error(`bulkShip takes 1..${BULK_SHIP_LIMIT} orders, got ${orderGids.length}`);
      }
      return send("bulk", "/api/orders/bulk-ship", { orderIds: [...orderGids] }, isBulkAnswer);
    },
  };
}

async function request<T>(call: {
  fetch: typeof fetch;
  method: "GET" | "POST";
  path: string;
  body: unknown;
  timeoutMs: number;
  isAnswer: (value: unknown) => value is T;
}): Promise<ApiResult<T>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.timeoutMs);
  try {
    const response = await call.fetch(call.path, {
      method: call.method,
      headers:
        call.body === undefined
          ? { Accept: "application/json" }
          : { Accept: "application/json", "Content-Type": "application/json" },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: controller.signal,
    });
    if (!response.ok) return { ok: false, failure: { kind: "status", status: response.status } };
    let value: unknown;
    try {
      value = await response.json();
    } catch {
      return { ok: false, failure: { kind: "malformed" } };
    }
    return call.isAnswer(value) ? { ok: true, value } : { ok: false, failure: { kind: "malformed" } };
  } catch {
    return { ok: false, failure: { kind: timedOut ? "timeout" : "network" } };
  } finally {
    clearTimeout(timer);
  }
}

// Shape checks at the edge. A schema library would cost more of the 64 KB bundle budget than the rest of an
// extension, so these check what the screens branch on and leave the display strings to the backend's contract.

const ORDER_STATES: readonly string[] = ["ready", "problems", "shipment", "cancelled", "not_found", "unavailable"];
const BOOK_OUTCOMES: readonly string[] = ["booked", "already_booked", "problems", "refused", "unavailable", "not_found"];
const BULK_OUTCOMES: readonly string[] = ["booked", "held", "already_booked", "failed"];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isOrderShipping(value: unknown): value is OrderShipping {
  if (!isRecord(value)) return false;
  const { state, problems, rates, shipment } = value;
  if (typeof state !== "string" || !ORDER_STATES.includes(state)) return false;
  if (!Array.isArray(problems) || !Array.isArray(rates)) return false;
  if (!rates.every((rate) => isRecord(rate) && typeof rate.courierId === "number")) return false;
  if (state === "shipment" && !isRecord(shipment)) return false;
  return typeof value.orderId === "string" && typeof value.orderName === "string";
}

function isBookAnswer(value: unknown): value is BookAnswer {
  return (
    isRecord(value) &&
    typeof value.outcome === "string" &&
    BOOK_OUTCOMES.includes(value.outcome) &&
    isOrderShipping(value.order)
  );
}

function isSyncAnswer(value: unknown): value is SyncAnswer {
  return isRecord(value) && isOrderShipping(value.order);
}

function isBulkAnswer(value: unknown): value is BulkAnswer {
  return (
    isRecord(value) &&
    Array.isArray(value.results) &&
    value.results.every(
      (result) =>
        isRecord(result) &&
        typeof result.orderId === "string" &&
        typeof result.outcome === "string" &&
        BULK_OUTCOMES.includes(result.outcome),
    )
  );
}
