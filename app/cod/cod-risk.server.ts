import type { CodConfirmation, CodRisk, OrderRecord, Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { commonCityOfPincode, countParcelOutcomes } from "~/shipments/shipments.server";
import { fireFlowTrigger } from "~/flow/flow-triggers.server";
import { orderIdOf } from "~/flow/flow-triggers";
import { words, type StoredWords } from "~/locales/admin-language";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { createRiskAssessment, getOrderRiskFacts, type ShopifyRiskLevel } from "~/shopify/cod-orders.server";
import { deliveryContactOf } from "~/shopify/order-mapping";
import type { ShopifyOrder } from "~/shopify/queries";
import { formatShopTime } from "~/shop-time";
import { recordCodStep, type CodActor } from "./cod-history.server";
import { CONFIRMATION_STATE, isOpen } from "./confirmation-lifecycle";
import { isRiskLevel, scoreCodRisk, type RiskFactor, type RiskInputs, type RiskLevel } from "./risk-score";
import { levelWords, reasonsForFlow, shopifyFacts } from "./risk-words";
import { listOrdersWithKeys, recordShopperKeys, shopperKeysOf } from "./shopper-keys.server";

/**
 * A cash-on-delivery order's risk of coming back, scored when the order is checked (app/orders/check-order.server.ts)
 * from this shop's history, told to Shopify as Dakiya's risk assessment, and to Shopify Flow as "COD risk scored".
 *
 * The history is the shop's own, over the last year: how its cash-on-delivery parcels to the PIN code (its district,
 * its state) ended, and how the shopper's earlier orders ended, the shopper found by their phone's and e-mail's keyed
 * hashes (shopper-keys.server.ts). A corrected address is scored again; an order is otherwise scored once.
 */

const YEAR_MS = 365 * 86_400_000;
const QUARTER_MS = 90 * 86_400_000;
/** The fewest recent COD orders a shop's "usual" value is taken from. */
const USUAL_FROM_ORDERS = 10;

const SCORER: CodActor = { kind: "job", name: "order-check" };

export interface RiskContext {
  shop: string;
  admin: ShopAdmin;
  now: () => Date;
}

/** What the page, the rules and the order view read of an order's risk. */
export interface OrderRisk {
  level: RiskLevel;
  score: number;
  factors: RiskFactor[];
  scoredAt: string;
}

export function riskOf(row: Pick<CodRisk, "level" | "score" | "factors" | "scoredAt"> | null): OrderRisk | null {
  if (!row || !isRiskLevel(row.level)) return null;
  return { level: row.level, score: row.score, factors: Array.isArray(row.factors) ? (row.factors as unknown as RiskFactor[]) : [], scoredAt: row.scoredAt.toISOString() };
}

export async function getOrderRisk(shop: string, orderGid: string): Promise<OrderRisk | null> {
  return riskOf(await prisma.codRisk.findUnique({ where: { shop_orderGid: { shop, orderGid } } }));
}

/** The risk of several orders at once, by order: for the lists. */
export async function listOrderRisks(shop: string, orderGids: readonly string[]): Promise<Map<string, OrderRisk>> {
  if (orderGids.length === 0) return new Map();
  const rows = await prisma.codRisk.findMany({ where: { shop, orderGid: { in: [...orderGids] } } });
  return new Map(rows.flatMap((row) => {
    const risk = riskOf(row);
    return risk ? [[row.orderGid, risk] as const] : [];
  }));
}

/** Of these orders, those placed before `before`, and how many of them were cancelled: a shopper's earlier orders. */
async function countEarlierOrders(shop: string, orderGids: readonly string[], { before }: { before: Date }): Promise<{ orderGids: string[]; cancelled: number }> {
  if (orderGids.length === 0) return { orderGids: [], cancelled: 0 };
  const earlier = await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: [...orderGids] }, placedAt: { lt: before } }, select: { orderGid: true, cancelledAt: true } });
  return { orderGids: earlier.map((record) => record.orderGid), cancelled: earlier.filter((record) => record.cancelledAt !== null).length };
}

/**
 * The shop's usual order of a payment mode placed since `since` (the median value, paise), when it has at least
 * `atLeast` of them; null otherwise.
 */
