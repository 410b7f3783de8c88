import * as z from "zod";

/**
 * Dakiya's Shopify Flow triggers: what each is called, the fields a workflow reads from it, and the payload each
 * carries. Pure: the server fires them (flow-triggers.server.ts), the local store checks what it receives against
 * the same extensions (store/flow.ts), and a test holds every trigger's `shopify.extension.toml` (extensions/flow/)
 * to this table.
 *
 * Shopify's rules, as its CLI (4.8) enforces them on deploy: a handle of at most 30 characters, letters, digits and
 * hyphens; a custom field's key of letters and spaces only; a trigger's field types among boolean, email,
 * single_line_text_field, url, number_decimal (no integers) and the commerce references. An `order_reference` travels
 * in the payload as `order_id`, the order's number (its legacy id). The whole payload must stay under 50,000 bytes.
 */

/** Shopify Flow refuses a trigger payload of 50,000 bytes or more. */
export const FLOW_PAYLOAD_LIMIT_BYTES = 50_000;

export type TriggerFieldType = "order_reference" | "single_line_text_field" | "number_decimal" | "url";

export interface TriggerField {
  type: TriggerFieldType;
  /** The payload's key; absent for a reference, whose key is Shopify's (`order_id`). */
  key?: string;
  description: string;
}

export interface TriggerDefinition {
  /** The trigger's name in Flow's trigger list. */
  name: string;
  description: string;
  fields: readonly TriggerField[];
  /**
   * What fires it: a parcel's booking or a courier outcome's transition; an order's COD risk scored, or its shopper's
   * answer to the confirmation; a COD remittance statement's short line; a freight invoice's over-charge.
   */
  firedBy: "booking" | "tracking" | "cod_risk" | "cod_confirmation" | "cod_remittance" | "freight_invoice";
}

const ORDER: TriggerField = { type: "order_reference", description: "The Shopify order the parcel belongs to" };
/** Every trigger carries the order, and the parcel's name, awb, courier and status in words (empty before booking). */
const PARCEL: readonly TriggerField[] = [
  ORDER,
  { type: "single_line_text_field", key: "Parcel", description: "The parcel's name, as its label has it: the order's number (#1042), with -2, -3 for the order's further parcels" },
  { type: "single_line_text_field", key: "AWB", description: "The courier's tracking number for the parcel (empty before it is booked)" },
  { type: "single_line_text_field", key: "Courier", description: "The courier carrying the parcel (empty before it is booked)" },
  { type: "single_line_text_field", key: "Status", description: "Where the parcel is, in words" },
];
const TRACKED: readonly TriggerField[] = [...PARCEL, { type: "url", key: "Tracking URL", description: "The parcel's tracking page" }];

