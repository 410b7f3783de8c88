import * as z from "zod";

/**
 * Every kind of background work Dakiya does, as a queue on PostgreSQL (pg-boss). Pure: the names, what each
 * job carries and how its queue behaves; the handlers are in handlers.server.ts.
 *
 * Every job is keyed by what it acts on (a shipment, an order, a shop) and its queue's policy keeps at most one
 * waiting and one running per key (`stately`), so enqueueing the same work twice is a no-op. Every job carries
 * its shop: a job never reaches another shop's data, and the admin lists a shop's stuck work by it.
 */

export const ShopJobSchema = z.object({ shop: z.string().min(1).max(255) });
const ShipmentJobSchema = ShopJobSchema.extend({ shipmentId: z.number().int().positive() });
const OrderJobSchema = ShopJobSchema.extend({ orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/) });
const ReturnJobSchema = ShopJobSchema.extend({ returnGid: z.string().regex(/^gid:\/\/shopify\/Return\/\d{1,20}$/) });
/** Work for every shop at once (a scheduled sweep that enqueues per-shop jobs). */
const SweepSchema = z.object({}).strict();

export const JOB_SCHEMAS = {
  /** Resumes a booking and fulfills its Shopify order: the watchdog of every booking, and its retries. */
  "shipment-complete": ShipmentJobSchema,
  /** Forgets a shop (shop/redact), here and in the sandbox's copy. */
  "shop-redact": ShopJobSchema,
  /** Removes one shopper's details (customers/redact). */
  "customers-redact": ShopJobSchema.extend({
    orderIds: z.array(z.number().int().positive()).max(10_000),
    // The keyed hashes of the customer's phone and e-mail (app/cod/shopper-keys.server.ts): never the values.
    shopperKeys: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(4).optional(),
  }),
  /**
   * Erases at the courier sandbox what a redaction already erased here: the shop's whole account (no awbs), or the
   * shopper's details on these bookings. Retried until the sandbox has done it.
   */
  "sandbox-erase": ShopJobSchema.extend({ awbs: z.array(z.string().min(1).max(64)).min(1).max(1_000).optional() }),
  /** Records a customer's request for their data (customers/data_request) for the merchant to answer. */
  "customers-data-request": ShopJobSchema.extend({
    requestId: z.string().min(1).max(255),
    shopperKeys: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(4).optional(),
    customerId: z.string().max(20),
    orderIds: z.array(z.number().int().positive()).max(10_000),
    requestedAt: z.iso.datetime(),
  }),
  /** app/scopes_update: the scopes the merchant has now granted, recorded on the shop's sessions. */
  "scopes-updated": ShopJobSchema.extend({ scopes: z.array(z.string().regex(/^[a-z_]{1,64}$/)).max(100) }),
  /** app/uninstalled: the shop's sessions go at once. */
  "app-uninstalled": ShopJobSchema,
  /** A new or changed order: read it fresh, store its readiness, book it by the shop's rules. */
  "order-check": OrderJobSchema,
  /** An order cancelled in Shopify: never booked from then on; a booking is cancelled with the courier. */
  "order-cancelled": OrderJobSchema,
  /**
   * A return changed in Shopify (returns/* webhooks, the reconciliation): read it fresh, record it, book its pickup
   * by the shop's return rule, cancel the pickup of a return cancelled or declined.
   */
  "return-check": ReturnJobSchema,
  /** Orders created or changed since the last pass, whose webhook never came: each gets an order-check. */
  "orders-reconcile": ShopJobSchema,
  /** Every ten minutes: an orders-reconcile for each installed shop. */
  "reconcile-sweep": SweepSchema,
  /** One pass over a shop's shipments due for a tracking sync. */
  "tracking-sync": ShopJobSchema,
  /** Every minute, and again when the next shipment falls due: a tracking-sync for each shop with due shipments. */
  "tracking-sweep": SweepSchema,
  /**
   * Product variants the storefront's estimates asked about, read from Shopify and kept: the estimate never reads
   * Shopify on a shopper's request. At most one batch per shop every half minute (app/storefront/variant-weights.server.ts).
   */
  "storefront-variant-weights": ShopJobSchema.extend({ variantGids: z.array(z.string().regex(/^gid:\/\/shopify\/ProductVariant\/\d{1,20}$/)).min(1).max(50) }),
  /** One recorded event of a Shopify Flow trigger, sent to Shopify (app/flow/flow-triggers.server.ts). */
  "flow-trigger": ShopJobSchema.extend({ eventId: z.number().int().positive() }),
  /** Parcels whose cash on delivery the courier remitted in full, recorded as paid in Shopify (app/reconciliation/). */
  "cod-shopify-payments": ShopJobSchema,
  /**
   * Asking a shopper to confirm cash on delivery, in Shopify: the hold and the link when asked, then what their answer
   * (or silence) needs — the correction, the invoice, the cancellation, the hold released (app/cod/confirmation.server.ts).
   */
  "cod-confirmation": OrderJobSchema,
  /** At a confirmation's deadline: silence does what the shop chose (remind once, book, or cancel). */
  "cod-deadline": OrderJobSchema,
  /**
   * When a failed-delivery rule's wait for the shopper's answer runs out (the courier's usual return): unanswered,
   * the rule's fallback decides (app/failed-deliveries/).
   */
  "failed-delivery-wait": ShipmentJobSchema,
  /** The shopper's corrected phone, address line or landmark for a failed delivery, written onto the Shopify order. */
  "failed-delivery-order-note": ShipmentJobSchema,
  /** The shop's day's NDR instructions e-mailed to the courier, once its hour has come (app/failed-deliveries/ndr-email.server.ts). */
  "ndr-email": ShopJobSchema,
  /** Every ten minutes: an ndr-email for each shop whose hour has come and whose day's mail has not gone. */
  "ndr-email-sweep": SweepSchema,
  /**
   * A shop's records that have served their purpose, deleted (app/privacy/retention.server.ts): webhook deliveries past
   * Shopify's redelivery, Flow's records past any repeat of their event. A bounded batch each; the next follows.
   */
  "data-retention": ShopJobSchema,
  /** Once a day: a data-retention for each installed shop. */
  "retention-sweep": SweepSchema,
} as const;

