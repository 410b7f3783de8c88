import { DECISION, READINESS } from "../app/orders/readiness";
import type { ProblemCode } from "../app/shopify/order-mapping";
import { SERVICE_STATUS, type ServiceStatusCode, type UndeliveredReason } from "../app/shipping/status";

/**
 * What the demo's merchant day (`npm run demo`, store/journey.ts) should end with, order by order, and how to tell
 * where an order is on the way. Pure: the live table, its tests and the journey read it.
 *
 * The seed (store/seed.ts) has ready orders, orders with a problem each and a cancelled one; under the example rules
 * (app/automation/rules.ts: hold ₹10,000 and over, the cheapest courier for COD under ₹2,000, the recommended one for
 * the rest) every ready seed order is booked. A shopper's order placed during the day (#1015, ₹12,499) is the one the
 * rules hold for the merchant to ship by hand. Four shoppers' cash-on-delivery orders (#1017 – #1020) come in with
 * addresses a courier would struggle to find and Shopify's own medium fraud signal: the rules ask each shopper to
 * confirm, and each answers on their link in a different way.
 */

/** The courier's final word on a booked order that the journey plays out. */
export type FinalStage = typeof SERVICE_STATUS.DELIVERED | typeof SERVICE_STATUS.UNDELIVERED | typeof SERVICE_STATUS.RTO;

export type ExpectedEnd =
  | { kind: "booked"; finalStage: FinalStage }
  | { kind: "held" }
  | { kind: "problems"; problem: ProblemCode }
  | { kind: "cancelled" };

/** How a shopper asked to confirm their cash-on-delivery order answers on their link. */
export type ShopperAnswer = "confirm" | "correct" | "cancel" | "pay_online";

/**
 * A parcel the courier first fails to deliver, and what becomes of it on the failed-delivery desk: the shopper saves it
 * (corrects the landmark on the tracking link, the merchant re-attempts, the courier delivers), or it goes back (the
 * merchant returns it to origin). Either way the decision reaches the courier in the day's NDR instructions.
 */
export type AfterTheAttempt = "saved_by_landmark" | "returned";

export interface PlannedOrder {
  name: string;
  expected: ExpectedEnd;
  /** The rules ask this order's shopper to confirm it; they answer so. */
  shopperAnswers?: ShopperAnswer;
  /** The courier's reason for a failed delivery attempt on the way. */
  attemptFails?: UndeliveredReason;
  /** What the desk makes of that failed attempt; absent, the parcel stays undelivered. */
  afterTheAttempt?: AfterTheAttempt;
}

const booked = (finalStage: FinalStage = SERVICE_STATUS.DELIVERED): ExpectedEnd => ({ kind: "booked", finalStage });
const problems = (problem: ProblemCode): ExpectedEnd => ({ kind: "problems", problem });

export const JOURNEY_ORDERS: readonly PlannedOrder[] = [
  { name: "#1001", expected: booked() },
  // Cash on delivery is where returns happen: one is refused at the door and the merchant sends it back, one finds
  // nobody at home.
  { name: "#1002", expected: booked(SERVICE_STATUS.RTO), attemptFails: "refused", afterTheAttempt: "returned" },
  { name: "#1003", expected: booked() },
  { name: "#1004", expected: booked(SERVICE_STATUS.UNDELIVERED), attemptFails: "consignee_unavailable" },
  // Twelve products: more than one courier order takes, so it ships as parcels of 10 and 2.
  { name: "#1005", expected: booked() },
  { name: "#1006", expected: problems("EWAYBILL_REQUIRED") },
  { name: "#1007", expected: problems("PINCODE_INVALID") },
  { name: "#1008", expected: problems("PINCODE_MISSING") },
  { name: "#1009", expected: problems("PHONE_MISSING") },
  { name: "#1010", expected: problems("OUTSIDE_INDIA") },
  { name: "#1011", expected: booked() },
  { name: "#1012", expected: problems("ORDER_TOO_OLD") },
  { name: "#1013", expected: { kind: "cancelled" } },
  { name: "#1014", expected: booked() },
  { name: "#1015", expected: { kind: "held" } },
  // Cash on delivery from two warehouses: one parcel from each, each collecting its items' share.
  { name: "#1016", expected: booked() },
  // Cash on delivery at medium RTO risk: the shopper is asked. One confirms, one corrects the address, one cancels,
  // one pays online instead (then it ships prepaid).
  // The courier cannot find #1017's short address either; its shopper adds a landmark on the tracking link and it is
  // delivered on the re-attempt.
  { name: "#1017", expected: booked(), shopperAnswers: "confirm", attemptFails: "address_incomplete", afterTheAttempt: "saved_by_landmark" },
  { name: "#1018", expected: booked(), shopperAnswers: "correct" },
  { name: "#1019", expected: { kind: "cancelled" }, shopperAnswers: "cancel" },
  { name: "#1020", expected: booked(), shopperAnswers: "pay_online" },
];

