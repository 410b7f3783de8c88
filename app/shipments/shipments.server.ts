import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { toPaise } from "~/money";
import { isRecordedTransition, type TransitionName } from "~/shipments/lifecycle";
import { COD_OUT_STAGES, DELIVERY_STAGE_ORDER, DELIVERY_STAGES, deliveryStageOf, isDeliveryStage, type DeliveryStage } from "~/shipments/delivery-stage";
import { parcelName } from "~/shipments/parcels";
import { startOfDay, startOfNextDay } from "~/shop-time";
import { normaliseMobile } from "~/shopify/order-mapping";
import { MAX_SEARCH_LENGTH, shipmentFilterProblemInWords, type ShipmentFilterProblem } from "./shipment-filter-problems";

/** Read each shipment's stage off the same table that names it (app/shipments/delivery-stage.ts). */
export function stageWhere(stage: DeliveryStage): Prisma.ShipmentWhereInput {
  return {
    OR: DELIVERY_STAGES[stage].matches.map((match) => {
      const and: Prisma.ShipmentWhereInput[] = [{ status: { in: [...match.statuses] } }];
      if (match.outcomes) and.push({ outcome: { in: [...match.outcomes] } });
      if (match.codes) and.push({ courierStatusCode: { in: [...match.codes] } });
      // SQL's NOT IN is unknown for a null code: "no code yet" is said on its own.
      if (match.exceptCodes) and.push({ OR: [{ courierStatusCode: null }, { courierStatusCode: { notIn: [...match.exceptCodes] } }] });
      return { AND: and };
    }),
  };
}


export interface ShipmentFilter {
  stage: DeliveryStage | null;
  /** An order number, an awb, or the shopper's mobile. */
  search: string | null;
  /** Booked from the start of this day to the end of `to`, in the shop's time zone. */
  from: string | null;
  to: string | null;
  /** Delivered from the start of this day (Home's "delivered in the last 7 days" opens the list it counts). */
  deliveredFrom: string | null;
  /** COD or prepaid bookings; `cod_out`: COD parcels the courier has and has not delivered yet. */
  payment: PaymentFilter | null;
  /** The shipments whose most recent history event is this transition ("Tracking stopped", "Booking failed"…). */
  lastEvent: TransitionName | null;
}

export const PAYMENT_FILTERS = ["cod", "prepaid", "cod_out"] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];

export const NO_SHIPMENT_FILTER: ShipmentFilter = { stage: null, search: null, from: null, to: null, deliveredFrom: null, payment: null, lastEvent: null };

/**
 * The filter a list's query string (or an export's form) asks for; anything unreadable is left out and said why: as
 * `issues` for a page to word in the admin's language, and as `problems` in English.
 */
export function readShipmentFilter(params: URLSearchParams | FormData): { filter: ShipmentFilter; issues: ShipmentFilterProblem[]; problems: string[] } {
  const value = (key: string) => {
    const raw = params.get(key);
    return typeof raw === "string" && raw.trim() ? raw.trim() : null;
  };
  const issues: ShipmentFilterProblem[] = [];
  const stage = value("stage");
  const search = value("q");
  const day = (key: "from" | "to" | "deliveredFrom") => {
    const given = value(key);
    if (given === null) return null;
    if (startOfDay(given, "UTC")) return given;
    issues.push(key === "to" ? "endDate" : "startDate");
    return null;
  };
  if (search && search.length > MAX_SEARCH_LENGTH) issues.push("searchTooLong");
  if (stage && !isDeliveryStage(stage)) issues.push("stage");
  const payment = value("payment");
  const knownPayment = (PAYMENT_FILTERS as readonly string[]).includes(payment ?? "") ? (payment as PaymentFilter) : null;
  if (payment && !knownPayment) issues.push("payment");
  const event = value("event");
  const lastEvent = event && isRecordedTransition(event) ? event : null;
  if (event && !lastEvent) issues.push("event");
  const filter: ShipmentFilter = {
    stage: stage && isDeliveryStage(stage) ? stage : null,
    search: search && search.length <= MAX_SEARCH_LENGTH ? search : null,
    from: day("from"),
    to: day("to"),
    deliveredFrom: day("deliveredFrom"),
    payment: knownPayment,
    lastEvent,
  };
  return { filter, issues, problems: issues.map((issue) => shipmentFilterProblemInWords("en", issue)) };
}

/**
 * The search: an order number (with or without its #), an awb, or the shopper's mobile. A mobile is matched in the
 * booking body Dakiya sent (JSON.stringify writes it exactly as `"mobile":"9876543210"`) and never written back.
 */
