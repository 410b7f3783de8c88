import { timingSafeEqual } from "node:crypto";
import * as z from "zod";
import { FINAL_OUTCOMES, isShipmentOutcome, SHIPMENT_OUTCOME, SHIPMENT_STATUS, TRACKED_STATUSES, type ShipmentOutcome } from "~/shipments/lifecycle";
import { getConfig } from "~/config.server";
import { createCallerLimiter, type CallerLimits } from "~/caller-limits.server";
import prisma from "~/db.server";
import { parcelName } from "~/shipments/parcels";
import { enqueue } from "~/jobs/job-queue.server";
import { describeError } from "~/logging.server";
import { isServiceStatusCode, SERVICE_STATUS, type ServiceStatusCode } from "~/shipping/status";
import { TRACKING_LINK_TOKEN_SHAPE, trackingLinkTokenOf } from "~/shipping/tracking-url";
import { isFinalStage, STAGES } from "./courier-progress";
import { getPublicSeller, type PublicSeller } from "./seller.server";

/**
 * What the public tracking page (`/track/{awb}`, linked from Shopify's shipping email) may show of a shipment: its
 * stage, dates, courier, awb, destination city, the courier's timeline, the order's number, the cash to keep ready and
 * the seller (its name, store, logo and contact) — and nothing else. No name, phone, e-mail, street, PIN code or
 * internal id of the shopper's leaves this module: the page gets a `PublicTracking`, built
 * field by field, never a row. The courier's own words (activity, place) pass through a redaction of the shopper's
 * details as stored in the booking body, since couriers write things like "Delivered to ASHA RAO".
 *
 * Only the holder of the shipment's tracking link sees all of that: the link the courier sandbox hands out carries a
 * random token (app/shipping/tracking-url.ts), and without it — a number typed, guessed or from an older link — the
 * view holds the stage alone (`detail: "stage"`), so trying awbs in bulk tells nobody where anyone's parcel is or when
 * it comes.
 *
 * The page never calls the courier or Shopify: a shipment last synced longer ago than its stage's poll interval
 * gets its shop's `tracking-sync` job enqueued (de-duplicated by the queue), and the page shows what is known now.
 */


/** The longest timeline shown: a real shipment has a few dozen scans. */
const MAX_TIMELINE_ENTRIES = 200;

/**
 * An awb as couriers write them: letters and digits (Delhivery's 14 digits, India Post's EM123456789IN), at times
 * with `-` or `_`; 4 to 64 characters (the contract's limit on awbs). Anything else is not looked up.
 */
const AWB_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_-]{3,63}$/;

/** The awb from the address (Remix has decoded it), or null when it cannot be one. */
export function parseAwb(raw: string | undefined): string | null {
  const awb = (raw ?? "").trim();
  return AWB_SHAPE.test(awb) ? awb : null;
}

/** How the page colours the stage: ordinary progress, something that delays it, done, or a parcel that will not arrive. */
export type StageTone = "progress" | "attention" | "done" | "problem";

/** The steps of an ordinary delivery, in order, as the page's progress bar shows them. */
export const MILESTONES = ["booked", "shipped", "nearby", "outForDelivery", "delivered"] as const;
export type Milestone = (typeof MILESTONES)[number];

/** Where each stage sits on the way to the shopper; null for the exceptions that leave it (cancelled, returned, lost, damaged). */
const MILESTONE_OF: Readonly<Record<ServiceStatusCode, Milestone | null>> = {
  2: "booked",
  3: "booked",
  4: "booked",
  5: "shipped",
  13: "shipped",
  6: "nearby",
  7: "outForDelivery",
  9: "outForDelivery",
  8: "delivered",
  10: null,
  11: null,
  12: null,
  14: null,
  15: null,
};

const toneOf = (code: ServiceStatusCode | null): StageTone => {
  if (code === null) return "progress";
  if (code === SERVICE_STATUS.DELIVERED) return "done";
  if (MILESTONE_OF[code] === null) return "problem";
  return STAGES[code].exception ? "attention" : "progress";
};

