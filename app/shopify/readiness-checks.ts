import { EWAYBILL_THRESHOLD_RUPEES, MAX_PRODUCTS, ORDER_DATE_MAX_AGE_DAYS } from "../shipping/contract";

/**
 * Every check that can stop an order or a return from being booked, in one catalogue: the problem's code, its short
 * label for lists, and for an order and for a return what was found, in the merchant's words, with the fix. The order
 * mapping, the return mapping and booking (the warehouse and the route) name problems only through it, so a check
 * reads the same wherever it is met and a new one is added here once.
 */

/** What a check found and what the merchant does about it. */
export interface Finding {
  /** What is wrong, in the merchant's words. */
  message: string;
  /** What to do about it. */
  fix: string;
}

export interface MappingProblem extends Finding {
  code: ProblemCode;
}

const found = (message: string, fix: string): Finding => ({ message, fix });
const pinCodeExample = "6 digits, e.g. 560066";
const mobileRule = "10 digits, optionally +91";

/** The checks of an order going out to a shopper. */
const ORDER_CHECKS = {
  CANCELLED: () => found("The order is cancelled.", "Cancelled orders are not shipped; nothing to do."),
  ALREADY_FULFILLED: () => found("The order is already fulfilled.", "Nothing is left to ship."),
  NOTHING_TO_SHIP: () => found("No item of this order is left to ship.", "Check the order's fulfillment status in Shopify; items may be on hold or not need shipping."),
  TOO_MANY_ITEMS: () =>
    found(
      `The order has more than ${MAX_PRODUCTS} items to ship; the courier accepts at most ${MAX_PRODUCTS} per shipment.`,
      "Split the order in Shopify (move some items to another fulfillment) and ship each part.",
    ),
  ORDER_TOO_OLD: (ageDays: number) =>
    found(`The order was placed ${ageDays} days ago; the courier only takes orders from the last ${ORDER_DATE_MAX_AGE_DAYS} days.`, "Ship it another way, or create a fresh order for it in Shopify."),
  NO_SHIPPING_ADDRESS: () => found("The order has no shipping address.", "Add the customer's shipping address to the order in Shopify."),
  OUTSIDE_INDIA: (country: string) => found(`The order ships to ${country}; the courier delivers within India only.`, "Ship international orders with an international carrier."),
  PINCODE_MISSING: () => found("The shipping address has no PIN code.", "Add the 6-digit PIN code to the shipping address in Shopify."),
  PINCODE_INVALID: (pinCode: string) => found(`The PIN code "${pinCode}" is not 6 digits.`, `Correct the PIN code in the shipping address (${pinCodeExample}).`),
  ADDRESS_INCOMPLETE: (missing: readonly string[]) => found(`The shipping address has no ${missing.join(", ")}.`, "Complete the shipping address in Shopify."),
  PHONE_MISSING: () => found("The order has no phone number; the courier needs one to deliver.", "Add the customer's mobile number to the shipping address in Shopify."),
  PHONE_INVALID: (phone: string) => found(`"${phone}" is not a 10-digit Indian mobile number.`, `Correct the phone number in the shipping address (${mobileRule}).`),
  EWAYBILL_REQUIRED: (totalRupees: number) =>
    found(
      `The order is worth ₹${totalRupees.toLocaleString("en-IN")}; shipments of ₹${EWAYBILL_THRESHOLD_RUPEES.toLocaleString("en-IN")} or more need an e-waybill.`,
      "Generate an e-waybill on the GST e-waybill portal and enter its number before booking.",
    ),
  PAYMENT_MODE_UNKNOWN: ({ gateways, financialStatus, codTag, prepaidTag }: { gateways: string; financialStatus: string; codTag: string; prepaidTag: string }) =>
    found(
      `Dakiya cannot tell whether the order is cash on delivery or prepaid (gateway: ${gateways || "none"}, payment: ${financialStatus}).`,
      `Tag the order "${codTag}" or "${prepaidTag}", or choose the payment mode when shipping.`,
    ),
  NO_WAREHOUSE: (unknownWarehouseId?: number) =>
    unknownWarehouseId === undefined
      ? found("No pickup warehouse is set for this order's location.", "Choose a pickup warehouse in Dakiya's Settings.")
      : found(`Warehouse ${unknownWarehouseId} does not exist in your courier account.`, "Choose another pickup warehouse in Settings."),
  NO_COURIER: ({ city, from, to }: { city: string; from: string | number; to: string }) => found(`No courier delivers from ${city} (${from}) to ${to}.`, "Check the PIN code, or ship from another warehouse."),
} satisfies Partial<Record<ProblemCode, (...args: never[]) => Finding>>;

const RETURN_STATUS_WORDS: Record<string, string> = { REQUESTED: "is waiting for your approval", DECLINED: "was declined", CANCELED: "was cancelled", CLOSED: "is closed" };