function searchWhere(search: string): Prisma.ShipmentWhereInput {
  const name = search.startsWith("#") ? search : `#${search}`;
  const either: Prisma.ShipmentWhereInput[] = [
    { orderName: { equals: search, mode: "insensitive" } },
    { orderName: { equals: name, mode: "insensitive" } },
    { awb: { equals: search, mode: "insensitive" } },
  ];
  // A parcel by its name: "#1042-2" is the order #1042's parcel 2.
  const parcel = /^(#?.+)-(\d{1,3})$/.exec(search);
  if (parcel) either.push({ orderName: { equals: parcel[1]!.startsWith("#") ? parcel[1]! : `#${parcel[1]!}`, mode: "insensitive" }, parcel: Number(parcel[2]) });
  const mobile = /\d{10}/.test(search.replace(/\D/g, "")) ? normaliseMobile(search) : null;
  if (mobile) either.push({ requestPayload: { contains: `"mobile":"${mobile}"` } });
  return { OR: either };
}

// The ids go back to the list's query as one IN list, which a statement's parameters bound: the newest this many.
const LAST_EVENT_FILTER_LIMIT = 10_000;

/**
 * The shop's shipments (the newest 10,000) whose most recent history event is this transition: each shipment's last event (the history's
 * own order, time then id) read off the events' (shop, shipmentId, at) index, one short index scan a shipment.
 */
async function shipmentIdsWithLastEvent(shop: string, transition: TransitionName): Promise<number[]> {
  const rows = await prisma.$queryRaw<{ id: number }[]>`
    SELECT s.id FROM "Shipment" s
    CROSS JOIN LATERAL (
      SELECT e.transition FROM "ShipmentEvent" e WHERE e.shop = s.shop AND e."shipmentId" = s.id ORDER BY e.at DESC, e.id DESC LIMIT 1
    ) latest
    WHERE s.shop = ${shop} AND latest.transition = ${transition}
    ORDER BY s.id DESC LIMIT ${LAST_EVENT_FILTER_LIMIT}`;
  return rows.map((row) => row.id);
}

export async function shipmentWhere(shop: string, filter: ShipmentFilter, timeZone: string): Promise<Prisma.ShipmentWhereInput> {
  const and: Prisma.ShipmentWhereInput[] = [{ shop }];
  if (filter.lastEvent) and.push({ id: { in: await shipmentIdsWithLastEvent(shop, filter.lastEvent) } });
  if (filter.stage) and.push(stageWhere(filter.stage));
  if (filter.search) and.push(searchWhere(filter.search));
  const from = filter.from ? startOfDay(filter.from, timeZone) : null;
  const to = filter.to ? startOfNextDay(filter.to, timeZone) : null;
  if (from || to) and.push({ createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } });
  const deliveredFrom = filter.deliveredFrom ? startOfDay(filter.deliveredFrom, timeZone) : null;
  if (deliveredFrom) and.push({ deliveredAt: { gte: deliveredFrom } });
  if (filter.payment === "prepaid") and.push({ paymentMode: "prepaid" });
  if (filter.payment === "cod") and.push({ paymentMode: "cod" });
  if (filter.payment === "cod_out") and.push({ paymentMode: "cod", OR: COD_OUT_STAGES.map(stageWhere) });
  return { AND: and };
}

const LISTED = {
  id: true,
  orderGid: true,
  orderName: true,
  parcel: true,
  direction: true,
  returnOfOrderGid: true,
  status: true,
  awb: true,
  courierName: true,
  totalChargesPaise: true,
  paymentMode: true,
  requestPayload: true,
  trackingUrl: true,
  lastError: true,
  lastErrorWords: true,
  createdAt: true,
  outcome: true,
  deliveryAttempts: true,
  courierStatusCode: true,
  courierStatusLabel: true,
  courierStatusAt: true,
  estimatedDeliveryAt: true,
  deliveredAt: true,
  attention: true,
} as const satisfies Prisma.ShipmentSelect;

type ListedRow = Prisma.ShipmentGetPayload<{ select: typeof LISTED }>;

/** What a list shows of a booking body: the amount to collect on delivery and the shopper's name, nothing else. */
export function bookingFacts(requestPayload: string): { codPaise: number | null; shopperName: string } {
  try {
    const body = JSON.parse(requestPayload) as Record<string, unknown>;
    const total = typeof body.total_amount === "number" ? body.total_amount : typeof body.total_price === "number" ? body.total_price : null;
    return { codPaise: body.payment_mode === "cod" && total !== null ? toPaise(total) : null, shopperName: typeof body.name === "string" ? body.name : "" };
  } catch {
    return { codPaise: null, shopperName: "" };
  }
}

function toListed({ requestPayload, ...row }: ListedRow) {
  const facts = bookingFacts(requestPayload);
  // Each parcel is listed on its own, by its name (#1042, #1042-2): what its label and the courier call it.
  return { ...row, orderName: parcelName(row), stage: deliveryStageOf(row), codAmountPaise: facts.codPaise, shopperName: facts.shopperName };
}
export type ListedShipment = ReturnType<typeof toListed>;

