import * as z from "zod";
import { REATTEMPT_RESULTS, SERVICE_STATUS_CODES, SERVICE_STATUS_LABELS, UNDELIVERED_REASON_CODES } from "./status";
import { isSafeTrackingUrl, TRACKING_URL_RULE } from "./tracking-url";

/**
 * The Shipment Order Service's wire contract (../shared/spec/shipment-order-service.md).
 * One set of schemas for both sides: the client validates what it sends and parses what it gets,
 * the embedded service validates what it receives. Field names stay in the spec's snake_case.
 */

export const MAX_PRODUCTS = 10;
export const ORDER_DATE_MAX_AGE_DAYS = 7;
export const EWAYBILL_THRESHOLD_RUPEES = 50_000;
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Pathological JSON is refused before validation: zod's error report recurses into every level and
 * overflows the stack on a body nested a few thousand deep, and reports every entry of a huge list.
 * The real bodies need 3 levels (order → products → product) and fewer than 40 keys.
 */
export const MAX_JSON_DEPTH = 20;
export const MAX_JSON_ENTRIES = 1000;
/** Courier selector (spec: "Courier identifiers"): the one place these four ids are listed. */
export const LOGISTIC_IDS = [1, 2, 3, 4] as const;
export type LogisticId = (typeof LOGISTIC_IDS)[number];
export const isLogisticId = (value: unknown): value is LogisticId => LOGISTIC_IDS.includes(value as LogisticId);

/**
 * Upper bounds the spec does not give. Without them a number like 1.8e308 turns the charges into
 * Infinity, and 2^53 cm is stored and quoted. Money is at most ₹1,00,00,000 and whole paise, because
 * the app keeps money as integer paise.
 */
export const MAX_RUPEES = 10_000_000;
export const MAX_PACKAGE_SIDE_CM = 500;
export const MAX_WEIGHT_KG = 1000;
export const MAX_QUANTITY = 10_000;
/** The largest 32-bit signed integer: the database's id column. */
export const MAX_WAREHOUSE_ID = 2_147_483_647;

/** Decimal places as the number was written, e.g. 0.29 → 2, 1e-7 → 7, 0.1 + 0.2 → 17. */
export function decimalPlaces(value: number): number {
  // Shortest round-trip form, so it reads as the sender wrote it.
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) return Infinity;
  return Math.max(0, (match[1]?.length ?? 0) - Number(match[2] ?? 0));
}

/**
 * Longest text each field takes: enough for any real value, so a megabyte of name is refused
 * rather than stored, echoed and printed on a label.
 */
export const MAX_TEXT_LENGTH = {
  order_id: 64,
  awb: 64,
  name: 200,
  company_name: 200,
  // Shopify's own limit for a product title.
  product_name: 255,
  sku: 100,
  mobile: 20,
  alt_mobile: 20,
  // RFC 5321's longest usable address.
  email: 254,
  gst_number: 20,
  address_line_1: 500,
  address_line_2: 500,
  city: 100,
  state: 100,
  ewaybill_no: 20,
  delivery_remarks: 500,
} as const;
type TextField = keyof typeof MAX_TEXT_LENGTH;

const tooLong = (field: TextField) => ({ error: `${field} must be at most ${MAX_TEXT_LENGTH[field]} characters` });

/**
 * Text no field takes: the C0 control characters (NUL, line breaks, tabs, escapes…), DEL and the C1 controls.
 * PostgreSQL refuses NUL in text outright (a 500 before this rule), and the others garble labels, CSV exports, logs
 * and the screens that show them. Free-text remarks may break lines: they take line feeds, carriage returns and tabs.
 * Lone UTF-16 surrogates (`"\ud800"` in JSON) cannot be stored as UTF-8 either and are refused as broken text.
 */
const CONTROL_CHARACTERS = /\p{Cc}/u;
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;
// The same rules as JSON Schema patterns for the OpenAPI document, in explicit ranges (\p{…} needs a validator's
// Unicode mode): \p{Cc} is exactly U+0000–U+001F and U+007F–U+009F.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const WITHOUT_CONTROL_CHARACTERS_BUT_LINE_BREAKS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/** Whether a text can be stored, printed and shown as it is: no control characters, no broken UTF-16. */
export const isPlainText = (value: string, { lineBreaks = false } = {}) =>
  !(lineBreaks ? CONTROL_CHARACTERS_BUT_LINE_BREAKS : CONTROL_CHARACTERS).test(value) && !LONE_SURROGATE.test(value);

