import { createHash, randomBytes, randomInt } from "node:crypto";
import { Prisma, type ApiClient, type PrismaClient, type ServiceOrder, type ServiceTrackingEvent } from "@prisma/client";
import {
  AdvanceRequestSchema,
  AwbPathSchema,
  ReattemptRequestSchema,
  CancelOrderRequestSchema,
  createOrderRequestSchema,
  EWAYBILL_THRESHOLD_RUPEES,
  RateRequestSchema,
  toFieldErrors,
  type CancelOrderResult,
  type EraseAccountResult,
  RedactOrdersRequestSchema,
  type RedactOrdersResult,
  SandboxStatementRequestSchema,
  type SandboxStatementResult,
  type CreateOrderRequest,
  type CreateOrderResult,
  type OrderDetails,
  type RateResult,
  type TrackingResult,
  type Warehouse,
  isPlainText,
} from "~/shipping/contract";
import { isCancellable, orderStatusWord, SERVICE_STATUS, SERVICE_STATUS_LABELS, trackingPhase, type ServiceStatusCode } from "~/shipping/status";
import { fromPaise, toPaise } from "~/money";
import { createAccountCache, forgetAccounts } from "./account-cache.server";
import { invalid, ServiceFailure } from "./failures";
import { findEarlierOrder, insertOrder, isForeignKeyViolation, isUniqueViolationOf, listWarehouses, type EarlierOrder, type OrderWarehouse, type SqlPool } from "./order-statements.server";
import { SHARED_SANDBOX_ACCOUNT } from "./sandbox-seed.server";
import { RateCardsSchema, type CourierRateCard } from "./rate-cards";
import { formatKg, freightFor, quoteAll, quoteFor, toRateOption } from "./rates";
import { invoiceCsv, remittanceCsv, type StatementOrder } from "./sandbox-statements";
import { advanceSteps, firstStep, IllegalMoveError, reattemptSteps, stepsDue, type ShipmentRoute, type TrackingStep } from "./tracking-clock";
import { isServiceablePincode, ZONE_NAMES, type Zone } from "./zones";

export interface ShipmentServiceDeps {
  db: PrismaClient;
  /** The same database's pg pool, for create-order's own statements (order-statements.server.ts). */
  pool: SqlPool;
  now: () => Date;
  rateCards: readonly CourierRateCard[];
  /**
   * Where a shipment's tracking_url points, with `{awb}` and optionally `{token}`: the sandbox's couriers do not know
   * its awbs, so by default the app's own public tracking page (which shows the sandbox's progress). `{token}`
   * becomes a random value of the shipment's own, kept in its stored tracking_url, so that only the link handed out
   * opens the page's details (app/shipping/tracking-url.ts). Unset: the courier card's address.
   */
  trackingUrlTemplate?: string;
}

type OrderWithEvents = ServiceOrder & { events: ServiceTrackingEvent[] };

/**
 * An order's stage and delivery date as its history says them. A step and the order's own stage and delivery date are
 * written in one commit, but an order is read with its history in two statements, and a step committed between them
 * (another caller's read bringing the clock up to date, an advance) is in the history and not yet on the order: read
 * from the history, an answer never holds a Delivered entry without its delivery date.
 */
function stageOf(order: OrderWithEvents): { code: ServiceStatusCode; deliveredAt: Date | null } {
  const last = order.events[order.events.length - 1];
  const delivered = order.events.find((event) => event.code === SERVICE_STATUS.DELIVERED);
  return { code: (last?.code ?? order.statusCode) as ServiceStatusCode, deliveredAt: delivered?.happenedAt ?? order.deliveredAt };
}

const REDACTED = "[redacted]";

const SANDBOX_NOTE = "Sandbox shipment: the courier, its charges and its tracking are simulated.";

function parseOrFail<T>(schema: { safeParse(input: unknown, params?: { reportInput?: boolean }): { success: true; data: T } | { success: false; error: import("zod").ZodError } }, body: unknown): T {
  const parsed = schema.safeParse(body, { reportInput: true });
  if (!parsed.success) throw invalid(toFieldErrors(parsed.error));
  return parsed.data;
}

/** Order-independent JSON, so the same payload always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const requestHash = (order: CreateOrderRequest) => createHash("sha256").update(stableJson(order)).digest("hex");

/** Air waybill numbers in each courier's own format. */
function newAwb(courierId: number): string {
  const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join("");
  switch (courierId) {
    case 1:
      return `1${digits(13)}`;
    case 2:
      return `7${digits(10)}`;
    case 3:
      return `14${digits(13)}`;
    default:
      return `D${digits(8)}`;
  }
}

