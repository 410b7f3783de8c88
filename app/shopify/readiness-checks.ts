import { ADMIN_LOCALES, adminStrings, fill, type AdminLanguage, type AdminStrings } from "../locales/admin-language";
import { EWAYBILL_THRESHOLD_RUPEES, MAX_PRODUCTS, ORDER_DATE_MAX_AGE_DAYS } from "../shipping/contract";

/**
 * Every check that can stop an order or a return from being booked, in one catalogue: the problem's code, its short
 * label for lists, and for an order and for a return what was found, in the merchant's words, with the fix. The order
 * mapping, the return mapping and booking (the warehouse and the route) name problems only through it, so a check
 * reads the same wherever it is met and a new one is added here once. The words are in
 * app/locales/admin-problems.*.json; a problem keeps the values they are made of, so that a page words it again in the
 * admin's language, while the English stays with it for the extension API, logs and anything else that reads it.
 */

/** What a check found and what the merchant does about it. */
export interface Finding {
  /** What is wrong, in the merchant's words. */
  message: string;
  /** What to do about it. */
  fix: string;
}

export type ProblemCode = keyof AdminStrings["problems"]["labels"];

/** The part of an address a check found empty. */
export type AddressPart = keyof AdminStrings["problems"]["addressParts"];

/** The values a problem's words are made of, kept with the problem (and stored with it). */
export interface ProblemParams {
  /** Whose check found it: the same code reads differently for an order going out and a return coming back. */
  subject: "order" | "return";
  ageDays?: number;
  /** The country's two-letter code; null when the address names none. */
  countryCode?: string | null;
  pinCode?: string;
  missing?: AddressPart[];
  phone?: string;
  totalRupees?: number;
  gateways?: string;
  financialStatus?: string;
  codTag?: string;
  prepaidTag?: string;
  /** A pickup warehouse the courier account does not have. */
  warehouseId?: number;
  city?: string;
  from?: string | number;
  to?: string;
  /** A return's status in Shopify. */
  status?: string;
  /** The parcel of an order of several that the problem is about: its number, of how many, and where it ships from. */
  parcel?: ParcelRef;
}

export interface ParcelRef {
  number: number;
  of: number;
  location: string | null;
}

/**
 * How much of an order one read takes in (the Admin API's 1,000-point limit on a query): line items, and fulfillment
 * orders (Shopify keeps the closed ones beside the open). A larger order is named TOO_MANY_ITEMS.
 */
export const ORDER_READ_LIMITS = { lineItems: 40, fulfillmentOrders: 5 } as const;

export interface MappingProblem extends Finding {
  code: ProblemCode;
  /** Absent on a problem stored before its values were kept: such a problem keeps its stored English. */
  params?: ProblemParams;
}

/** A problem in a language: its short label, what was found and the fix. */
export interface ProblemWords extends Finding {
  label: string;
}

type CheckValues = Omit<ProblemParams, "subject">;

/** The checks of the shopper's address and the parcel's items, made alike on an order and on a return. */
const SHOPPER_CHECKS = {
  TOO_MANY_ITEMS: (): CheckValues => ({}),
  NO_SHIPPING_ADDRESS: (): CheckValues => ({}),
  OUTSIDE_INDIA: (countryCode: string | null): CheckValues => ({ countryCode }),
  PINCODE_MISSING: (): CheckValues => ({}),
  PINCODE_INVALID: (pinCode: string): CheckValues => ({ pinCode }),
  ADDRESS_INCOMPLETE: (missing: readonly AddressPart[]): CheckValues => ({ missing: [...missing] }),
  PHONE_MISSING: (): CheckValues => ({}),
  PHONE_INVALID: (phone: string): CheckValues => ({ phone }),
};