export type QueueName = keyof typeof JOB_SCHEMAS;
export type JobData<Q extends QueueName> = z.infer<(typeof JOB_SCHEMAS)[Q]>;
export const QUEUE_NAMES = Object.keys(JOB_SCHEMAS) as QueueName[];

export interface QueuePolicy {
  /**
   * How long failing work is retried before it fails for good (and the admin shows it with a Retry button): the
   * window the docs promise. The number of retries is derived from it (`retryLimitOf`).
   */
  retryForSeconds: number;
  /** First wait before a retry, seconds; doubled each time (with jitter) up to `retryDelayMax`. */
  retryDelay: number;
  retryDelayMax: number;
  /** A job running longer than this is presumed lost and retried. */
  expireInSeconds: number;
  /** What the merchant reads when this work needs them. */
  label: string;
  /**
   * Busy queues (new orders, bookings) run several jobs at once in each process and look for the next one half a
   * second after the last; quiet ones run one at a time and rely on being woken when work arrives.
   */
  busy: boolean;
  /**
   * The queue's jobs are put off to when tracked shipments fall due (the tracking sweep brought forward): a job put
   * off to later wakes no idle worker and is found at its next look, so the queue is looked at as often as
   * shipments can fall due (TRACKING_SYNC_SECONDS, when that is shorter than a quiet queue's usual wait).
   */
  fallsDueAtTrackingPace?: boolean;
}

/** How long a busy queue's worker waits before it looks for more work after a job, seconds. */
const BUSY_QUEUE_LOOKS_EVERY = 0.5;
/** How often a quiet queue is looked at between the NOTIFYs that wake it when work arrives, seconds. */
const QUIET_QUEUE_LOOKS_EVERY = 15;

/**
 * How often a queue's idle worker looks for work it was not woken for (jobs put off to later, retries), seconds: half
 * a second for busy queues; every TRACKING_SYNC_SECONDS, at most 15, for one whose jobs fall due at the tracking's
 * pace; 15 for the rest.
 */
export function idleLookSecondsOf(policy: Pick<QueuePolicy, "busy" | "fallsDueAtTrackingPace">, trackingSyncSeconds: number): number {
  if (policy.busy) return BUSY_QUEUE_LOOKS_EVERY;
  if (policy.fallsDueAtTrackingPace) return Math.max(1, Math.min(QUIET_QUEUE_LOOKS_EVERY, trackingSyncSeconds));
  return QUIET_QUEUE_LOOKS_EVERY;
}