export interface PublicTimelineEntry {
  code: ServiceStatusCode;
  /** The courier's words, with the shopper's details redacted. */
  activity: string;
  place: string | null;
  /** ISO 8601. */
  at: string;
}

/**
 * How much of a shipment the caller may see: everything ("full", the holder of its tracking link), or only its stage
 * ("stage": courier, city, dates, freshness and timeline are left empty).
 */
export type TrackingDetail = "full" | "stage";

/** Everything the public page shows of a shipment. Dates are ISO 8601 instants; the page shows them in India's time. */
export interface PublicTracking {
  awb: string;
  /** A return's pickup is told in return words (tracking-locale.ts) and has no delivery steps to show. */
  direction: "forward" | "return";
  detail: TrackingDetail;
  courier: string | null;
  destinationCity: string | null;
  /** The courier's latest stage; null until the courier has reported one. */
  stage: ServiceStatusCode | null;
  /** Where the courier has the parcel (app/shipments/lifecycle.ts), and its attempts to deliver so far. */
  outcome: ShipmentOutcome;
  deliveryAttempts: number;
  tone: StageTone;
  /** The step of an ordinary delivery the parcel is at; null when an exception took it off that path. */
  milestone: Milestone | null;
  /** No further progress follows (delivered, cancelled, returned, lost, damaged). */
  isFinal: boolean;
  expectedDeliveryAt: string | null;
  deliveredAt: string | null;
  /** When Dakiya last read the courier's tracking. */
  checkedAt: string | null;
  /** The tracking was stale and a sync has been asked for now. */
  refreshRequested: boolean;
  /** Newest first. */
  timeline: PublicTimelineEntry[];
  /** The shop's order number ("#1042"), the seller, and the cash on delivery to keep ready (paise; null when prepaid or no longer due): only in the full view. */
  orderName: string | null;
  seller: PublicSeller | null;
  codDuePaise: number | null;
}

// ─── The booking body: the city to show, and the shopper's details to keep out of the courier's words ────────

// Each field is read on its own and a malformed one ignored: the page must render for any stored body (also one
// customers/redact has rewritten, where these read "[redacted]").
const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const textOrNumber = loose(z.union([z.string(), z.number()]).transform(String));
const StoredBodySchema = z.object({
  city: loose(z.string().trim().min(1).max(100)),
  state: loose(z.string()),
  order_id: textOrNumber,
  name: textOrNumber,
  company_name: textOrNumber,
  mobile: textOrNumber,
  alt_mobile: textOrNumber,
  email: textOrNumber,
  gst_number: textOrNumber,
  address_line_1: textOrNumber,
  address_line_2: textOrNumber,
  pincode: textOrNumber,
  delivery_remarks: textOrNumber,
  total_amount: loose(z.coerce.number().positive().max(10_000_000)),
});
type StoredBody = z.infer<typeof StoredBodySchema>;