/** 128 random bits, base64url: a tracking link's token cannot be guessed as an awb can. */
const newTrackingLinkToken = () => randomBytes(16).toString("base64url");

const isUniqueViolation = (error: unknown, field?: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError &&
  error.code === "P2002" &&
  (field === undefined || JSON.stringify(error.meta ?? {}).includes(field));

/** A statement lists at most this many orders: a sandbox account's month is far fewer. */
const MAX_STATEMENT_LINES = 5_000;

const statementOrderOf = (order: ServiceOrder): StatementOrder => ({
  awb: order.awb,
  orderId: order.orderId,
  totalAmountPaise: order.totalAmountPaise,
  chargeableWeightKg: order.chargeableWeight,
  totalChargesPaise: order.totalChargesPaise,
  codPaise: order.codPaise,
});

function toStep(event: ServiceTrackingEvent): TrackingStep {
  return {
    step: event.step,
    code: event.code as ServiceStatusCode,
    happenedAt: event.happenedAt,
    location: event.location,
    activity: event.activity,
  };
}

export function createShipmentService({ db, pool, now, rateCards: givenCards, trackingUrlTemplate }: ShipmentServiceDeps) {
  // Cards may come from anywhere (a file, a test); a bad one is a configuration bug, refused at start.
  const checked = RateCardsSchema.safeParse(givenCards);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new Error(`The rate cards are invalid at ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  const rateCards = checked.data;
  const cardFor = (id: number) => rateCards.find((card) => card.id === id)!;

  // The create-order schema is built once: zod compiles an object schema on its first parse, and building it
  // for every order cost about half of the app's CPU per order (npm run bench, bench/findings.md). Its date
  // window reads the clock at parse time, and a replay is judged as of the order's creation: `judgedAt` says
  // which instant while one synchronous parse runs (zod refuses asynchronous checks in safeParse).
  let judgedAt: Date | null = null;
  const orderSchema = createOrderRequestSchema(() => judgedAt ?? now());
  function parseOrder(body: unknown, asOf: Date | null = null): CreateOrderRequest {
    judgedAt = asOf;
    try {
      return parseOrFail(orderSchema, body);
    } finally {
      judgedAt = null;
    }
  }

  async function routeOf(order: ServiceOrder): Promise<ShipmentRoute> {
    const warehouse = await db.warehouse.findUnique({ where: { apiClientId_number: { apiClientId: order.apiClientId, number: order.warehouseId } } });
    const warehouseCity = warehouse?.city ?? "Warehouse";
    // A reverse order is collected at the shopper's address and travels back to the warehouse.
    const reverse = order.orderType === "reverse";
    return {
      awb: order.awb,
      originCity: reverse ? order.city : warehouseCity,
      destinationCity: reverse ? warehouseCity : order.city,
      transitHours: Math.max(12, order.eddMinDays * 24 - 30),
    };
  }

  /** The account's orders with these awbs, in the order named; an awb it does not have is left out. */
  async function ordersByAwb(client: ApiClient, awbs: readonly string[]): Promise<ServiceOrder[]> {
    const found = await db.serviceOrder.findMany({ where: { apiClientId: client.id, awb: { in: [...awbs] } } });
    return awbs.flatMap((awb) => found.filter((order) => order.awb === awb));
  }

  async function findOrder(client: ApiClient, sentAwb: string): Promise<ServiceOrder> {
    const { awb } = parseOrFail(AwbPathSchema, { awb: sentAwb });
    const order = await db.serviceOrder.findUnique({ where: { awb } });
    // Another client's awb is as unknown as a made-up one.
    if (!order || order.apiClientId !== client.id) throw new ServiceFailure(404, `No shipment with awb ${awb}`);
    return order;
  }

  async function recordSteps(order: ServiceOrder, steps: TrackingStep[]): Promise<void> {
    if (steps.length === 0) return;
    const last = steps[steps.length - 1]!;
    try {
      await db.$transaction([
        ...steps.map((step) =>
          db.serviceTrackingEvent.create({
            data: { orderId: order.id, step: step.step, code: step.code, location: step.location, activity: step.activity, happenedAt: step.happenedAt },
          }),
        ),
        db.serviceOrder.update({
          where: { id: order.id },
          data: {
            statusCode: last.code,
            ...(last.code === SERVICE_STATUS.DELIVERED ? { deliveredAt: last.happenedAt } : {}),
            ...(last.code === SERVICE_STATUS.CANCELLED ? { cancelledAt: last.happenedAt } : {}),
          },
        }),
      ]);
    } catch (error) {
      // A concurrent reader recorded the same steps first; theirs stand.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Brings a shipment's history up to the sandbox clock and returns it. */
  async function currentOrder(order: ServiceOrder): Promise<OrderWithEvents> {
    const events = await db.serviceTrackingEvent.findMany({ where: { orderId: order.id }, orderBy: { step: "asc" } });
    const last = events[events.length - 1];
    if (last) await recordSteps(order, stepsDue(await routeOf(order), toStep(last), now()));
    return db.serviceOrder.findUniqueOrThrow({ where: { id: order.id }, include: { events: { orderBy: { step: "asc" } } } });
  }

  function toTrackingResult(order: OrderWithEvents): TrackingResult {
    const stage = stageOf(order);
    return {
      success: true,
      awb: order.awb,
      order: order.orderId,
      order_status: orderStatusWord(stage.code),
      order_date: `${order.orderDate}T00:00:00+05:30`,
      logistic: order.logisticName,
      created_at: order.createdAt.toISOString(),
      destination: order.city,
      estimated_delivery_date: new Date(order.createdAt.getTime() + order.eddMaxDays * 86_400_000).toISOString(),
      delivered_date: stage.deliveredAt ? stage.deliveredAt.toISOString() : "",
      tracking_history: order.events.map((event) => ({
        label: SERVICE_STATUS_LABELS[event.code as ServiceStatusCode],
        activity: event.activity,
        service_status: event.code,
        status: trackingPhase(event.code as ServiceStatusCode),
        location: event.location,
        timestamp: event.happenedAt.toISOString(),
      })),
      track_url: order.trackingUrl,
    };
  }

  /** The earlier order's answer when this is a retry of it; a 409 when the order_id cannot be used again. */
  function replayOrRefuse(earlier: EarlierOrder, orderId: string, body: unknown): CreateOrderResult {
    if (earlier.cancelled) {
      throw new ServiceFailure(409, `order_id ${orderId} belonged to a cancelled order and cannot be used again`, [
        { field: "order_id", message: "order_id was used by a cancelled order; choose a new order_id" },
      ]);
    }
    // Judged as of the original creation, so a retry after midnight still replays.
    const replayed = parseOrder(body, earlier.createdAt);
    if (requestHash(replayed) !== earlier.requestHash) {
      throw new ServiceFailure(409, `order_id ${orderId} was already used for a different order (awb ${earlier.awb})`, [
        { field: "order_id", message: "order_id already exists with a different payload; send the same payload or a new order_id" },
      ]);
    }
    return JSON.parse(earlier.createResult) as CreateOrderResult;
  }

  // An account's warehouses, kept for a second (account-cache.server.ts): every order reads them, nothing but
  // opening and erasing an account changes them.
  const keptWarehouses = createAccountCache<number, OrderWarehouse[]>();
  async function warehousesOf(client: ApiClient): Promise<OrderWarehouse[]> {
    const kept = keptWarehouses.kept(client.id);
    if (kept) return kept;
    const keep = keptWarehouses.startRead();
    const warehouses = await listWarehouses(pool, client.id);
    keep(client.id, warehouses);
    return warehouses;
  }

  async function warehouseFor(client: ApiClient, warehouseId: number | undefined): Promise<OrderWarehouse> {
    const warehouses = await warehousesOf(client);
    if (warehouseId === undefined) {
      const primary = warehouses.find((warehouse) => warehouse.isPrimary && warehouse.isActive);
      if (!primary) throw invalid([{ field: "warehouse_id", message: "warehouse_id is required: the account has no primary warehouse" }]);
      return primary;
    }
    const warehouse = warehouses.find((candidate) => candidate.number === warehouseId);
    if (!warehouse) {
      throw invalid([{ field: "warehouse_id", message: `warehouse_id ${warehouseId} is not one of this account's warehouses` }]);
    }
    if (!warehouse.isActive) throw invalid([{ field: "warehouse_id", message: `warehouse_id ${warehouseId} is inactive` }]);
    return warehouse;
  }

  /** The order as it will be written, or the refusal: every rule create-order enforces before writing. */
  async function draftOrder(client: ApiClient, body: unknown) {
    const order = parseOrder(body);
    const warehouse = await warehouseFor(client, order.warehouse_id);
    if (!isServiceablePincode(order.pincode)) {
      throw invalid([{ field: "pincode", message: `pincode ${order.pincode} is not served by any courier` }]);
    }
    const card = cardFor(order.logistic_id);
    const quote = quoteFor(card, {
      shipmentType: order.order_type,
      paymentMode: order.payment_mode,
      pickup: warehouse.pincode,
      delivery: order.pincode,
      length: order.package_length,
      breadth: order.package_breadth,
      height: order.package_height,
      actualWeight: order.package_weight,
      amount: order.total_amount,
    });
    if (!quote) {
      throw invalid([
        { field: "logistic_id", message: `${card.name} does not deliver from ${warehouse.pincode} to ${order.pincode}; choose another courier` },
      ]);
    }
    return { order, warehouse, card, quote };
  }

  return {
    async createOrder(client: ApiClient, body: unknown): Promise<CreateOrderResult> {
      const sentOrderId = (body as { order_id?: unknown } | null)?.order_id;
      // Only an order_id that could have been stored is looked up: PostgreSQL refuses a NUL even in a query.
      const orderId = typeof sentOrderId === "string" && isPlainText(sentOrderId) ? sentOrderId.trim() : "";
      let draft: Awaited<ReturnType<typeof draftOrder>>;
      try {
        draft = await draftOrder(client, body);
      } catch (error) {
        // A retry of an earlier order replays it whatever changed since (the date, a warehouse, the rate cards),
        // and an order_id that cannot be used again is refused as such, before any other rule.
        const earlier = error instanceof ServiceFailure && orderId ? await findEarlierOrder(pool, client.id, orderId) : null;
        if (earlier) return replayOrRefuse(earlier, orderId, body);
        throw error;
      }
      const { order, warehouse, card, quote } = draft;
      const needsEwaybill = order.total_amount >= EWAYBILL_THRESHOLD_RUPEES && !order.ewaybill_no;
      const createdAt = now();
      const hash = requestHash(order);

      for (let attempt = 0; attempt < 5; attempt += 1) {
        const awb = newAwb(card.id);
        const trackingUrl = (trackingUrlTemplate ?? card.trackingUrl).replace("{awb}", encodeURIComponent(awb)).replace("{token}", newTrackingLinkToken);
        // A reverse order travels from the shopper's address back to the warehouse.
        const reverse = order.order_type === "reverse";
        const [from, to] = reverse ? [order, warehouse] : [warehouse, order];
        const route: ShipmentRoute = { awb, originCity: from.city, destinationCity: to.city, transitHours: 0 };
        const answer = {
          order_id: order.order_id,
          awb,
          logistic: card.name,
          additional_info: `${SANDBOX_NOTE} ${from.city} (${from.pincode}) to ${to.city} (${to.pincode}), zone ${quote.zone} (${ZONE_NAMES[quote.zone as Zone]}), ${formatKg(quote.chargeableWeightKg)} chargeable, total charges ₹${quote.total.toFixed(2)}, delivery in ${quote.eddDays[0]} - ${quote.eddDays[1]} days.`,
          tracking_url: trackingUrl,
          message: needsEwaybill
            ? `Order created. No ewaybill_no was sent for an amount of ₹${EWAYBILL_THRESHOLD_RUPEES.toLocaleString("en-IN")} or more: the courier needs an e-waybill before pick-up.`
            : "Order created successfully",
        };
        try {
          const id = await insertOrder(
            pool,
            {
              apiClientId: client.id,
              orderId: order.order_id,
              awb,
              requestHash: hash,
              statusCode: SERVICE_STATUS.MANIFESTED,
              orderType: order.order_type,
              orderDate: order.order_date,
              customerName: order.name,
              customerEmail: order.email ?? "",
              mobile: order.mobile,
              altMobile: order.alt_mobile ?? "",
              companyName: order.company_name ?? "",
              gstNumber: order.gst_number ?? "",
              addressLine1: order.address_line_1,
              addressLine2: order.address_line_2 ?? "",
              city: order.city,
              state: order.state,
              pincode: order.pincode,
              packageLength: order.package_length,
              packageBreadth: order.package_breadth,
              packageHeight: order.package_height,
              actualWeight: order.package_weight,
              products: JSON.stringify(order.products),
              paymentMode: order.payment_mode,
              discountPaise: toPaise(order.discount ?? 0),
              shippingChargePaise: toPaise(order.shipping_charge ?? 0),
              transactionChargePaise: toPaise(order.transaction_charge ?? 0),
              giftwrapChargePaise: toPaise(order.giftwrap_charge ?? 0),
              totalAmountPaise: toPaise(order.total_amount),
              ewaybillNo: order.ewaybill_no ?? "",
              deliveryRemarks: order.delivery_remarks ?? "",
              warehouseId: warehouse.number,
              logisticId: card.id,
              logisticName: card.name,
              logisticMode: card.mode,
              zone: quote.zone,
              chargeableWeight: quote.chargeableWeightKg,
              freightPaise: toPaise(quote.freight),
              codPaise: toPaise(quote.cod),
              totalChargesPaise: toPaise(quote.total),
              eddMinDays: quote.eddDays[0],
              eddMaxDays: quote.eddDays[1],
              trackingUrl,
              createdAt,
              updatedAt: createdAt,
            },
            firstStep(route, createdAt),
            answer,
          );
          if (id !== null) return { success: true, id, ...answer };
        } catch (error) {
          if (isUniqueViolationOf(error, "ServiceOrder_awb_key")) continue;
          // The account was erased by another process while its keys were still cached here: they are no longer valid.
          if (isForeignKeyViolation(error)) throw new ServiceFailure(401, "Invalid API credentials", [{ field: "X-Api-Key", message: "this account no longer exists" }]);
          throw error;
        }
        // The account already has this order_id (a retry, or the same order sent concurrently): replay or refuse.
        const earlier = await findEarlierOrder(pool, client.id, order.order_id);
        if (earlier) return replayOrRefuse(earlier, order.order_id, body);
        // Erased meanwhile: the order_id is free again.
      }
      throw new Error("Could not allocate a unique awb after 5 attempts");
    },

    async calculateRate(body: unknown): Promise<RateResult> {
      const request = parseOrFail(RateRequestSchema, body);
      const logistics = quoteAll(rateCards, {
        shipmentType: request.shipment_type,
        paymentMode: request.payment_mode,
        pickup: request.pickup,
        delivery: request.delivery,
        length: request.length,
        breadth: request.breadth,
        height: request.height,
        actualWeight: request.actual_weight,
        amount: request.amount,
      }).map(toRateOption);
      return { success: true, logistics, total_logistics: logistics.length };
    },

    async getWarehouse(client: ApiClient, rawId: string): Promise<Warehouse> {
      const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : NaN;
      if (Number.isNaN(id)) throw new ServiceFailure(404, `No warehouse with id ${rawId}`, [{ field: "id", message: "id must be a warehouse number" }]);
      const warehouse = await db.warehouse.findUnique({ where: { apiClientId_number: { apiClientId: client.id, number: id } } });
      if (!warehouse) throw new ServiceFailure(404, `No warehouse with id ${id}`);
      return {
        success: true,
        id: warehouse.number,
        warehouse_name: warehouse.warehouseName,
        company_name: warehouse.companyName,
        address_line_1: warehouse.addressLine1,
        address_line_2: warehouse.addressLine2,
        is_active: warehouse.isActive,
        city: warehouse.city,
        state: warehouse.state,
        pincode: warehouse.pincode,
        country: warehouse.country,
        mobile: warehouse.mobile,
        email: warehouse.email,
        gst_number: warehouse.gstNumber,
        created_at: warehouse.createdAt.toISOString(),
        updated_at: warehouse.updatedAt.toISOString(),
      };
    },

    async trackOrder(client: ApiClient, awb: string): Promise<TrackingResult> {
      return toTrackingResult(await currentOrder(await findOrder(client, awb)));
    },

    async getOrder(client: ApiClient, awb: string): Promise<OrderDetails> {
      const order = await currentOrder(await findOrder(client, awb));
      return {
        success: true,
        id: order.id,
        order_id: order.orderId,
        awb: order.awb,
        order_type: order.orderType,
        order_status: orderStatusWord(stageOf(order).code),
        order_invoice_no: order.orderId,
        order_date: `${order.orderDate}T00:00:00+05:30`,
        customer_name: order.customerName,
        customer_email: order.customerEmail,
        mobile: order.mobile,
        alt_mobile: order.altMobile,
        customer_company_name: order.companyName,
        customer_gst_number: order.gstNumber,
        address_line_1: order.addressLine1,
        address_line_2: order.addressLine2,
        city: order.city,
        state: order.state,
        country: "India",
        pincode: order.pincode,
        package_length: order.packageLength,
        package_width: order.packageBreadth,
        package_height: order.packageHeight,
        actual_weight: order.actualWeight,
        products: JSON.parse(order.products),
        payment_mode: order.paymentMode,
        discount: fromPaise(order.discountPaise),
        shipping_charge: fromPaise(order.shippingChargePaise),
        transaction_charge: fromPaise(order.transactionChargePaise),
        giftwrap_charge: fromPaise(order.giftwrapChargePaise),
        total_amount: fromPaise(order.totalAmountPaise),
        is_dangerous_good: false,
        ewaybill_no: order.ewaybillNo,
        delivery_remarks: order.deliveryRemarks,
        zone: order.zone,
        estimated_delivery_date: new Date(order.createdAt.getTime() + order.eddMaxDays * 86_400_000).toISOString(),
        logistic_data: { name: order.logisticName, mode: order.logisticMode },
        warehouse_id: order.warehouseId,
        created_at: order.createdAt.toISOString(),
        updated_at: order.updatedAt.toISOString(),
      };
    },

    async cancelOrder(client: ApiClient, body: unknown): Promise<CancelOrderResult> {
      const { awb } = parseOrFail(CancelOrderRequestSchema, body);
      const order = await currentOrder(await findOrder(client, awb));
      const result: CancelOrderResult = { success: true, awb, order_id: order.orderId, order_status: "CANCELLED", message: "Order cancelled" };
      if (order.statusCode === SERVICE_STATUS.CANCELLED) return result;
      const code = order.statusCode as ServiceStatusCode;
      if (!isCancellable(code)) {
        throw new ServiceFailure(409, `Shipment ${awb} is ${SERVICE_STATUS_LABELS[code]} and can no longer be cancelled`, [
          { field: "awb", message: "only shipments not yet picked up can be cancelled" },
        ]);
      }
      const last = toStep(order.events[order.events.length - 1]!);
      await recordSteps(order, advanceSteps(await routeOf(order), { last, now: now(), to: SERVICE_STATUS.CANCELLED }));
      return result;
    },

    /**
     * Sandbox only: moves a shipment on to its next stage, or along the graph to `to`. A retry changes nothing: a
     * shipment already at `to`, or no longer at `from`, is answered as it is.
     */
    async advance(client: ApiClient, body: unknown): Promise<TrackingResult> {
      const { awb, to, from, reason } = parseOrFail(AdvanceRequestSchema, body);
      const order = await currentOrder(await findOrder(client, awb));
      const last = toStep(order.events[order.events.length - 1]!);
      if (to === undefined ? from !== undefined && from !== last.code : to === last.code) return toTrackingResult(order);
      let steps: TrackingStep[];
      try {
        steps = advanceSteps(await routeOf(order), { last, now: now(), to, reason });
      } catch (error) {
        if (error instanceof IllegalMoveError) throw new ServiceFailure(409, error.message, [{ field: "to", message: error.message }]);
        throw error;
      }
      if (reason && !steps.some((step) => step.code === SERVICE_STATUS.UNDELIVERED)) {
        throw invalid([{ field: "reason", message: "reason is for a move to a failed delivery attempt (9, Undelivered); leave it out for this move" }]);
      }
      await recordSteps(order, steps);
      return toTrackingResult(await currentOrder(order));
    },

    /**
     * Sandbox only: the courier re-attempts a failed delivery — out again and delivered, failed again, or returned to
     * origin. Judged against the history (tracking-clock.ts, reattemptSteps), so a retry does nothing twice.
     */
    async reattempt(client: ApiClient, body: unknown): Promise<TrackingResult> {
      const { awb, attempt, result, reason } = parseOrFail(ReattemptRequestSchema, body);
      if (reason && result !== "failed") throw invalid([{ field: "reason", message: 'reason is for a re-attempt that fails again (result "failed"); leave it out' }]);
      const order = await currentOrder(await findOrder(client, awb));
      let steps: TrackingStep[];
      try {
        steps = reattemptSteps(await routeOf(order), order.events.map(toStep), { attempt, result, now: now(), reason });
      } catch (error) {
        if (error instanceof IllegalMoveError) throw new ServiceFailure(409, error.message, [{ field: "attempt", message: error.message }]);
        throw error;
      }
      await recordSteps(order, steps);
      return toTrackingResult(await currentOrder(order));
    },

    /**
     * Sandbox only: erases the calling account — its orders with their tracking, its warehouses, the account
     * itself (a later call with its keys opens it afresh). The shared account is not erasable this way.
     */
    async eraseAccount(client: ApiClient): Promise<EraseAccountResult> {
      if (!client.isSandbox || client.name === SHARED_SANDBOX_ACCOUNT) {
        throw new ServiceFailure(409, "Only a tenant's own sandbox account can be erased", [{ field: "X-Api-Key", message: "use a sandbox account key, not the shared sandbox pair" }]);
      }
      const [erased] = await db.$transaction([db.serviceOrder.deleteMany({ where: { apiClientId: client.id } }), db.apiClient.delete({ where: { id: client.id } })]);
      // The keys' next request opens a fresh account rather than reaching the erased one.
      forgetAccounts();
      return { success: true, erased_orders: erased.count };
    },

    /**
     * Sandbox only: the account's COD remittance statement (sandbox-statements.ts): the awbs named, in their order, or
     * the account's delivered cash-on-delivery orders, oldest delivery first.
     */
    async remittanceStatement(client: ApiClient, body: unknown): Promise<SandboxStatementResult> {
      const { awbs } = parseOrFail(SandboxStatementRequestSchema, body);
      if (!client.isSandbox) throw new ServiceFailure(409, "Only a sandbox account has sandbox statements");
      const orders = awbs
        ? await ordersByAwb(client, awbs)
        : await db.serviceOrder.findMany({ where: { apiClientId: client.id, orderType: "forward", paymentMode: "cod", statusCode: SERVICE_STATUS.DELIVERED }, orderBy: [{ deliveredAt: "asc" }, { id: "asc" }], take: MAX_STATEMENT_LINES });
      const { csv, lines } = remittanceCsv(orders.map(statementOrderOf), { account: client.apiKey, now: now(), leaveLastOut: !awbs });
      return { success: true, file_name: `cod-remittance-${now().toISOString().slice(0, 10)}.csv`, lines, csv };
    },

    /**
     * Sandbox only: the account's freight invoice (sandbox-statements.ts): the awbs named, in their order, or every
     * order of the account not cancelled, oldest first; the first two re-weighed a kilogram heavier and charged for it.
     */
    async freightInvoice(client: ApiClient, body: unknown): Promise<SandboxStatementResult> {
      const { awbs } = parseOrFail(SandboxStatementRequestSchema, body);
      if (!client.isSandbox) throw new ServiceFailure(409, "Only a sandbox account has sandbox statements");
      const orders = awbs ? await ordersByAwb(client, awbs) : await db.serviceOrder.findMany({ where: { apiClientId: client.id, cancelledAt: null }, orderBy: { id: "asc" }, take: MAX_STATEMENT_LINES });
      const byAwb = new Map(orders.map((order) => [order.awb, order]));
      const reprice = (order: { awb: string }, kg: number) => {
        const stored = byAwb.get(order.awb)!;
        return freightFor(cardFor(stored.logisticId), stored.zone as Zone, kg, stored.orderType === "reverse" ? "reverse" : "forward");
      };
      const { csv, lines } = invoiceCsv(orders.map(statementOrderOf), { now: now(), reprice });
      return { success: true, file_name: `freight-invoice-${now().toISOString().slice(0, 10)}.csv`, lines, csv };
    },

    /** Sandbox only: removes what identifies the shopper from the account's orders with these awbs; the rest stays. */
    async redactOrders(client: ApiClient, body: unknown): Promise<RedactOrdersResult> {
      const { awbs } = parseOrFail(RedactOrdersRequestSchema, body);
      if (!client.isSandbox) throw new ServiceFailure(409, "Only a sandbox account's orders can be redacted this way");
      const { count } = await db.serviceOrder.updateMany({
        where: { apiClientId: client.id, awb: { in: awbs } },
        data: { customerName: REDACTED, mobile: REDACTED, altMobile: "", customerEmail: "", companyName: "", gstNumber: "", addressLine1: REDACTED, addressLine2: "", deliveryRemarks: "" },
      });
      return { success: true, redacted_orders: count };
    },
  };
}

export type ShipmentService = ReturnType<typeof createShipmentService>;