export const FLOW_TRIGGERS = {
  "dakiya-parcel-booked": { name: "Parcel booked with Dakiya", description: "A parcel of an order was booked with a courier and has its awb.", fields: TRACKED, firedBy: "booking" },
  "dakiya-out-for-delivery": { name: "Parcel out for delivery", description: "The courier is taking a parcel to the shopper today.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-parcel-delivered": { name: "Parcel delivered", description: "The courier delivered a parcel to the shopper.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-delivery-failed": {
    name: "Delivery attempt failed",
    description: "The courier tried to deliver a parcel and could not (an NDR): with the courier's reason and which attempt it was.",
    fields: [...TRACKED, { type: "number_decimal", key: "Attempt", description: "Which delivery attempt failed: 1 for the first" }, { type: "single_line_text_field", key: "Reason", description: "Why the delivery failed, in the courier's words" }],
    firedBy: "tracking",
  },
  "dakiya-rto-started": { name: "Parcel returning to seller (RTO)", description: "The courier is taking an undelivered parcel back to the warehouse.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-rto-delivered": { name: "RTO parcel back at warehouse", description: "A parcel the shopper never received is back at the warehouse.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-return-picked-up": { name: "Return picked up", description: "The courier collected a shopper's return.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-return-received": { name: "Return received", description: "A shopper's return reached the warehouse.", fields: TRACKED, firedBy: "tracking" },
  "dakiya-cod-risk-scored": {
    name: "COD risk scored",
    description: "Dakiya scored the risk of a cash-on-delivery order coming back (Flow's own Order risk analyzed trigger ignores apps' assessments).",
    fields: [...PARCEL, { type: "single_line_text_field", key: "Risk level", description: "high, medium, low or none" }, { type: "number_decimal", key: "Risk score", description: "0 to 100: higher is riskier" }, { type: "single_line_text_field", key: "Reasons", description: "Why, in words, separated by semicolons" }],
    firedBy: "cod_risk",
  },
  "dakiya-cod-answered": {
    name: "COD confirmation answered",
    description: "The shopper answered the request to confirm a cash-on-delivery order.",
    fields: [...PARCEL, { type: "single_line_text_field", key: "Answer", description: "confirmed, corrected, declined or paid online" }],
    firedBy: "cod_confirmation",
  },
  "dakiya-remittance-short": {
    name: "COD remittance short",
    description: "The courier remitted less cash on delivery for a parcel than the shopper paid.",
    fields: [
      ...PARCEL,
      { type: "number_decimal", key: "Expected amount", description: "What the shopper paid the courier, in rupees" },
      { type: "number_decimal", key: "Remitted amount", description: "What the courier remitted, in rupees" },
      { type: "number_decimal", key: "Short by", description: "The difference, in rupees" },
    ],
    firedBy: "cod_remittance",
  },
  "dakiya-weight-overcharged": {
    name: "Weight over-charged",
    description: "The courier charged a parcel for more weight than was declared.",
    fields: [
      ...PARCEL,
      { type: "number_decimal", key: "Declared weight", description: "The weight booked, in kg" },
      { type: "number_decimal", key: "Charged weight", description: "The weight the courier charged, in kg" },
      { type: "number_decimal", key: "Extra charge", description: "What the difference costs, in rupees" },
    ],
    firedBy: "freight_invoice",
  },
} as const satisfies Record<string, TriggerDefinition>;

export type FlowTrigger = keyof typeof FLOW_TRIGGERS;
export const FLOW_TRIGGER_HANDLES = Object.keys(FLOW_TRIGGERS) as FlowTrigger[];

export function isFlowTrigger(value: string): value is FlowTrigger {
  return Object.hasOwn(FLOW_TRIGGERS, value);
}

/** The payload's key for a field: Shopify's for a reference (`order_reference` → `order_id`), else its own. */
export const payloadKeyOf = (field: TriggerField): string => field.key ?? field.type.replace(/_reference$/, "_id");

const fieldSchema = (field: TriggerField): z.ZodType => {
  switch (field.type) {
    case "order_reference":
      return z.number().int().positive();
    case "number_decimal":
      return z.number().finite();
    case "url":
      return z.url().max(2_000);
    default:
      return z.string().max(1_000);
  }
};

/** A trigger's payload: exactly its fields, each of its type. */
export const payloadSchemaOf = (trigger: FlowTrigger) =>
  z.strictObject(Object.fromEntries(FLOW_TRIGGERS[trigger].fields.map((field) => [payloadKeyOf(field), fieldSchema(field)])));

export type FlowPayload = Record<string, string | number>;

export const payloadBytes = (payload: FlowPayload): number => new TextEncoder().encode(JSON.stringify(payload)).length;

/** Why a payload cannot be sent for the trigger, in words; null when it can. */
export function payloadProblem(trigger: FlowTrigger, payload: unknown): string | null {
  const parsed = payloadSchemaOf(trigger).safeParse(payload);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`).join("; ");
  const bytes = payloadBytes(parsed.data as FlowPayload);
  return bytes < FLOW_PAYLOAD_LIMIT_BYTES ? null : `${bytes} bytes, over Flow's ${FLOW_PAYLOAD_LIMIT_BYTES}`;
}

/** An order's number as Flow's `order_id`: the number in its GID. */
export function orderIdOf(orderGid: string): number {
  const match = /^gid:\/\/shopify\/Order\/(\d{1,20})$/.exec(orderGid);
  if (!match) throw new Error(`Not an order GID: ${orderGid}`);
  return Number(match[1]);
}

/** What of a parcel the payload names (the shipments' owner says it: app/shipments/shipment-changes.server.ts). */
export interface ParcelFacts {
  /** The order the parcel ships (a return's pickup: the order it comes back from). */
  orderGid: string;
  /** The parcel's name, as its label has it (#1042, #1042-2). */
  name: string;
  awb: string | null;
  courierName: string | null;
  trackingUrl: string | null;
}

/** The order, and the parcel's name, awb, courier and status in words: what every trigger carries. */
export function parcelFields(parcel: ParcelFacts, status: string): FlowPayload {
  return { order_id: orderIdOf(parcel.orderGid), Parcel: parcel.name, AWB: parcel.awb ?? "", Courier: parcel.courierName ?? "", Status: status };
}

/** The same, with the tracking page, for a parcel the courier has. */
export function trackedParcelFields(parcel: ParcelFacts, status: string): FlowPayload {
  return { ...parcelFields(parcel, status), "Tracking URL": parcel.trackingUrl ?? "" };
}

/** An event of a parcel that Dakiya sees itself: the booking, and the courier's stages that merchants act on. */
export type ParcelEvent =
  | { kind: "booked" }
  | { kind: "out_for_delivery" }
  | { kind: "delivered" }
  | { kind: "delivery_failed"; attempt: number; reason: string }
  | { kind: "rto_started" }
  | { kind: "rto_delivered" }
  | { kind: "return_picked_up" }
  | { kind: "return_received" };

const PARCEL_EVENTS: Readonly<Record<ParcelEvent["kind"], { trigger: FlowTrigger; status: string }>> = {
  booked: { trigger: "dakiya-parcel-booked", status: "Booked, waiting for pickup" },
  out_for_delivery: { trigger: "dakiya-out-for-delivery", status: "Out for delivery" },
  delivered: { trigger: "dakiya-parcel-delivered", status: "Delivered" },
  delivery_failed: { trigger: "dakiya-delivery-failed", status: "Delivery attempt failed" },
  rto_started: { trigger: "dakiya-rto-started", status: "Returning to you (RTO)" },
  rto_delivered: { trigger: "dakiya-rto-delivered", status: "Returned to you (RTO delivered)" },
  return_picked_up: { trigger: "dakiya-return-picked-up", status: "Return picked up from the shopper" },
  return_received: { trigger: "dakiya-return-received", status: "Return received at your warehouse" },
};

/** The trigger a parcel's event fires, and its payload. */
export function parcelEventTrigger(parcel: ParcelFacts, event: ParcelEvent): { trigger: FlowTrigger; payload: FlowPayload } {
  const { trigger, status } = PARCEL_EVENTS[event.kind];
  const payload = trackedParcelFields(parcel, status);
  // The courier's words are cut to what a workflow's message can use.
  return { trigger, payload: event.kind === "delivery_failed" ? { ...payload, Attempt: event.attempt, Reason: event.reason.slice(0, 500) } : payload };
}