function readStoredBody(requestPayload: string): StoredBody {
  try {
    const parsed = StoredBodySchema.safeParse(JSON.parse(requestPayload));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const MASK = "•••";
// Phone numbers and e-mail addresses of anyone, not only the shopper's as stored: an Indian mobile with or without
// +91, and anything shaped like an address.
const ANY_PHONE = /(?<!\d)(?:\+?91[\s-]?)?[6-9]\d{4}[\s-]?\d{5}(?!\d)/g;
const ANY_EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/g;

/**
 * A function that masks the shopper's details in a courier's text: the name and each word of it, phone numbers,
 * e-mail, company, GST number, PIN code, the order's name, and the address lines with each of their comma-separated
 * parts — whole words only, case-insensitive. The destination city and state are kept: the page shows the city.
 */
export function shopperDetailsRedactor(body: StoredBody): (text: string) => string {
  const keep = new Set([body.city, body.state].filter(Boolean).map((value) => value!.trim().toLowerCase()));
  const secrets = new Set<string>();
  const add = (value: string | undefined, minLength = 3) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= minLength && trimmed !== "[redacted]" && !keep.has(trimmed.toLowerCase())) secrets.add(trimmed);
  };
  for (const value of [body.name, body.company_name]) {
    add(value);
    for (const word of value?.split(/\s+/) ?? []) add(word);
  }
  for (const value of [body.mobile, body.alt_mobile]) {
    add(value);
    const digits = value?.replace(/\D/g, "") ?? "";
    add(digits.slice(-10), 8);
  }
  for (const value of [body.email, body.gst_number, body.pincode, body.order_id, body.delivery_remarks]) add(value);
  for (const value of [body.address_line_1, body.address_line_2]) {
    add(value);
    for (const part of value?.split(",") ?? []) add(part, 4);
  }
  const known = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = known.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${known.join("|")})(?![\\p{L}\\p{N}])`, "giu") : null;
  return (text) => {
    // The patterns first: a known phone number masked alone would leave its "+91-" behind.
    const masked = text.replace(ANY_EMAIL, MASK).replace(ANY_PHONE, MASK);
    return pattern ? masked.replace(pattern, MASK) : masked;
  };
}

// ─── Freshness ────────────────────────────────────────────────────────────────────────────────────────────────

interface Freshness {
  stage: ServiceStatusCode | null;
  syncedAt: Date | null;
  nextSyncAt: Date | null;
}

/**
 * Whether the page should ask for a sync: the shipment is not in a final stage and was last read from the courier
 * longer ago than its stage's poll interval (never read: stage 2's). A shipment no longer polled (nextSyncAt null:
 * the courier stopped knowing the awb, and the merchant was told) is left alone: the sync would skip it.
 */
export function needsSync({ stage, syncedAt, nextSyncAt }: Freshness, now: Date, baseSeconds: number): boolean {
  if (stage !== null && isFinalStage(stage)) return false;
  if (nextSyncAt === null) return false;
  if (syncedAt === null) return true;
  return now.getTime() - syncedAt.getTime() > STAGES[stage ?? SERVICE_STATUS.MANIFESTED].pollEvery * baseSeconds * 1000;
}

// The page waits this long for the job to be enqueued (one insert, normally milliseconds), then shows what it has;
// a slower enqueue finishes on its own.
const SYNC_REQUEST_WAIT_MS = 1_500;

async function askForSync(shop: string, requestSync: (shop: string) => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const requested = requestSync(shop).then(
    () => true,
    (error: unknown) => {
      // Only the kind and place: the page still shows what is known.
      console.error(`Tracking page: asking for a tracking sync failed: ${describeError(error)}`);
      return false;
    },
  );
  const waited = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), SYNC_REQUEST_WAIT_MS);
  });
  try {
    return await Promise.race([requested, waited]);
  } finally {
    clearTimeout(timer);
  }
}

// ─── The lookup ───────────────────────────────────────────────────────────────────────────────────────────────

export interface PublicTrackingDeps {
  /** The `token` of the link the caller followed (`?token=`); the full view only when it is the shipment's own. */
  token?: string | null;
  /**
   * The caller has shown by other means that the shopper may see this shipment (e.g. a request Shopify signed for the
   * shopper's own order): the full view whatever the token.
   */
  verified?: boolean;
  now?: () => Date;
  /** TRACKING_SYNC_SECONDS. */
  baseSeconds?: number;
  /** Asks for the shop's tracking sync; the job queue by default. */
  requestSync?: (shop: string) => Promise<unknown>;
  /** Only this shop's shipments (the page on a shop's own domain shows no other shop's parcels). */
  shop?: string;
}

/** Whether `given` is the token of the shipment's stored link; compared in constant time. */
export function isTrackingLinkToken(storedTrackingUrl: string | null, given: string | null | undefined): boolean {
  const expected = trackingLinkTokenOf(storedTrackingUrl);
  if (!expected || !given || !TRACKING_LINK_TOKEN_SHAPE.test(given)) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The public view of the shipment with this awb, or null when there is none (or the text cannot be an awb). The
 * awb is matched as written and in capitals (a shopper typing "em123…in"), through the awb index. Two shops'
 * shipments under one awb (two couriers' number ranges meeting) show the newer. Its details only with the link's
 * token (`deps.token`) or when `deps.verified`; otherwise the stage alone.
 */
export async function getPublicTracking(rawAwb: string | undefined, deps: PublicTrackingDeps = {}): Promise<PublicTracking | null> {
  const awb = parseAwb(rawAwb);
  if (!awb) return null;
  const now = (deps.now ?? (() => new Date()))();
  const shipment = await prisma.shipment.findFirst({
    where: { awb: { in: [...new Set([awb, awb.toUpperCase()])] }, status: { in: [...TRACKED_STATUSES] }, ...(deps.shop ? { shop: deps.shop } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      shop: true,
      orderName: true,
      parcel: true,
      paymentMode: true,
      status: true,
      direction: true,
      awb: true,
      courierName: true,
      requestPayload: true,
      trackingUrl: true,
      outcome: true,
      deliveryAttempts: true,
      courierStatusCode: true,
      courierStatusAt: true,
      estimatedDeliveryAt: true,
      deliveredAt: true,
      syncedAt: true,
      nextSyncAt: true,
      trackingEvents: {
        select: { code: true, activity: true, location: true, happenedAt: true },
        orderBy: [{ happenedAt: "desc" }, { id: "desc" }],
        take: MAX_TIMELINE_ENTRIES,
      },
    },
  });
  if (!shipment?.awb) return null;

  const reported = shipment.courierStatusCode !== null && isServiceStatusCode(shipment.courierStatusCode) ? shipment.courierStatusCode : null;
  const outcome = isShipmentOutcome(shipment.outcome) ? shipment.outcome : SHIPMENT_OUTCOME.AWAITING_PICKUP;
  // Cancelled with the courier (which is possible only before pickup) and not yet synced since: the parcel will not
  // come, whatever the courier's last scan said.
  const cancelledHere = shipment.status === SHIPMENT_STATUS.CANCELLED && !FINAL_OUTCOMES.includes(outcome);
  const stage = cancelledHere ? SERVICE_STATUS.CANCELLED : reported;
  const isFinal = cancelledHere || FINAL_OUTCOMES.includes(outcome);

  const body = readStoredBody(shipment.requestPayload);
  const redact = shopperDetailsRedactor(body);
  const timeline = shipment.trackingEvents.flatMap((event): PublicTimelineEntry[] =>
    isServiceStatusCode(event.code) ? [{ code: event.code, activity: redact(event.activity), place: event.location ? redact(event.location) : null, at: event.happenedAt.toISOString() }] : [],
  );

  const arrived = outcome === SHIPMENT_OUTCOME.DELIVERED || outcome === SHIPMENT_OUTCOME.RECEIVED;
  const delivered = arrived && !cancelledHere ? (shipment.deliveredAt ?? shipment.courierStatusAt) : null;
  // Past a final stage, or on the way back to the seller, there is no delivery to expect.
  const expectsDelivery = !isFinal && outcome !== SHIPMENT_OUTCOME.RTO_INITIATED;

  let refreshRequested = false;
  const baseSeconds = deps.baseSeconds ?? getConfig().TRACKING_SYNC_SECONDS;
  if (needsSync({ stage, syncedAt: shipment.syncedAt, nextSyncAt: shipment.nextSyncAt }, now, baseSeconds)) {
    refreshRequested = await askForSync(shipment.shop, deps.requestSync ?? ((shop) => enqueue("tracking-sync", { shop })));
  }

  const direction = shipment.direction === "return" ? "return" : "forward";
  const milestone = direction === "return" ? null : stage === null ? "booked" : MILESTONE_OF[stage];
  if (!deps.verified && !isTrackingLinkToken(shipment.trackingUrl, deps.token)) {
    return {
      awb: shipment.awb,
      direction,
      detail: "stage",
      courier: null,
      destinationCity: null,
      stage,
      outcome,
      deliveryAttempts: shipment.deliveryAttempts,
      tone: toneOf(stage),
      milestone,
      isFinal,
      expectedDeliveryAt: null,
      deliveredAt: null,
      checkedAt: null,
      refreshRequested,
      timeline: [],
      orderName: null,
      seller: null,
      codDuePaise: null,
    };
  }

  return {
    awb: shipment.awb,
    direction,
    detail: "full",
    courier: shipment.courierName,
    destinationCity: body.city ?? null,
    stage,
    outcome,
    deliveryAttempts: shipment.deliveryAttempts,
    tone: toneOf(stage),
    milestone,
    isFinal,
    expectedDeliveryAt: expectsDelivery ? (shipment.estimatedDeliveryAt?.toISOString() ?? null) : null,
    deliveredAt: delivered?.toISOString() ?? null,
    checkedAt: shipment.syncedAt?.toISOString() ?? null,
    refreshRequested,
    timeline,
    // A parcel of an order that ships as several is named as its label names it (#1042-2).
    orderName: shipment.orderName ? parcelName(shipment) : null,
    seller: await getPublicSeller(shipment.shop),
    // The booked cash-on-delivery amount, while the parcel is still coming.
    codDuePaise: shipment.paymentMode === "cod" && body.total_amount !== undefined && expectsDelivery && !arrived ? Math.round(body.total_amount * 100) : null,
  };
}

// ─── Rate limit ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Lookups by number per caller, so awbs cannot be tried in bulk. Many phones can share one IPv4 address behind a
 * carrier's NAT, hence a limit well above what one shopper does (a look, a language switch, a reload).
 */
export const TRACKING_LOOKUP_LIMITS: CallerLimits = { limit: 30, windowMs: 60_000, maxTracked: 10_000 };

/**
 * Opens of one parcel's tracking link a minute, by whoever holds it: the shopper, their family, a reload. Counted by
 * the parcel, so nobody without its link uses up its share.
 */
export const TRACKING_LINK_LIMITS: CallerLimits = { limit: 60, windowMs: 60_000, maxTracked: 20_000 };

/** This process's limiter for `/track/{awb}` by number, per caller address. */
export const trackingLookupLimiter = createCallerLimiter({ limits: TRACKING_LOOKUP_LIMITS });

/** This process's limiter for opens of tracking links (`?token=` of the parcel's own), per parcel, on either page. */
const trackingLinkLimiter = createCallerLimiter({ limits: TRACKING_LINK_LIMITS, keyOf: (parcel) => parcel });

export type TrackingLookup =
  | { kind: "found"; tracking: PublicTracking }
  | { kind: "not_found" }
  /** Over a limit: come back in `wait` seconds. `byLink`: the parcel's own link was opened too often. */
  | { kind: "limited"; wait: number; byLink: boolean };

export interface TrackingLookupOptions extends Pick<PublicTrackingDeps, "token" | "shop" | "now" | "baseSeconds" | "requestSync"> {
  /** Counts one lookup by number (no link, or a token that is not the parcel's) and answers the wait, 0 when allowed. */
  takeByNumber: () => number;
  /** Opens of one parcel's link; this process's limiter by default. */
  linkLimiter?: Pick<ReturnType<typeof createCallerLimiter>, "take">;
}

/**
 * A lookup on a public page, limited so that nobody can hold up the shoppers who follow their parcel's link: a
 * lookup with the parcel's own token is counted against that parcel's link alone, never against the caller, the
 * shop or anyone else's lookups; a lookup by number (no token, or one that is not the parcel's) is counted by
 * `takeByNumber` — before the database is asked when there is no token to check.
 */
export async function lookUpTracking(rawAwb: string | undefined, { takeByNumber, linkLimiter = trackingLinkLimiter, ...deps }: TrackingLookupOptions): Promise<TrackingLookup> {
  const hasToken = Boolean(deps.token && TRACKING_LINK_TOKEN_SHAPE.test(deps.token));
  if (!hasToken) {
    const wait = takeByNumber();
    if (wait > 0) return { kind: "limited", wait, byLink: false };
  }
  const tracking = await getPublicTracking(rawAwb, deps);
  if (hasToken && tracking?.detail === "full") {
    const wait = linkLimiter.take(`${deps.shop ?? ""}|${tracking.awb}`);
    return wait > 0 ? { kind: "limited", wait, byLink: true } : { kind: "found", tracking };
  }
  if (hasToken) {
    // A token that is not the parcel's is a lookup by number like any other.
    const wait = takeByNumber();
    if (wait > 0) return { kind: "limited", wait, byLink: false };
  }
  return tracking ? { kind: "found", tracking } : { kind: "not_found" };
}