/** What #1018's shopper writes when they correct their address: a house number and a street a courier can find. */
export const CORRECTED_ADDRESS = { address1: "Plot 14, Saheed Nagar", address2: "Behind Maharishi College", city: "Bhubaneswar", state: "OR", pincode: "751007" } as const;

/** What #1017's shopper answers on their tracking link after the failed attempt: the landmark the courier lacked. */
export const SAVING_ANSWER = { preferredSlot: "morning", landmark: "Opposite Cuttack Chandi temple, blue gate" } as const;

/** The delivered order a shopper returns an item of during the day (store/journey.ts, playReturn). */
export const RETURNED_ORDER = "#1014";

/** A cash-on-delivery order to Odisha (where the shop has sent nothing yet) with an address too short to find. */
function riskyCodOrder(name: string, shopper: { firstName: string; lastName: string; phone: string; address1: string; city: string; zip: string }, item: { title: string; sku: string; amount: string }) {
  const { firstName, lastName, phone, address1, city, zip } = shopper;
  return {
    name,
    input: {
      name,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.in`,
      financialStatus: "PENDING",
      tags: ["cod"],
      shippingAddress: { firstName, lastName, phone, address1, city, provinceCode: "OR", zip, countryCode: "IN" },
      lineItems: [{ title: item.title, sku: item.sku, quantity: 1, priceSet: { shopMoney: { amount: item.amount, currencyCode: "INR" } }, weight: { unit: "GRAMS", value: 500 } }],
      transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: item.amount } } }],
    },
    // Shopify's own fraud analysis of the order, as its admin shows it.
    shopifyAssessment: { riskLevel: "MEDIUM" as const, facts: [{ description: "The billing address is far from the shipping address", sentiment: "NEGATIVE" as const }] },
  };
}

/**
 * Orders shoppers place while the journey runs, as Shopify's orderCreate input (store/order-mutations.ts); each
 * reaches the app as the orders/create webhook the store sends.
 */
export const PLACED_ORDERS = [
  {
    name: "#1015",
    input: {
      name: "#1015",
      email: "ishita.bose@example.in",
      financialStatus: "PAID",
      tags: ["prepaid"],
      shippingAddress: { firstName: "Ishita", lastName: "Bose", phone: "+91 98310 12345", address1: "14, Hindustan Park", city: "Kolkata", provinceCode: "WB", zip: "700029", countryCode: "IN" },
      lineItems: [{ title: "Baluchari silk saree", sku: "SAR-412", quantity: 1, priceSet: { shopMoney: { amount: "12499.00", currencyCode: "INR" } }, weight: { unit: "GRAMS", value: 800 } }],
      transactions: [{ gateway: "Razorpay (UPI, Cards, Wallets, NetBanking)", amountSet: { shopMoney: { amount: "12499.00" } } }],
    },
  },
  {
    name: "#1016",
    input: {
      name: "#1016",
      email: "farhan.qureshi@example.in",
      financialStatus: "PENDING",
      tags: ["cod"],
      shippingAddress: { firstName: "Farhan", lastName: "Qureshi", phone: "+91 98202 54321", address1: "7, Hill Road, Bandra West", city: "Mumbai", provinceCode: "MH", zip: "400050", countryCode: "IN" },
      // The diya set is stocked at Bhiwandi only, the stole at Gurugram only (store/seed.ts): Shopify routes the order to both.
      lineItems: [
        { title: "Brass diya set", sku: "DIY-210", quantity: 1, priceSet: { shopMoney: { amount: "899.00", currencyCode: "INR" } }, weight: { unit: "GRAMS", value: 1200 } },
        { title: "Pashmina stole", sku: "PSH-220", quantity: 1, priceSet: { shopMoney: { amount: "599.00", currencyCode: "INR" } }, weight: { unit: "GRAMS", value: 300 } },
      ],
      transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: "1577.00" } } }],
      shippingLines: [{ title: "Standard Shipping", priceSet: { shopMoney: { amount: "79.00" } } }],
    },
  },
  riskyCodOrder("#1017", { firstName: "Sanjukta", lastName: "Mohanty", phone: "+91 94370 11223", address1: "Near Mandir", city: "Cuttack", zip: "753001" }, { title: "Sambalpuri cotton saree", sku: "SAR-517", amount: "1299.00" }),
  riskyCodOrder("#1018", { firstName: "Debasish", lastName: "Sahoo", phone: "+91 94371 22334", address1: "Bus Stand", city: "Bhubaneswar", zip: "751007" }, { title: "Pattachitra wall hanging", sku: "ART-518", amount: "1499.00" }),
  riskyCodOrder("#1019", { firstName: "Itishree", lastName: "Panda", phone: "+91 94372 33445", address1: "Old Market", city: "Puri", zip: "752001" }, { title: "Silver filigree earrings", sku: "JWL-519", amount: "1799.00" }),
  riskyCodOrder("#1020", { firstName: "Manas", lastName: "Behera", phone: "+91 94373 44556", address1: "Main Road", city: "Berhampur", zip: "760001" }, { title: "Handloom bedsheet", sku: "BED-520", amount: "999.00" }),
] as const;

/**
 * The stages the journey moves a booked shipment through on the courier's side, a round each, so the table shows the
 * parcel travel: picked up and in transit, then out for delivery (or, for a return, at the destination), then the end.
 * A parcel whose attempt fails first stops at the failed attempt: the failed-delivery desk decides the rest.
 */
export function trackingHops(finalStage: FinalStage, { attemptFailsFirst = false }: { attemptFailsFirst?: boolean } = {}): ServiceStatusCode[] {
  if (attemptFailsFirst) return [SERVICE_STATUS.IN_TRANSIT, SERVICE_STATUS.OUT_FOR_DELIVERY, SERVICE_STATUS.UNDELIVERED];
  if (finalStage === SERVICE_STATUS.RTO) return [SERVICE_STATUS.IN_TRANSIT, SERVICE_STATUS.REACHED_AT_DESTINATION, SERVICE_STATUS.RTO];
  return [SERVICE_STATUS.IN_TRANSIT, SERVICE_STATUS.OUT_FOR_DELIVERY, finalStage];
}

/** The hops of a planned booked order. */
export const plannedHops = (planned: PlannedOrder, finalStage: FinalStage) => trackingHops(finalStage, { attemptFailsFirst: planned.afterTheAttempt !== undefined });

/** What the app has recorded of one order (OrderRecord and Shipment), as the journey reads it. */
export interface OrderObservation {
  /** Null until the app has checked the order. */
  readiness: string | null;
  problems: ProblemCode[];
  decision: string | null;
  decisionReason: string | null;
  /** The order's parcels as one (`parcelsAsOne`): what the table and the plan read. */
  shipment: ShipmentObservation | null;
  /** Each parcel's own booking, parcel 1 first: what the courier's side moves. */
  parcels: ShipmentObservation[];
}

export interface ShipmentObservation {
  status: string;
  awb: string | null;
  courierName: string | null;
  trackingUrl: string | null;
  /**
   * The latest stage among the courier entries the app stored. Read from the entries, not from the shipment's own
   * status columns, which the tracking sync writes a moment after them: one read sees both agree.
   */
  latestStage: number | null;
  /** Every stage the app has seen the shipment in: the end is reached even if the courier's clock moved on since. */
  stagesSeen: number[];
}

export const NOT_SEEN: OrderObservation = { readiness: null, problems: [], decision: null, decisionReason: null, shipment: null, parcels: [] };

/**
 * An order's parcels as one booking: fulfilled once every parcel is, with every awb and courier, as far along as its
 * least advanced parcel (a stage is seen once every parcel has seen it). A failed or cancelled parcel makes the whole
 * failed or cancelled. One parcel is itself.
 */
export function parcelsAsOne(parcels: readonly ShipmentObservation[]): ShipmentObservation | null {
  if (parcels.length <= 1) return parcels[0] ?? null;
  const statuses = parcels.map((parcel) => parcel.status);
  const status = ["failed", "cancelled", "booking", "booked_unfulfilled"].find((each) => statuses.includes(each)) ?? statuses[0]!;
  const join = (values: (string | null)[]) => (values.every(Boolean) ? [...new Set(values)].join(", ") : null);
  const stagesSeen = parcels.map((parcel) => parcel.stagesSeen).reduce((common, seen) => common.filter((code) => seen.includes(code)));
  // The parcel that has come the least way stands for the order.
  const behind = [...parcels].sort((a, b) => a.stagesSeen.length - b.stagesSeen.length)[0]!;
  return {
    status,
    awb: join(parcels.map((parcel) => parcel.awb)),
    courierName: join(parcels.map((parcel) => parcel.courierName)),
    trackingUrl: parcels[0]!.trackingUrl,
    latestStage: behind.latestStage,
    stagesSeen,
  };
}

/**
 * Where an order is on its way to the expected end:
 * - `waiting`: the app has not checked it yet, or has not decided;
 * - `booking`: the rules chose a courier, the booking and its Shopify fulfillment are under way;
 * - `shipped`: booked and fulfilled, with its awb: the courier's part is next;
 * - `done`: at the expected end;
 * - `off-course`: somewhere the plan does not lead (a failed booking, a different decision).
 */
export type Progress = "waiting" | "booking" | "shipped" | "done" | "off-course";

export function progressOf(expected: ExpectedEnd, seen: OrderObservation): Progress {
  // Asked to confirm cash on delivery: the shopper's turn, whatever the order ends as.
  if (seen.decision === DECISION.CONFIRMING && !seen.shipment && seen.readiness !== READINESS.CANCELLED) return "waiting";
  switch (expected.kind) {
    case "cancelled":
      if (seen.readiness === READINESS.CANCELLED) return "done";
      if (seen.readiness === null || seen.readiness === READINESS.UNCHECKED) return "waiting";
      // A check saves the order ready before it scores it and the rules decide: a shopper the rules are about to ask
      // has yet to cancel.
      return seen.readiness === READINESS.READY && seen.decision === null && !seen.shipment ? "waiting" : "off-course";
    case "problems":
      if (seen.readiness === null || seen.readiness === READINESS.UNCHECKED) return "waiting";
      return seen.readiness === READINESS.PROBLEMS && seen.problems.includes(expected.problem) ? "done" : "off-course";
    case "held":
      // Held by the rules, whatever the merchant did with it afterwards (shipping it by hand is what comes next).
      if (seen.decision === DECISION.HELD) return "done";
      return seen.decision === null && !seen.shipment ? "waiting" : "off-course";
    case "booked": {
      if (seen.decision !== null && seen.decision !== DECISION.BOOKED) return "off-course";
      const shipment = seen.shipment;
      if (!shipment) return "waiting";
      if (shipment.status === "failed" || shipment.status === "cancelled") return "off-course";
      if (shipment.status !== "fulfilled" || !shipment.awb) return "booking";
      return shipment.stagesSeen.includes(expected.finalStage) ? "done" : "shipped";
    }
  }
}

/** How far the whole plan is: orders at their end, and those that cannot get there. */
export function tally(progress: readonly Progress[]): { done: number; offCourse: number; total: number } {
  return { done: progress.filter((each) => each === "done").length, offCourse: progress.filter((each) => each === "off-course").length, total: progress.length };
}