/** The checks of a return coming back from a shopper: picked up at the shopper's address, delivered to a warehouse. */
const RETURN_CHECKS = {
  RETURN_NOT_OPEN: (status: string) =>
    found(
      `The return ${RETURN_STATUS_WORDS[status] ?? `is ${status.toLowerCase()}`}.`,
      status === "REQUESTED" ? "Approve the return in Shopify; Dakiya books the pickup once it is open." : "Nothing to pick up.",
    ),
  NOTHING_TO_RETURN: () => found("Every item of this return already has a pickup in Shopify.", "Nothing to book; the existing reverse delivery carries the tracking."),
  TOO_MANY_ITEMS: () => found(`The return has more than ${MAX_PRODUCTS} items; the courier accepts at most ${MAX_PRODUCTS} per shipment.`, "Split the return in Shopify and book each part."),
  NO_SHIPPING_ADDRESS: () => found("The order has no shipping address to pick the return up from.", "Add the shopper's address to the order in Shopify."),
  OUTSIDE_INDIA: (country: string) => found(`The shopper is in ${country}; the courier picks up within India only.`, "Ask the shopper to send the parcel back with an international carrier."),
  PINCODE_MISSING: () => found("The pickup address has no PIN code.", "Add the 6-digit PIN code to the order's shipping address in Shopify."),
  PINCODE_INVALID: (pinCode: string) => found(`The PIN code "${pinCode}" is not 6 digits.`, `Correct the PIN code in the order's shipping address (${pinCodeExample}).`),
  ADDRESS_INCOMPLETE: (missing: readonly string[]) => found(`The pickup address has no ${missing.join(", ")}.`, "Complete the order's shipping address in Shopify."),
  PHONE_MISSING: () => found("The order has no phone number; the courier calls the shopper before the pickup.", "Add the shopper's mobile number to the order's shipping address in Shopify."),
  PHONE_INVALID: (phone: string) => found(`"${phone}" is not a 10-digit Indian mobile number.`, `Correct the phone number in the order's shipping address (${mobileRule}).`),
  NO_WAREHOUSE: () => found("No warehouse is set for the location the items return to.", "Choose a pickup warehouse in Dakiya's Settings."),
} satisfies Partial<Record<ProblemCode, (...args: never[]) => Finding>>;

/** Short names for lists; the message and fix say the rest. */
export const PROBLEM_LABELS = {
  CANCELLED: "Cancelled",
  ALREADY_FULFILLED: "Already fulfilled",
  NO_SHIPPING_ADDRESS: "No shipping address",
  OUTSIDE_INDIA: "Outside India",
  PINCODE_MISSING: "No PIN code",
  PINCODE_INVALID: "PIN code not 6 digits",
  ADDRESS_INCOMPLETE: "Address incomplete",
  PHONE_MISSING: "No phone",
  PHONE_INVALID: "Phone not valid",
  ORDER_TOO_OLD: `Older than ${ORDER_DATE_MAX_AGE_DAYS} days`,
  NOTHING_TO_SHIP: "Nothing to ship",
  TOO_MANY_ITEMS: `More than ${MAX_PRODUCTS} items`,
  EWAYBILL_REQUIRED: "E-waybill needed",
  PAYMENT_MODE_UNKNOWN: "COD or prepaid?",
  NO_WAREHOUSE: "No pickup warehouse",
  NO_COURIER: "No courier serves the route",
  RETURN_NOT_OPEN: "Return not open",
  NOTHING_TO_RETURN: "Nothing to pick up",
} as const;

export type ProblemCode = keyof typeof PROBLEM_LABELS;

type OrderCheck = keyof typeof ORDER_CHECKS;
type ReturnCheck = keyof typeof RETURN_CHECKS;

/** An order's problem, worded by the catalogue. */
export function orderProblem<C extends OrderCheck>(code: C, ...details: Parameters<(typeof ORDER_CHECKS)[C]>): MappingProblem {
  const check = ORDER_CHECKS[code] as (...args: Parameters<(typeof ORDER_CHECKS)[C]>) => Finding;
  return { code, ...check(...details) };
}

/** A return's problem, worded by the catalogue. */
export function returnProblem<C extends ReturnCheck>(code: C, ...details: Parameters<(typeof RETURN_CHECKS)[C]>): MappingProblem {
  const check = RETURN_CHECKS[code] as (...args: Parameters<(typeof RETURN_CHECKS)[C]>) => Finding;
  return { code, ...check(...details) };
}

/** Every check by code, for the catalogue's own test and for anything that lists the checks. */
export const READINESS_CATALOGUE: Readonly<Record<ProblemCode, { label: string; forOrders: boolean; forReturns: boolean }>> = Object.fromEntries(
  (Object.keys(PROBLEM_LABELS) as ProblemCode[]).map((code) => [code, { label: PROBLEM_LABELS[code], forOrders: code in ORDER_CHECKS, forReturns: code in RETURN_CHECKS }]),
) as Record<ProblemCode, { label: string; forOrders: boolean; forReturns: boolean }>;