/** The checks of an order going out to a shopper, each with the values its words take. */
const ORDER_CHECKS = {
  CANCELLED: (): CheckValues => ({}),
  ALREADY_FULFILLED: (): CheckValues => ({}),
  NOTHING_TO_SHIP: (): CheckValues => ({}),
  ORDER_TOO_OLD: (ageDays: number): CheckValues => ({ ageDays }),
  ...SHOPPER_CHECKS,
  EWAYBILL_REQUIRED: (totalRupees: number): CheckValues => ({ totalRupees }),
  PAYMENT_MODE_UNKNOWN: ({ gateways, financialStatus, codTag, prepaidTag }: { gateways: string; financialStatus: string; codTag: string; prepaidTag: string }): CheckValues => ({
    gateways,
    financialStatus,
    codTag,
    prepaidTag,
  }),
  NO_WAREHOUSE: (unknownWarehouseId?: number): CheckValues => (unknownWarehouseId === undefined ? {} : { warehouseId: unknownWarehouseId }),
  NO_COURIER: ({ city, from, to }: { city: string; from: string | number; to: string }): CheckValues => ({ city, from, to }),
} satisfies Partial<Record<ProblemCode, (...args: never[]) => CheckValues>>;

/** The checks of a return coming back from a shopper: picked up at the shopper's address, delivered to a warehouse. */
const RETURN_CHECKS = {
  RETURN_NOT_OPEN: (status: string): CheckValues => ({ status }),
  NOTHING_TO_RETURN: (): CheckValues => ({}),
  ...SHOPPER_CHECKS,
  NO_WAREHOUSE: (): CheckValues => ({}),
} satisfies Partial<Record<ProblemCode, (...args: never[]) => CheckValues>>;

/** The limits the words quote, in the language's digits grouping. */
const limitsIn = (language: AdminLanguage) => ({
  max: MAX_PRODUCTS,
  maxDays: ORDER_DATE_MAX_AGE_DAYS,
  threshold: EWAYBILL_THRESHOLD_RUPEES.toLocaleString(ADMIN_LOCALES[language]),
  maxRead: ORDER_READ_LIMITS.lineItems,
  maxParcelsRead: ORDER_READ_LIMITS.fulfillmentOrders,
});

/** A problem's short name for lists in the language; an unknown code (from an older version) names itself. */
export function problemLabel(code: string, language: AdminLanguage): string {
  const labels = adminStrings(language).problems.labels;
  return Object.hasOwn(labels, code) ? fill(labels[code as ProblemCode], limitsIn(language)) : code;
}

/** Short names for lists, in English; the message and fix say the rest. */
export const PROBLEM_LABELS = Object.fromEntries(Object.keys(adminStrings("en").problems.labels).map((code) => [code, problemLabel(code, "en")])) as Readonly<Record<ProblemCode, string>>;

const REGION_NAMES = new Map<AdminLanguage, Intl.DisplayNames>();
const regionNames = (language: AdminLanguage) => {
  const names = REGION_NAMES.get(language) ?? new Intl.DisplayNames([ADMIN_LOCALES[language]], { type: "region", fallback: "code" });
  REGION_NAMES.set(language, names);
  return names;
};