/**
 * A string field's rules on the text as sent (before trimming, so the document's pattern and length describe what the
 * service takes): no control characters, valid Unicode, at most `max` characters.
 */
const plainString = (field: string, max: number, { lineBreaks = false } = {}) =>
  z
    .string({ error: `${field} must be text` })
    // As patterns, so the OpenAPI document states them.
    .regex(lineBreaks ? WITHOUT_CONTROL_CHARACTERS_BUT_LINE_BREAKS : WITHOUT_CONTROL_CHARACTERS, {
      error: `${field} must not contain control characters${lineBreaks ? " other than line breaks and tabs" : " such as NUL, tabs or line breaks"}`,
    })
    .refine((value) => !LONE_SURROGATE.test(value), { error: `${field} must be valid Unicode text` })
    .max(max, { error: `${field} must be at most ${max} characters` });

/** Fields whose text may run over several lines. */
const MULTILINE_FIELDS: ReadonlySet<TextField> = new Set(["delivery_remarks"]);

const text = (field: TextField) =>
  plainString(field, MAX_TEXT_LENGTH[field], { lineBreaks: MULTILINE_FIELDS.has(field) })
    .trim()
    .min(1, { error: `${field} must not be empty` });

const optionalText = (field: TextField) => plainString(field, MAX_TEXT_LENGTH[field], { lineBreaks: MULTILINE_FIELDS.has(field) }).trim().optional();

/** An air waybill number, in a body or a path. */
export const AwbSchema = text("awb");
/** The `{awb}` of track-order and get-order. */
export const AwbPathSchema = z.object({ awb: AwbSchema });

const money = (field: string) =>
  z
    .number({ error: `${field} must be a number of rupees` })
    .min(0, { error: `${field} must not be negative` })
    .max(MAX_RUPEES, { error: `${field} must be at most ₹1,00,00,000 (${MAX_RUPEES})` })
    .refine((value) => decimalPlaces(value) <= 2, { error: `${field} must have at most 2 decimal places (paise)` })
    // The refinement is invisible to JSON Schema; say it there too.
    .meta({ multipleOf: 0.01 });

/**
 * Pincode: exactly 6 digits, the first not 0; the spec types it integer but its sample sends a string, so both are
 * accepted — a string exactly as sent, with no blanks around it.
 */
export const PincodeSchema = (field: string) => {
  const sixDigits = { error: `${field} must be exactly 6 digits, e.g. 400001` };
  return z
    .union(
      [
        z.number(sixDigits).int(sixDigits).min(100_000, sixDigits).max(999_999, sixDigits),
        z.string(sixDigits).regex(/^[1-9]\d{5}$/, sixDigits),
      ],
      sixDigits,
    )
    .transform((value) => Number(value))
    .meta({ description: "A 6-digit Indian PIN code (not starting with 0), as a number or as a string of exactly 6 digits" });
};

/** Package sides: whole centimetres, more than 1 (spec "Limits"), at most 500. */
const centimetres = (field: string) =>
  z
    .number({ error: `${field} must be a whole number of centimetres` })
    .int({ error: `${field} must be a whole number of centimetres` })
    .gt(1, { error: `${field} must be more than 1 cm` })
    .max(MAX_PACKAGE_SIDE_CM, { error: `${field} must be at most ${MAX_PACKAGE_SIDE_CM} cm` });

/** Weights: the spec types them integer kg but its samples send fractions; kg to the gram are accepted. */
const kilograms = (field: string) =>
  z
    .number({ error: `${field} must be a weight in kg` })
    .gt(0, { error: `${field} must be more than 0 kg` })
    .max(MAX_WEIGHT_KG, { error: `${field} must be at most ${MAX_WEIGHT_KG} kg` })
    .refine((value) => decimalPlaces(value) <= 3, { error: `${field} must have at most 3 decimal places (grams)` })
    .meta({ multipleOf: 0.001 });

export const PaymentModeSchema = z.enum(["cod", "prepaid"], { error: 'payment_mode must be "cod" or "prepaid"' });
export type PaymentMode = z.infer<typeof PaymentModeSchema>;