async function usualOrderValue(shop: string, { paymentMode, since, atLeast }: { paymentMode: "cod" | "prepaid"; since: Date; atLeast: number }): Promise<number | null> {
  const [row] = await prisma.$queryRaw<{ median: number | null; orders: number }[]>`
    SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY "totalPaise") AS median, count(*)::int AS orders
      FROM "OrderRecord"
     WHERE shop = ${shop} AND "paymentMode" = ${paymentMode} AND "placedAt" >= ${since} AND "totalPaise" IS NOT NULL`;
  return row && row.orders >= atLeast && row.median !== null ? Number(row.median) : null;
}

/** What the score reads of the shop's history and of Shopify for one order. */
async function riskInputsOf({ shop, admin, now }: RiskContext, order: ShopifyOrder, record: OrderRecord): Promise<{ inputs: RiskInputs; keys: ReturnType<typeof shopperKeysOf> }> {
  const { contact, phoneCandidates } = deliveryContactOf(order);
  const keys = shopperKeysOf(shop, { phones: phoneCandidates, email: order.email });
  const since = new Date(now().getTime() - YEAR_MS);
  const placedAt = record.placedAt ?? now();
  const pincode = contact.pincode;
  const cod = { paymentMode: "cod" as const };
  const others = await listOrdersWithKeys(shop, keys, { except: order.id });
  const [earlier, pincodeOutcomes, district, state, whole, usual, pincodeCity, shopify] = await Promise.all([
    countEarlierOrders(shop, others, { before: placedAt }),
    /^\d{6}$/.test(pincode) ? countParcelOutcomes(shop, { pincode, ...cod }, { since }) : null,
    /^\d{6}$/.test(pincode) ? countParcelOutcomes(shop, { pincodePrefix: pincode.slice(0, 3), ...cod }, { since }) : null,
    contact.state ? countParcelOutcomes(shop, { state: contact.state, ...cod }, { since }) : null,
    countParcelOutcomes(shop, { all: true, ...cod }, { since }),
    usualOrderValue(shop, { paymentMode: "cod", since: new Date(now().getTime() - QUARTER_MS), atLeast: USUAL_FROM_ORDERS }),
    /^\d{6}$/.test(pincode) ? commonCityOfPincode(shop, pincode, { since }) : null,
    getOrderRiskFacts(admin, order.id),
  ]);
  const none = { delivered: 0, returned: 0, failedAttempts: 0 };
  const shopperOutcomes = await countParcelOutcomes(shop, { orderGids: earlier.orderGids }, { since });
  return {
    keys,
    inputs: {
      pincode,
      city: contact.city,
      state: contact.state,
      addressLines: [contact.address_line_1, contact.address_line_2 ?? ""],
      phone: phoneCandidates[0] ?? null,
      valuePaise: record.totalPaise ?? 0,
      areas: { pincode: pincodeOutcomes ?? none, district: district ?? none, state: state ?? none, shop: whole },
      shopper: { orders: earlier.orderGids.length, outcomes: shopperOutcomes, cancelled: earlier.cancelled },
      usualValuePaise: usual,
      pincodeCity,
      shopifyLevel: shopify?.shopifyLevel ?? null,
    },
  };
}

/**
 * Scores a cash-on-delivery order (once, and again when its address changed since), keeps the shopper's keys, records
 * the step in the order's history and fires "COD risk scored" for the shop's workflows. Null for an order that is not
 * cash on delivery (nothing is scored) or is cancelled.
 */
export async function scoreOrderRisk(context: RiskContext, { order, record }: { order: ShopifyOrder; record: OrderRecord }): Promise<OrderRisk | null> {
  const { shop } = context;
  if (record.paymentMode !== "cod" || record.cancelledAt || order.cancelledAt) return getOrderRisk(shop, order.id);
  const existing = await prisma.codRisk.findUnique({ where: { shop_orderGid: { shop, orderGid: order.id } } });
  if (existing && existing.addressDigest === record.addressDigest) return riskOf(existing);

  const { inputs, keys } = await riskInputsOf(context, order, record);
  await recordShopperKeys(shop, order.id, keys);
  const scored = scoreCodRisk(inputs);
  const at = context.now();
  const data = { orderName: order.name, level: scored.level, score: scored.score, factors: scored.factors as unknown as Prisma.InputJsonValue, addressDigest: record.addressDigest, scoredAt: at };
  await prisma.$transaction(async (tx) => {
    // A rescore (the address was corrected) asks Shopify for a fresh assessment.
    await tx.codRisk.upsert({ where: { shop_orderGid: { shop, orderGid: order.id } }, create: { shop, orderGid: order.id, ...data }, update: { ...data, assessedLevel: null, assessedAt: null } });
    await recordCodStep(tx, { shop, orderGid: order.id }, "scored", SCORER, at, words("cod.history.scored", { level: levelWords(scored.level), score: scored.score }));
  });
  await fireFlowTrigger(
    shop,
    "dakiya-cod-risk-scored",
    {
      order_id: orderIdOf(order.id),
      Parcel: order.name,
      AWB: "",
      Courier: "",
      Status: "Not booked yet",
      "Risk level": scored.level,
      "Risk score": scored.score,
      Reasons: reasonsForFlow(scored.factors),
    },
    { eventKey: `order:${order.id}:risk:${(record.addressDigest ?? "").slice(0, 12)}`, orderGid: order.id },
  );
  return { ...scored, scoredAt: at.toISOString() };
}