/** Jobs of one busy queue a process runs at once, at most (and never more than WORKER_CONCURRENCY). */
export const BUSY_QUEUE_JOBS_AT_ONCE = 4;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DEFAULT_POLICY: QueuePolicy = { retryForSeconds: HOUR, retryDelay: 15, retryDelayMax: HOUR, expireInSeconds: 300, label: "Background work", busy: false };

/** Every queue's behaviour, the one table: README and docs/ARCHITECTURE.md quote its retry windows. */
export const QUEUE_POLICIES: Record<QueueName, QueuePolicy> = {
  // Shopify throttling or an unreachable courier can last: a booking's completion is retried for about a day.
  "shipment-complete": { ...DEFAULT_POLICY, retryForSeconds: DAY, busy: true, label: "Finishing a booking (courier booking and Shopify fulfillment)" },
  "shop-redact": { ...DEFAULT_POLICY, label: "Erasing an uninstalled shop's data" },
  "customers-redact": { ...DEFAULT_POLICY, label: "Erasing a customer's data" },
  // Erasure must complete whatever the sandbox's outage: hourly tries for over a year, never given up in practice.
  "sandbox-erase": { ...DEFAULT_POLICY, retryForSeconds: 366 * DAY, retryDelay: 60, label: "Erasing data at the courier sandbox" },
  "customers-data-request": { ...DEFAULT_POLICY, label: "Recording a customer's request for their data" },
  "scopes-updated": { ...DEFAULT_POLICY, label: "Recording the scopes a shop granted" },
  "app-uninstalled": { ...DEFAULT_POLICY, label: "Signing out an uninstalled shop" },
  "order-check": { ...DEFAULT_POLICY, busy: true, label: "Checking an order (readiness and auto-booking)" },
  // Cancelling a pickup with an unreachable courier is retried as long as a forward cancellation is.
  "return-check": { ...DEFAULT_POLICY, retryForSeconds: 2 * DAY, busy: true, label: "Checking a return (its pickup and the reverse delivery)" },
  // A cancellation with an unreachable courier is retried for about two days before it needs the merchant.
  "order-cancelled": { ...DEFAULT_POLICY, retryForSeconds: 2 * DAY, busy: true, label: "Cancelling a shipment with the courier" },
  // The next pass comes within ten minutes anyway.
  "orders-reconcile": { ...DEFAULT_POLICY, retryForSeconds: 2 * MINUTE, label: "Reading new and changed orders from Shopify" },
  "reconcile-sweep": { ...DEFAULT_POLICY, retryForSeconds: 15, label: "Scheduling order reconciliation" },
  "tracking-sync": { ...DEFAULT_POLICY, retryForSeconds: 7 * MINUTE, busy: true, expireInSeconds: 600, label: "Updating shoppers' tracking" },
  "tracking-sweep": { ...DEFAULT_POLICY, retryForSeconds: 15, fallsDueAtTrackingPace: true, label: "Scheduling tracking updates" },
  // The next shopper asking about a variant still unread asks again: a short window is enough.
  "storefront-variant-weights": { ...DEFAULT_POLICY, retryForSeconds: 2 * MINUTE, label: "Reading product weights for the storefront's delivery estimates" },
  // A workflow waiting on a parcel's news is worth a day of Shopify's throttling or outage.
  "flow-trigger": { ...DEFAULT_POLICY, retryForSeconds: DAY, label: "Telling Shopify Flow about a parcel" },
  // The merchant's books wait on it, not a shopper: a day of Shopify's throttling or outage.
  "cod-shopify-payments": { ...DEFAULT_POLICY, retryForSeconds: DAY, label: "Recording remitted cash on delivery as paid in Shopify" },
  // The shopper waits on it (their order held, their answer to carry out): a day of Shopify's throttling or outage.
  "cod-confirmation": { ...DEFAULT_POLICY, retryForSeconds: DAY, busy: true, label: "Asking a shopper to confirm cash on delivery, or carrying out their answer" },
  "cod-deadline": { ...DEFAULT_POLICY, retryForSeconds: DAY, label: "Acting on a shopper's silence at the confirmation's deadline" },
  // Only Dakiya's database: the courier's return is hours away, an hour of retries is plenty.
  "failed-delivery-wait": { ...DEFAULT_POLICY, label: "Deciding a failed delivery by its rule when the shopper has not answered in time" },
  // For the record, not the courier: a day of Shopify's throttling or outage.
  "failed-delivery-order-note": { ...DEFAULT_POLICY, retryForSeconds: DAY, label: "Writing a shopper's corrected contact onto the Shopify order" },
  // The courier's NDR desk acts within the day: a failing SMTP server is tried for six hours, then waits for the
  // merchant's Retry (Needs attention shows the failure from the first one).
  "ndr-email": { ...DEFAULT_POLICY, retryForSeconds: 6 * HOUR, retryDelay: 60, expireInSeconds: 180, label: "E-mailing the day's NDR instructions to the courier" },
  "ndr-email-sweep": { ...DEFAULT_POLICY, retryForSeconds: 15, label: "Scheduling the NDR instructions e-mails" },
  // Nothing waits on it: tomorrow's pass deletes whatever today's could not.
  "data-retention": { ...DEFAULT_POLICY, label: "Deleting records kept past their use" },
  "retention-sweep": { ...DEFAULT_POLICY, retryForSeconds: 15, label: "Scheduling the deletion of records kept past their use" },
};