/** A shop's bookings, newest first, as filtered; what the Shipments page lists. */
export async function listShipments(shop: string, filter: ShipmentFilter, { take = 100, timeZone }: { take?: number; timeZone: string }) {
  const rows = await prisma.shipment.findMany({ where: await shipmentWhere(shop, filter, timeZone), orderBy: [{ createdAt: "desc" }, { id: "desc" }], take, select: LISTED });
  return rows.map(toListed);
}

/**
 * Every booking the filter matches, a batch at a time (newest first, by id), so an export of any size holds one
 * batch in memory.
 */
export async function* eachShipment(shop: string, filter: ShipmentFilter, { timeZone, batch = 500 }: { timeZone: string; batch?: number }) {
  let before: number | null = null;
  const where = await shipmentWhere(shop, filter, timeZone);
  for (;;) {
    const rows: ListedRow[] = await prisma.shipment.findMany({ where: before === null ? where : { AND: [where, { id: { lt: before } }] }, orderBy: { id: "desc" }, take: batch, select: LISTED });
    for (const row of rows) yield toListed(row);
    if (rows.length < batch) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** A shop's bookings by booking status (Dakiya's own states). */
export async function countShipmentsByStatus(shop: string): Promise<{ status: string; count: number }[]> {
  const rows = await prisma.shipment.groupBy({ by: ["status"], where: { shop }, _count: { _all: true } });
  return rows.map((row) => ({ status: row.status, count: row._count._all }));
}

export interface StageCounts {
  byStage: Record<DeliveryStage, number>;
  deliveredSince: number;
  /** COD amounts the courier still has to collect, and those collected since `since`. */
  codOutPaise: number;
  codDeliveredPaise: number;
}

/** Home's counts: every booking by stage, those delivered since `since`, and the COD money out and collected. */
export async function countShipmentStages(shop: string, since: Date): Promise<StageCounts> {
  const [groups, deliveredSince, cod] = await Promise.all([
    prisma.shipment.groupBy({ by: ["status", "outcome", "courierStatusCode"], where: { shop }, _count: { _all: true } }),
    prisma.shipment.count({ where: { AND: [{ shop, deliveredAt: { gte: since } }, stageWhere("delivered")] } }),
    prisma.shipment.findMany({ where: { AND: [{ shop, paymentMode: "cod" }, { OR: [...COD_OUT_STAGES.map(stageWhere), { AND: [stageWhere("delivered"), { deliveredAt: { gte: since } }] }] }] }, select: { status: true, outcome: true, courierStatusCode: true, requestPayload: true } }),
  ]);
  const byStage = Object.fromEntries(DELIVERY_STAGE_ORDER.map((stage) => [stage, 0])) as Record<DeliveryStage, number>;
  for (const group of groups) byStage[deliveryStageOf(group)] += group._count._all;
  let codOutPaise = 0;
  let codDeliveredPaise = 0;
  for (const shipment of cod) {
    const amount = bookingFacts(shipment.requestPayload).codPaise ?? 0;
    if (deliveryStageOf(shipment) === "delivered") codDeliveredPaise += amount;
    else codOutPaise += amount;
  }
  return { byStage, deliveredSince, codOutPaise, codDeliveredPaise };
}

/** One order's parcels as Dakiya booked them (a return's pickup, by its return's id), parcel 1 first. */
export async function listShipmentsForOrder(shop: string, orderGid: string) {
  return prisma.shipment.findMany({ where: { shop, orderGid }, orderBy: { parcel: "asc" } });
}

/** How a set of parcels ended: delivered, back at the warehouse (RTO), and the courier's failed delivery attempts on them. */
export interface ParcelOutcomes {
  delivered: number;
  returned: number;
  failedAttempts: number;
}

/**
 * Which forward parcels to count: those to a PIN code, to PIN codes starting with a district's digits, to a state
 * (as the booking named it, in any case), of some orders, or every one; of one payment mode, or either.
 */
export type ParcelScope = ({ pincode: string } | { pincodePrefix: string } | { state: string } | { orderGids: readonly string[] } | { all: true }) & { paymentMode?: "cod" | "prepaid" };

// A parcel's end, read off the courier's latest stage (app/shipping/status.ts): 8 delivered, 11 and 12 on the way
// back or back at the warehouse (RTO). The booking body keeps the destination the parcel went to.
const DELIVERED_SQL = Prisma.sql`s."courierStatusCode" = 8`;
const RETURNED_SQL = Prisma.sql`s."courierStatusCode" IN (11, 12)`;

function scopeSql(scope: ParcelScope): Prisma.Sql {
  const payment = scope.paymentMode ? Prisma.sql` AND s."paymentMode" = ${scope.paymentMode}` : Prisma.empty;
  if ("pincode" in scope) return Prisma.sql`s."requestPayload"::jsonb->>'pincode' = ${scope.pincode}${payment}`;
  if ("pincodePrefix" in scope) return Prisma.sql`s."requestPayload"::jsonb->>'pincode' LIKE ${`${scope.pincodePrefix.replace(/\D/g, "")}%`}${payment}`;
  if ("state" in scope) return Prisma.sql`lower(trim(s."requestPayload"::jsonb->>'state')) = ${scope.state.trim().toLowerCase()}${payment}`;
  if ("orderGids" in scope) return Prisma.sql`s."orderGid" = ANY(${[...scope.orderGids]})${payment}`;
  return Prisma.sql`TRUE${payment}`;
}

/**
 * How the shop's forward parcels booked since `since` ended, within a scope: the history cash-on-delivery risk reads
 * (a PIN code's, a shopper's orders') and Home's figures. One statement; the booking bodies kept after a shopper's
 * erasure still carry the PIN code and state, which identify no one.
 */
export async function countParcelOutcomes(shop: string, scope: ParcelScope, { since }: { since: Date }): Promise<ParcelOutcomes> {
  if ("orderGids" in scope && scope.orderGids.length === 0) return { delivered: 0, returned: 0, failedAttempts: 0 };
  const [row] = await prisma.$queryRaw<{ delivered: number; returned: number; attempts: number }[]>`
    SELECT count(*) FILTER (WHERE ${DELIVERED_SQL})::int AS delivered,
           count(*) FILTER (WHERE ${RETURNED_SQL})::int AS returned,
           coalesce(sum((SELECT count(*) FROM "TrackingEvent" t WHERE t."shipmentId" = s.id AND t.shop = s.shop AND t.code = 9)), 0)::int AS attempts
      FROM "Shipment" s
     WHERE s.shop = ${shop} AND s.direction = 'forward' AND s."requestPayload" <> '' AND s."createdAt" >= ${since} AND ${scopeSql(scope)}`;
  return { delivered: row?.delivered ?? 0, returned: row?.returned ?? 0, failedAttempts: row?.attempts ?? 0 };
}

/** The PIN codes whose parcels came back most since `since` (cash on delivery or all), with how their parcels ended. */
export async function listPincodesByReturns(shop: string, { since, take, paymentMode }: { since: Date; take: number; paymentMode?: "cod" | "prepaid" }): Promise<({ pincode: string } & ParcelOutcomes)[]> {
  const payment = paymentMode ? Prisma.sql` AND s."paymentMode" = ${paymentMode}` : Prisma.empty;
  const rows = await prisma.$queryRaw<{ pincode: string; delivered: number; returned: number; attempts: number }[]>`
    SELECT s."requestPayload"::jsonb->>'pincode' AS pincode,
           count(*) FILTER (WHERE ${DELIVERED_SQL})::int AS delivered,
           count(*) FILTER (WHERE ${RETURNED_SQL})::int AS returned,
           coalesce(sum((SELECT count(*) FROM "TrackingEvent" t WHERE t."shipmentId" = s.id AND t.shop = s.shop AND t.code = 9)), 0)::int AS attempts
      FROM "Shipment" s
     WHERE s.shop = ${shop} AND s.direction = 'forward' AND s."requestPayload" <> '' AND s."createdAt" >= ${since}${payment}
     GROUP BY 1
    HAVING count(*) FILTER (WHERE ${RETURNED_SQL}) > 0
     ORDER BY 3 DESC, 2 ASC, 1
     LIMIT ${take}`;
  return rows.map((row) => ({ pincode: row.pincode ?? "", delivered: row.delivered, returned: row.returned, failedAttempts: row.attempts }));
}

/**
 * The city most of the shop's parcels to a PIN code went to, when most of them agree (at least 3 parcels, two in three
 * naming it); null otherwise. A new order naming another city for the same PIN code is worth a second look.
 */
export async function commonCityOfPincode(shop: string, pincode: string, { since }: { since: Date }): Promise<string | null> {
  const rows = await prisma.$queryRaw<{ city: string; parcels: number }[]>`
    SELECT max(trim(s."requestPayload"::jsonb->>'city')) AS city, count(*)::int AS parcels
      FROM "Shipment" s
     WHERE s.shop = ${shop} AND s.direction = 'forward' AND s."requestPayload" <> '' AND s."createdAt" >= ${since}
       AND s."requestPayload"::jsonb->>'pincode' = ${pincode}
     GROUP BY lower(regexp_replace(s."requestPayload"::jsonb->>'city', '[^[:alpha:]]', '', 'g'))
     ORDER BY 2 DESC
     LIMIT 5`;
  const total = rows.reduce((sum, row) => sum + row.parcels, 0);
  const top = rows[0];
  return top && top.city && top.parcels >= 3 && top.parcels * 3 >= total * 2 ? top.city : null;
}