/** A country's name ("United Arab Emirates") in the language from its two-letter code, the code itself when unknown. */
export function countryName(code: string | null, language: AdminLanguage = "en"): string {
  if (!code) return adminStrings(language).problems.anotherCountry;
  try {
    return regionNames(language).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What a check found and its fix, in the language, from the values kept with it; null for a code the subject has no words for. */
function findingIn(code: ProblemCode, params: ProblemParams, language: AdminLanguage): Finding | null {
  const t = adminStrings(language).problems;
  const words: Partial<Record<ProblemCode, Finding>> = params.subject === "return" ? t.return : t.order;
  const entry = words[code];
  if (!entry) return null;
  const locale = ADMIN_LOCALES[language];
  const values: Record<string, string | number> = { ...limitsIn(language) };
  const { ageDays, countryCode, pinCode, missing, phone, totalRupees, gateways, financialStatus, codTag, prepaidTag, warehouseId, city, from, to } = params;
  if (ageDays !== undefined) values.ageDays = ageDays;
  if (countryCode !== undefined) values.country = countryName(countryCode, language);
  if (pinCode !== undefined) values.pinCode = pinCode;
  if (missing !== undefined) values.missing = missing.map((part) => (Object.hasOwn(t.addressParts, part) ? t.addressParts[part] : part)).join(", ");
  if (phone !== undefined) values.phone = phone;
  if (totalRupees !== undefined) values.total = totalRupees.toLocaleString(locale);
  if (gateways !== undefined) values.gateways = gateways || t.noGateway;
  if (financialStatus !== undefined) values.financialStatus = financialStatus === "unknown" ? t.unknownPaymentStatus : financialStatus;
  if (codTag !== undefined) values.codTag = codTag;
  if (prepaidTag !== undefined) values.prepaidTag = prepaidTag;
  if (warehouseId !== undefined) values.warehouseId = warehouseId;
  if (city !== undefined) values.city = city;
  if (from !== undefined) values.from = from;
  if (to !== undefined) values.to = to;
  const found = plainFinding(code, params, entry, values, language);
  if (!params.parcel) return found;
  const parcel = { number: params.parcel.number, of: params.parcel.of, location: params.parcel.location ?? t.unknownLocation };
  return { message: fill(t.inParcel, { ...parcel, message: found.message }), fix: found.fix };
}

/** What a check found and its fix, without saying which parcel. */
function plainFinding(code: ProblemCode, params: ProblemParams, entry: Finding, values: Record<string, string | number>, language: AdminLanguage): Finding {
  const t = adminStrings(language).problems;
  const { warehouseId, status } = params;
  if (code === "NO_WAREHOUSE" && warehouseId !== undefined && params.subject === "order") {
    return { message: fill(t.order.NO_WAREHOUSE.messageUnknownId, values), fix: fill(t.order.NO_WAREHOUSE.fixUnknownId, values) };
  }
  if (code === "RETURN_NOT_OPEN" && status !== undefined) {
    values.state = Object.hasOwn(t.returnStates, status) ? t.returnStates[status as keyof typeof t.returnStates] : fill(t.returnStateOther, { status: status.toLowerCase() });
    return { message: fill(entry.message, values), fix: status === "REQUESTED" ? t.return.RETURN_NOT_OPEN.fixWhenRequested : entry.fix };
  }
  return { message: fill(entry.message, values), fix: fill(entry.fix, values) };
}

/**
 * A problem's label, message and fix in the language. A problem stored without its values (by an earlier version)
 * keeps the English it was stored with. Pure: the pages word a loader's problems with it.
 */
export function problemInWords(problem: Pick<MappingProblem, "message" | "fix"> & { code: string; params?: ProblemParams | null }, language: AdminLanguage): ProblemWords {
  const label = problemLabel(problem.code, language);
  const found = problem.params && Object.hasOwn(PROBLEM_LABELS, problem.code) ? findingIn(problem.code as ProblemCode, problem.params, language) : null;
  return { label, message: found?.message ?? problem.message, fix: found?.fix ?? problem.fix };
}

type OrderCheck = keyof typeof ORDER_CHECKS;
type ReturnCheck = keyof typeof RETURN_CHECKS;

function problemOf(code: ProblemCode, params: ProblemParams): MappingProblem {
  const english = findingIn(code, params, "en")!;
  return { code, ...english, params };
}

/** The same problem, said of one parcel of an order of several. */
export function withParcel(problem: MappingProblem, parcel: ParcelRef): MappingProblem {
  return problemOf(problem.code, { ...problem.params!, parcel });
}

/** An order's problem, worded by the catalogue. */
export function orderProblem<C extends OrderCheck>(code: C, ...details: Parameters<(typeof ORDER_CHECKS)[C]>): MappingProblem {
  const check = ORDER_CHECKS[code] as (...args: Parameters<(typeof ORDER_CHECKS)[C]>) => CheckValues;
  return problemOf(code, { subject: "order", ...check(...details) });
}

/** A return's problem, worded by the catalogue. */
export function returnProblem<C extends ReturnCheck>(code: C, ...details: Parameters<(typeof RETURN_CHECKS)[C]>): MappingProblem {
  const check = RETURN_CHECKS[code] as (...args: Parameters<(typeof RETURN_CHECKS)[C]>) => CheckValues;
  return problemOf(code, { subject: "return", ...check(...details) });
}

/** Every check by code, for the catalogue's own test and for anything that lists the checks. */
export const READINESS_CATALOGUE: Readonly<Record<ProblemCode, { label: string; forOrders: boolean; forReturns: boolean }>> = Object.fromEntries(
  (Object.keys(PROBLEM_LABELS) as ProblemCode[]).map((code) => [code, { label: PROBLEM_LABELS[code], forOrders: code in ORDER_CHECKS, forReturns: code in RETURN_CHECKS }]),
) as Record<ProblemCode, { label: string; forOrders: boolean; forReturns: boolean }>;