type RetryTiming = Pick<QueuePolicy, "retryDelay" | "retryDelayMax">;

/**
 * pg-boss's wait before retry `retry` (0: after the first attempt failed), shortest and longest: with back-off it waits
 * retryDelay · 2^retry · (1 + a random fraction), at most retryDelayMax (pg-boss 12, `failJobs`).
 */
export function retryWait({ retryDelay, retryDelayMax }: RetryTiming, retry: number): { shortest: number; longest: number } {
  const base = Math.max(retryDelay, 1) * 2 ** Math.min(16, retry);
  return { shortest: Math.min(retryDelayMax, base), longest: Math.min(retryDelayMax, 2 * base) };
}

/** The fewest retries whose waits, each at its shortest, add up to the policy's window. */
export function retryLimitOf(policy: Pick<QueuePolicy, "retryForSeconds"> & RetryTiming): number {
  let retries = 0;
  for (let waited = 0; waited < policy.retryForSeconds; retries += 1) waited += retryWait(policy, retries).shortest;
  return retries;
}

/** From the first failure to the last attempt, shortest and longest, seconds: what the retries of the policy take. */
export function retryWindowOf(policy: Pick<QueuePolicy, "retryForSeconds"> & RetryTiming): { shortest: number; longest: number } {
  const window = { shortest: 0, longest: 0 };
  const retries = retryLimitOf(policy);
  for (let retry = 0; retry < retries; retry += 1) {
    const wait = retryWait(policy, retry);
    window.shortest += wait.shortest;
    window.longest += wait.longest;
  }
  return window;
}

/** Scheduled work: queue → cron (UTC). */
export const SCHEDULES: Partial<Record<QueueName, string>> = {
  "reconcile-sweep": "*/10 * * * *",
  "tracking-sweep": "* * * * *",
  "ndr-email-sweep": "*/10 * * * *",
  // 02:50 in India, where the shops' days are quiet.
  "retention-sweep": "20 21 * * *",
};

/** The shop a job works for, if it works for one. */
export const shopOf = (data: object): string | null => ("shop" in data && typeof data.shop === "string" ? data.shop : null);

/** The key that makes two jobs "the same work". */
export function jobKey<Q extends QueueName>(queue: Q, data: JobData<Q>): string {
  if (!("shop" in data)) return `sweep|${queue}`;
  if ("shipmentId" in data) return `${data.shop}|shipment:${data.shipmentId}`;
  if ("orderGid" in data) return `${data.shop}|${data.orderGid}`;
  if ("returnGid" in data) return `${data.shop}|${data.returnGid}`;
  if ("requestId" in data) return `${data.shop}|request:${data.requestId}`;
  if ("eventId" in data) return `${data.shop}|flow-event:${data.eventId}`;
  if ("orderIds" in data) {
    const keys = "shopperKeys" in data && data.shopperKeys ? `|keys:${[...data.shopperKeys].sort().join(",")}` : "";
    return `${data.shop}|orders:${[...data.orderIds].sort((a, b) => a - b).join(",")}${keys}`;
  }
  if ("awbs" in data && data.awbs) return `${data.shop}|awbs:${[...data.awbs].sort().join(",")}`;
  return `${data.shop}|${queue}`;
}