export const ShipmentTypeSchema = z.enum(["forward", "reverse"], { error: 'must be "forward" or "reverse"' });
export type ShipmentType = z.infer<typeof ShipmentTypeSchema>;

const mobile = (field: "mobile" | "alt_mobile") =>
  plainString(field, MAX_TEXT_LENGTH[field])
    // The refinement below is invisible to JSON Schema: the pattern says which characters it may hold.
    .regex(/^[0-9+ -]*$/, { error: `${field} must be a 10-digit Indian mobile number, optionally prefixed by +91 or 0` })
    .trim()
    .refine((value) => /^(?:\+?91|0)?[6-9]\d{9}$/.test(value.replace(/[ -]/g, "")), {
      error: `${field} must be a 10-digit Indian mobile number, optionally prefixed by +91 or 0`,
    })
    .meta({ description: "A 10-digit Indian mobile number starting 6–9, optionally prefixed by +91, 91 or 0; spaces and dashes are ignored" });

export const ProductSchema = z.object({
  product_name: text("product_name"),
  price: money("price"),
  quantity: z
    .number({ error: "quantity must be a whole number" })
    .int({ error: "quantity must be a whole number" })
    .min(1, { error: "quantity must be at least 1" })
    .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY.toLocaleString("en-IN")}` }),
  sku: optionalText("sku"),
  tax: money("tax").optional(),
  discount: money("discount").optional(),
});
export type Product = z.infer<typeof ProductSchema>;

/** Today's date in India (UTC+05:30, no daylight saving), as YYYY-MM-DD. */
export function indiaDate(instant: Date): string {
  return new Date(instant.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / 86_400_000);
}

/** What an order_date older than the window is refused with. */
export const ORDER_DATE_TOO_OLD = `order_date must fall within the last ${ORDER_DATE_MAX_AGE_DAYS} days`;

/** order_date: YYYY-MM-DD, a real calendar day, within the last 7 days in India time. */
export const orderDateSchema = (now: () => Date) =>
  z
    .string({ error: "order_date must be a date as YYYY-MM-DD" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "order_date must be a date as YYYY-MM-DD" })
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
      error: "order_date is not a real calendar date",
    })
    .superRefine((value, context) => {
      const age = daysBetween(value, indiaDate(now()));
      if (age < 0) context.addIssue({ code: "custom", message: "order_date must not be in the future (India time)" });
      else if (age > ORDER_DATE_MAX_AGE_DAYS) {
        context.addIssue({ code: "custom", message: ORDER_DATE_TOO_OLD });
      }
    })
    .meta({
      description:
        `A real calendar day as YYYY-MM-DD, within the last ${ORDER_DATE_MAX_AGE_DAYS} days in India time (UTC+05:30): ` +
        `from ${ORDER_DATE_MAX_AGE_DAYS} days before today up to today; older, or in the future → 422`,
    });

const orderFields = (now: () => Date) => ({
  order_id: text("order_id"),
  order_date: orderDateSchema(now),
  order_type: ShipmentTypeSchema.default("forward").meta({ description: "forward (the default) or reverse; a reverse order cannot use a quality check (QC) through the API" }),
  name: text("name"),
  mobile: mobile("mobile"),
  alt_mobile: mobile("alt_mobile").optional(),
  company_name: optionalText("company_name"),
  email: z.email({ error: "email must be a valid e-mail address" }).max(MAX_TEXT_LENGTH.email, tooLong("email")).optional(),
  gst_number: optionalText("gst_number"),
  address_line_1: text("address_line_1"),
  address_line_2: optionalText("address_line_2"),
  city: text("city"),
  state: text("state"),
  pincode: PincodeSchema("pincode"),
  products: z
    .array(ProductSchema, { error: "products must be a list of products" })
    .min(1, { error: "products must list at least 1 product" })
    .max(MAX_PRODUCTS, { error: `products must list at most ${MAX_PRODUCTS} products` })
    .meta({ description: `1 to ${MAX_PRODUCTS} products` }),
  package_length: centimetres("package_length"),
  package_breadth: centimetres("package_breadth"),
  package_height: centimetres("package_height"),
  package_weight: kilograms("package_weight"),
  payment_mode: PaymentModeSchema.default("cod"),
  discount: money("discount").optional(),
  shipping_charge: money("shipping_charge").optional(),
  transaction_charge: money("transaction_charge").optional(),
  giftwrap_charge: money("giftwrap_charge").optional(),
  total_amount: money("total_amount").meta({
    description: "The order's total in rupees, taken as sent and never recomputed (the client must send the right total); total_price is accepted in its place",
  }),
  warehouse_id: z
    .number({ error: "warehouse_id must be a warehouse id" })
    .int({ error: "warehouse_id must be a warehouse id" })
    .positive({ error: "warehouse_id must be a warehouse id" })
    .max(MAX_WAREHOUSE_ID, { error: `warehouse_id must be at most ${MAX_WAREHOUSE_ID}` })
    .meta({ description: "The pickup warehouse, created beforehand; when omitted, the account's primary warehouse" })
    .optional(),
  logistic_id: z
    .literal(LOGISTIC_IDS, { error: "logistic_id must be 1, 2, 3 or 4" })
    .meta({ description: "The courier: 1, 2, 3 or 4, the first to fourth courier in the service's list; one that does not serve the route → 422" }),
  ewaybill_no: optionalText("ewaybill_no").meta({
    description: `Electronic waybill number, needed for a shipment of ₹${EWAYBILL_THRESHOLD_RUPEES.toLocaleString("en-IN")} or more: without it such an order is booked and its message says an e-waybill is needed before pick-up`,
  }),
  delivery_remarks: optionalText("delivery_remarks").meta({ description: "Free text; the one text field that may hold line breaks and tabs" }),
});

const orderObject = (now: () => Date) =>
  z.object({ ...orderFields(now), total_price: money("total_price").meta({ description: "The spec sample's name for total_amount; when both are sent they must agree" }).optional() });

/**
 * The create-order body. `total_price` (the spec's sample) is accepted as an alias of `total_amount`;
 * when both are sent they must agree.
 */
export const createOrderRequestSchema = (now: () => Date = () => new Date()) =>
  z
    .preprocess(
      (input) => {
        if (input && typeof input === "object" && !Array.isArray(input)) {
          const body = input as Record<string, unknown>;
          if (body.total_amount === undefined && body.total_price !== undefined) {
            const { total_price, ...rest } = body;
            return { ...rest, total_amount: total_price };
          }
        }
        return input;
      },
      orderObject(now),
    )
    .superRefine((order, context) => {
      if (order.total_price !== undefined && order.total_price !== order.total_amount) {
        context.addIssue({ code: "custom", path: ["total_price"], message: "total_price and total_amount must agree; send one of them" });
      }
    })
    .transform(({ total_price: _alias, ...order }) => order);

export type CreateOrderRequest = z.infer<ReturnType<typeof createOrderRequestSchema>>;
/** What a caller may send: `total_amount` or its alias `total_price`. */
export type CreateOrderInput = Omit<z.input<ReturnType<typeof orderObject>>, "total_amount"> &
  ({ total_amount: number; total_price?: number } | { total_amount?: undefined; total_price: number });

/** A tracking address the app may render as a link: see isSafeTrackingUrl. */
const trackingUrl = (field: string) =>
  z.string().refine(isSafeTrackingUrl, { error: `${field} ${TRACKING_URL_RULE}` }).meta({ format: "uri" });

export const CreateOrderResultSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
  order_id: z.string(),
  awb: z.string().min(1),
  logistic: z.string(),
  additional_info: z.string(),
  tracking_url: trackingUrl("tracking_url"),
  message: z.string(),
});
export type CreateOrderResult = z.infer<typeof CreateOrderResultSchema>;

export const RateRequestSchema = z.object({
  shipment_type: ShipmentTypeSchema,
  payment_mode: PaymentModeSchema,
  pickup: PincodeSchema("pickup"),
  delivery: PincodeSchema("delivery"),
  length: centimetres("length"),
  breadth: centimetres("breadth"),
  height: centimetres("height"),
  actual_weight: kilograms("actual_weight"),
  amount: money("amount"),
});
export type RateRequest = z.infer<typeof RateRequestSchema>;
export type RateRequestInput = z.input<typeof RateRequestSchema>;

/** Output numbers the service keeps within the spec's sets; said in the document, not enforced on what a courier answers. */
const LOGISTIC_ID_OUT = { enum: [...LOGISTIC_IDS], description: "Courier id, numbered as logistic_id (1–4)" };
const PINCODE_OUT = { minimum: 100_000, maximum: 999_999, description: "6-digit PIN code" };

export const RateOptionSchema = z.object({
  id: z.number().int().meta(LOGISTIC_ID_OUT),
  type: z.string(),
  name: z.string(),
  chargeable_weight: z.string().regex(/^\d+(\.\d+)? KG$/),
  freight_charges: z.number(),
  cod_charges: z.number(),
  total_charges: z.number(),
  zone: z.string(),
  edd: z.string().regex(/^\d+ - \d+$/),
});
export type RateOption = z.infer<typeof RateOptionSchema>;

export const RateResultSchema = z
  .object({
    success: z.literal(true),
    logistics: z.array(RateOptionSchema).meta({ description: "One option per courier that serves the route" }),
    total_logistics: z.number().int().meta({ minimum: 0, description: "The number of entries in logistics" }),
  })
  .refine((result) => result.total_logistics === result.logistics.length, {
    path: ["total_logistics"],
    message: "total_logistics must equal the number of logistics",
  });
export type RateResult = z.infer<typeof RateResultSchema>;

const timestamp = z.iso.datetime({ offset: true });

export const WarehouseSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
  warehouse_name: z.string(),
  company_name: z.string(),
  address_line_1: z.string(),
  address_line_2: z.string(),
  is_active: z.boolean(),
  city: z.string(),
  state: z.string(),
  pincode: z.number().int().meta(PINCODE_OUT),
  country: z.string(),
  mobile: z.string(),
  email: z.string(),
  gst_number: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Warehouse = z.infer<typeof WarehouseSchema>;

export const TrackingEntrySchema = z.object({
  label: z.string(),
  activity: z.string(),
  service_status: z
    .number()
    .int()
    .meta({
      enum: [...SERVICE_STATUS_CODES],
      description: `Service status code: ${SERVICE_STATUS_CODES.map((code) => `${code} ${SERVICE_STATUS_LABELS[code]}`).join(", ")}`,
    }),
  status: z.number().int(),
  location: z.string().nullable(),
  timestamp,
});
export type TrackingEntry = z.infer<typeof TrackingEntrySchema>;

export const TrackingResultSchema = z.object({
  success: z.literal(true),
  awb: z.string(),
  order: z.string(),
  order_status: z.string().regex(/^[A-Z]+$/).meta({ description: "The latest stage's name as one upper-case word, e.g. INTRANSIT" }),
  order_date: timestamp,
  logistic: z.string(),
  created_at: timestamp,
  destination: z.string(),
  estimated_delivery_date: timestamp,
  delivered_date: z.union([z.literal(""), timestamp]),
  tracking_history: z.array(TrackingEntrySchema),
  track_url: trackingUrl("track_url"),
});
export type TrackingResult = z.infer<typeof TrackingResultSchema>;

export const OrderDetailsSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
  order_id: z.string(),
  awb: z.string(),
  order_type: z.string(),
  order_status: z.string(),
  order_invoice_no: z.string(),
  order_date: timestamp,
  customer_name: z.string(),
  customer_email: z.string(),
  mobile: z.string(),
  alt_mobile: z.string(),
  customer_company_name: z.string(),
  customer_gst_number: z.string(),
  address_line_1: z.string(),
  address_line_2: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  pincode: z.number().int().meta(PINCODE_OUT),
  package_length: z.number().int(),
  // The stored order names the breadth `package_width`; creation calls it `package_breadth`.
  package_width: z.number().int(),
  package_height: z.number().int(),
  actual_weight: z.number(),
  // Judged by type only: the request's bounds are the sender's duty, and a stored order that predates
  // them, or an aggregator that keeps tax to more than paise, must still be readable.
  products: z.array(
    z.object({
      product_name: z.string(),
      price: z.number(),
      quantity: z.number().int(),
      sku: z.string().optional(),
      tax: z.number().optional(),
      discount: z.number().optional(),
    }),
  ),
  payment_mode: z.string(),
  discount: z.number(),
  shipping_charge: z.number(),
  transaction_charge: z.number(),
  giftwrap_charge: z.number(),
  total_amount: z.number(),
  is_dangerous_good: z.boolean(),
  ewaybill_no: z.string(),
  delivery_remarks: z.string(),
  zone: z.string(),
  estimated_delivery_date: timestamp,
  logistic_data: z.object({ name: z.string(), mode: z.string() }),
  warehouse_id: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type OrderDetails = z.infer<typeof OrderDetailsSchema>;

/** Extension: cancellation, which the spec needs (rule 4) but does not show. */
export const CancelOrderRequestSchema = z.object({ awb: AwbSchema });
export const CancelOrderResultSchema = z.object({
  success: z.literal(true),
  awb: z.string(),
  order_id: z.string(),
  order_status: z.literal("CANCELLED"),
  message: z.string(),
});
export type CancelOrderResult = z.infer<typeof CancelOrderResultSchema>;

const statusCode = (field: string) => z.literal(SERVICE_STATUS_CODES, { error: `${field} must be one of the service status codes ${SERVICE_STATUS_CODES.join(", ")}` });
const UndeliveredReasonSchema = z.enum(UNDELIVERED_REASON_CODES, { error: `reason must be one of ${UNDELIVERED_REASON_CODES.join(", ")}` });

/**
 * Extension of the embedded sandbox: move a shipment on without waiting for its clock. Safe to retry: `to` a stage the
 * shipment is at answers it as it is, and a move of one stage sent `from` the stage it was seen at moves it only from
 * there. A failed attempt on the way (code 9) gives `reason`, or the sandbox's own.
 */
export const AdvanceRequestSchema = z.object({
  awb: AwbSchema,
  to: statusCode("to").optional(),
  from: statusCode("from").optional(),
  reason: UndeliveredReasonSchema.optional(),
});

/** The most failed attempts a shipment may be re-attempted after: more than any courier makes. */
export const MAX_DELIVERY_ATTEMPTS = 20;

/**
 * Extension of the embedded sandbox: the courier re-attempts failed attempt number `attempt` (1: the first) — out for
 * delivery again and delivered, or failed again (with `reason`), or returned to origin. Safe to retry: the same
 * request after it happened answers the shipment as it is.
 */
export const ReattemptRequestSchema = z.object({
  awb: AwbSchema,
  attempt: z.number({ error: `attempt must be a whole number from 1 to ${MAX_DELIVERY_ATTEMPTS}` }).int({ error: "attempt must be a whole number" }).min(1, { error: "attempt must be 1 or more" }).max(MAX_DELIVERY_ATTEMPTS, { error: `attempt must be at most ${MAX_DELIVERY_ATTEMPTS}` }),
  result: z.enum(REATTEMPT_RESULTS, { error: `result must be one of ${REATTEMPT_RESULTS.join(", ")}` }),
  reason: UndeliveredReasonSchema.optional(),
});

/** Extension of the embedded sandbox: the calling sandbox account and everything it holds, erased. */
export const EraseAccountResultSchema = z.object({ success: z.literal(true), erased_orders: z.number().int().min(0) });
export type EraseAccountResult = z.infer<typeof EraseAccountResultSchema>;

/** Extension of the embedded sandbox: the shopper's details removed from the account's orders with these awbs. */
export const MAX_REDACT_AWBS = 1000;
export const RedactOrdersRequestSchema = z.object({
  awbs: z.array(AwbSchema, { error: "awbs must be a list of awbs" }).max(MAX_REDACT_AWBS, { error: `awbs must list at most ${MAX_REDACT_AWBS} awbs` }),
});
export const RedactOrdersResultSchema = z.object({ success: z.literal(true), redacted_orders: z.number().int().min(0) });
export type RedactOrdersResult = z.infer<typeof RedactOrdersResultSchema>;

/**
 * Extension of the embedded sandbox: the account's statements as an aggregator's panel gives them for download — a COD
 * remittance statement and a freight invoice, as CSV — for the awbs named (in that order), or else for the account's
 * own delivered (remittance) or booked (invoice) orders.
 */
export const MAX_STATEMENT_AWBS = 1000;
export const SandboxStatementRequestSchema = z.object({
  awbs: z.array(AwbSchema, { error: "awbs must be a list of awbs" }).max(MAX_STATEMENT_AWBS, { error: `awbs must list at most ${MAX_STATEMENT_AWBS} awbs` }).optional(),
});
export const SandboxStatementResultSchema = z.object({ success: z.literal(true), file_name: z.string(), lines: z.number().int().min(0), csv: z.string() });
export type SandboxStatementResult = z.infer<typeof SandboxStatementResultSchema>;

/**
 * Every operation of the service, the one list: the service routes by it, the client addresses by it and the
 * OpenAPI document describes it. Paths carry at most one `{parameter}`.
 */
export const SERVICE_OPERATIONS = {
  "create-order": { method: "POST", path: "/v1/create-order", summary: "Create a shipment order" },
  "calculate-rate": { method: "POST", path: "/v1/calculate-rate", summary: "Quote rates per courier" },
  "get-warehouse": { method: "GET", path: "/v1/get-warehouse/{id}", summary: "Read a warehouse" },
  "track-order": { method: "GET", path: "/v1/track-order/{awb}", summary: "Track a shipment" },
  "get-order": { method: "GET", path: "/v1/get-order/{awb}", summary: "Read an order" },
  "cancel-order": { method: "POST", path: "/v1/cancel-order", summary: "Cancel a shipment not yet picked up (extension)" },
  "sandbox/advance": { method: "POST", path: "/v1/sandbox/advance", summary: "Move a sandbox shipment on (sandbox extension)" },
  "sandbox/reattempt": { method: "POST", path: "/v1/sandbox/reattempt", summary: "Re-attempt a failed delivery of a sandbox shipment (sandbox extension)" },
  "sandbox/erase-account": { method: "POST", path: "/v1/sandbox/erase-account", summary: "Erase the calling sandbox account and its orders (sandbox extension)" },
  "sandbox/redact-orders": { method: "POST", path: "/v1/sandbox/redact-orders", summary: "Remove the shopper's details from some of the account's orders (sandbox extension)" },
  "sandbox/remittance-statement": { method: "POST", path: "/v1/sandbox/remittance-statement", summary: "The account's COD remittance statement as CSV (sandbox extension)" },
  "sandbox/freight-invoice": { method: "POST", path: "/v1/sandbox/freight-invoice", summary: "The account's freight invoice as CSV (sandbox extension)" },
} as const satisfies Record<string, { method: "GET" | "POST"; path: `/v1/${string}`; summary: string }>;

export type ServiceOperation = keyof typeof SERVICE_OPERATIONS;
export const SERVICE_OPERATION_NAMES = Object.keys(SERVICE_OPERATIONS) as ServiceOperation[];

/** The path of an operation, with its parameter (if it has one) encoded into it. */
export function operationPath(operation: ServiceOperation, parameter?: string | number): string {
  return SERVICE_OPERATIONS[operation].path.replace(/\{\w+\}/, () => encodeURIComponent(String(parameter ?? "")));
}

/** Which operation a path is, and its parameter as sent (still encoded); null when none is. */
export function operationAt(path: string): { operations: ServiceOperation[]; parameter: string | undefined } | null {
  for (const name of SERVICE_OPERATION_NAMES) {
    const template = SERVICE_OPERATIONS[name].path;
    const [prefix, suffix = ""] = template.split(/\{\w+\}/);
    if (template.includes("{")) {
      if (path.startsWith(prefix!) && path.endsWith(suffix) && path.length > prefix!.length + suffix.length) {
        const parameter = path.slice(prefix!.length, path.length - suffix.length);
        if (!parameter.includes("/")) return { operations: SERVICE_OPERATION_NAMES.filter((other) => SERVICE_OPERATIONS[other].path === template), parameter };
      }
    } else if (path === template) {
      return { operations: SERVICE_OPERATION_NAMES.filter((other) => SERVICE_OPERATIONS[other].path === template), parameter: undefined };
    }
  }
  return null;
}

export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** Every failure, whatever its status. */
export const ErrorResultSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(FieldErrorSchema),
});
export type ErrorResult = z.infer<typeof ErrorResultSchema>;

/**
 * One entry per bad field, all at once, each message naming its field. A field breaking several rules
 * (2^53 cm is neither a safe integer nor at most 500) is reported by the first.
 */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of error.issues) {
    const field = issue.path.map(String).join(".") || "body";
    if (byField.has(field)) continue;
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    byField.set(field, { field, message: missing ? `${field} is required` : issue.message });
  }
  return [...byField.values()];
}