/** One level lower: a shopper who confirmed is less likely to refuse at the door (Home shows by how much, in this shop). */
const STEP_DOWN: Readonly<Record<RiskLevel, RiskLevel>> = { high: "medium", medium: "low", low: "low", none: "none" };

/**
 * The assessment Shopify should have of the order now: PENDING while the shopper is asked, then the level the answer
 * leaves (confirmed: a level lower; paid online: none; otherwise the score's), with what happened as a fact.
 */
export function wantedAssessment(risk: OrderRisk, confirmation: Pick<CodConfirmation, "state" | "deadlineAt"> | null, timeZone: string): { level: ShopifyRiskLevel; status: StoredWords[] } {
  const scored = risk.level.toUpperCase() as ShopifyRiskLevel;
  if (!confirmation) return { level: scored, status: [] };
  if (isOpen(confirmation.state)) return { level: "PENDING", status: [words("cod.facts.waiting", { deadline: formatShopTime(confirmation.deadlineAt, timeZone) })] };
  switch (confirmation.state) {
    case CONFIRMATION_STATE.CONFIRMED:
      return { level: STEP_DOWN[risk.level].toUpperCase() as ShopifyRiskLevel, status: [words("cod.facts.confirmed")] };
    case CONFIRMATION_STATE.CORRECTED:
      return { level: STEP_DOWN[risk.level].toUpperCase() as ShopifyRiskLevel, status: [words("cod.facts.corrected")] };
    case CONFIRMATION_STATE.PAID_ONLINE:
      return { level: "NONE", status: [words("cod.facts.paidOnline")] };
    case CONFIRMATION_STATE.CANCELLED:
      return { level: scored, status: [words("cod.facts.cancelled")] };
    case CONFIRMATION_STATE.EXPIRED:
      return { level: scored, status: [words("cod.facts.expired")] };
    default:
      return { level: scored, status: [words("cod.facts.withdrawn")] };
  }
}

/**
 * Tells Shopify Dakiya's assessment of the order as it stands (wantedAssessment), unless Shopify has it already. An
 * order fulfilled meanwhile takes no more assessments; a refusal is logged by order id and left (the assessment never
 * stops a booking). Shopify busy throws, for the caller's job to retry.
 */
export async function assessInShopify({ shop, admin, now }: RiskContext, orderGid: string, { timeZone = "Asia/Kolkata" }: { timeZone?: string } = {}): Promise<void> {
  const [row, confirmation] = await Promise.all([prisma.codRisk.findUnique({ where: { shop_orderGid: { shop, orderGid } } }), prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } })]);
  const risk = riskOf(row);
  if (!risk) return;
  const wanted = wantedAssessment(risk, confirmation, timeZone);
  const told = `${wanted.level}|${confirmation?.state ?? ""}|${row!.score}`;
  if (row!.assessedLevel === told) return;
  const outcome = await createRiskAssessment(admin, orderGid, wanted.level, shopifyFacts(risk, wanted.status));
  if (outcome.kind === "refused") console.warn(`Shopify did not take Dakiya's risk assessment of ${orderGid} for ${shop}: ${outcome.message.slice(0, 200)}`);
  await prisma.codRisk.updateMany({ where: { shop, orderGid }, data: { assessedLevel: told, assessedAt: now() } });
  if (outcome.kind === "assessed") {
    await recordCodStep(prisma, { shop, orderGid }, "assessed", { kind: "job", name: "Dakiya" }, now(), words("cod.history.assessed", { level: wanted.level === "PENDING" ? words("cod.history.pending") : levelWords(wanted.level.toLowerCase() as RiskLevel) }));
  }
}
