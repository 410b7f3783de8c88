import { z } from "zod";
import prisma from "~/db.server";
import { bookOrder, quoteOrder } from "~/booking/book-order.server";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { READINESS } from "~/orders/readiness";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import { isLogisticId, LOGISTIC_IDS } from "~/shipping/contract";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { isReturnGid } from "~/shopify/admin-returns.server";
import { PROBLEM_LABELS, type MappingProblem } from "~/shopify/order-mapping";
import { getShopSettings } from "~/settings/shop-settings.server";
import { pincodePrefixesOf, RETURN_DISPOSITIONS, RETURN_RULES, returnSettingsOf, type ReturnSettings } from "./return-settings";

/** A return as the Returns view lists it: nothing of the shopper but the PIN code the pickup is from. */
export interface ReturnRow {
  returnGid: string;
  returnName: string;
  orderGid: string;
  status: string;
  readiness: string;
  problems: { label: string; message: string; fix: string }[];
  decisionReason: string | null;
  weightGrams: number | null;
  pincode: string | null;
  requestedAt: string | null;
  pickup: { awb: string | null; courierName: string | null; status: string; statusLabel: string; trackingUrl: string | null } | null;
}

const PAGE_SIZE = 50;

/** The shop's returns, newest first: what Dakiya recorded of each, and its pickup. No Shopify call. */
export async function listReturns(shop: string): Promise<{ rows: ReturnRow[]; settings: ReturnSettings; courierNames: Record<number, string> }> {
  const [records, settings] = await Promise.all([prisma.returnRecord.findMany({ where: { shop }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }], take: PAGE_SIZE }), getShopSettings(shop)]);
  const pickups = await prisma.shipment.findMany({ where: { shop, orderGid: { in: records.map((record) => record.returnGid) } } });
  const pickupOf = new Map(pickups.map((pickup) => [pickup.orderGid, pickup]));
  const booked = await prisma.shipment.findMany({ where: { shop, courierId: { not: null }, courierName: { not: null } }, distinct: ["courierId"], select: { courierId: true, courierName: true } });
  const named = new Map(booked.map((shipment) => [shipment.courierId!, shipment.courierName!]));
  return {
    courierNames: Object.fromEntries(LOGISTIC_IDS.map((id) => [id, named.get(id) ?? `Courier ${id}`])),
    settings: returnSettingsOf(settings),
    rows: records.map((record) => {
      const pickup = pickupOf.get(record.returnGid);
      return {
        returnGid: record.returnGid,
        returnName: record.returnName,
        orderGid: record.orderGid,
        status: record.status,
        readiness: record.readiness,
        problems: (record.problems as unknown as MappingProblem[]).map((problem) => ({ label: PROBLEM_LABELS[problem.code] ?? problem.code, message: problem.message, fix: problem.fix })),
        decisionReason: record.decisionReason,
        weightGrams: record.weightGrams,
        pincode: record.pincode,
        requestedAt: record.requestedAt?.toISOString() ?? null,
        pickup: pickup
          ? { awb: pickup.awb, courierName: pickup.courierName, status: pickup.status, statusLabel: shipmentStatusLabel(pickup.status).label, trackingUrl: pickup.trackingUrl }
          : null,
      };
    }),
  };
}

const ReturnSettingsForm = z
  .object({
    returnRule: z.enum(RETURN_RULES, { error: "Choose how return pickups are booked: hold, cheapest or a named courier" }),
    returnCourierId: z.union([z.literal(""), z.coerce.number().int()]).optional(),
    returnNotifyCustomer: z.enum(["on"]).optional(),
    returnDisposition: z.enum(RETURN_DISPOSITIONS, { error: "Choose what happens to returned items: restock or inspect" }),
    returnHoldFrom: z.union([z.literal(""), z.coerce.number({ error: "Enter an amount in rupees, e.g. 5000" }).min(0, { error: "The amount cannot be negative" }).max(10_000_000, { error: "At most ₹1,00,00,000" })]).optional(),
    returnHoldPincodes: z
      .string()
      .max(400, { error: "At most 400 characters of PIN code prefixes" })
      .refine((text) => pincodePrefixesOf(text).every((prefix) => /^[1-9]\d{0,5}$/.test(prefix)), { error: "PIN code prefixes are 1 to 6 digits, separated by commas, e.g. 400, 560" })
      .optional(),
  })
  .refine((form) => form.returnRule !== "courier" || isLogisticId(form.returnCourierId), { path: ["returnCourierId"], error: "Choose the courier your return setting books" });

export type SaveResult = { ok: true } | { ok: false; errors: Record<string, string> };

/** Saves the return settings from the Returns view's form; a mistake is named per field and nothing is saved. */
export async function saveReturnSettings(shop: string, form: FormData): Promise<SaveResult> {
  const fields = Object.fromEntries(
    ["returnRule", "returnCourierId", "returnNotifyCustomer", "returnDisposition", "returnHoldFrom", "returnHoldPincodes"].flatMap((name) => (form.has(name) ? [[name, String(form.get(name)).slice(0, 500).trim()]] : [])),
  );
  const parsed = ReturnSettingsForm.safeParse(fields);
  if (!parsed.success) return { ok: false, errors: Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? "form"), issue.message])) };
  const data = {
    returnRule: parsed.data.returnRule,
    returnCourierId: parsed.data.returnRule === "courier" ? Number(parsed.data.returnCourierId) : null,
    returnNotifyCustomer: parsed.data.returnNotifyCustomer === "on",
    returnDisposition: parsed.data.returnDisposition,
    returnHoldFromPaise: parsed.data.returnHoldFrom === undefined || parsed.data.returnHoldFrom === "" ? null : Math.round(parsed.data.returnHoldFrom * 100),
    returnHoldPincodes: pincodePrefixesOf(parsed.data.returnHoldPincodes ?? "").join(", "),
  };
  await prisma.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return { ok: true };
}

export type BookPickupResult = { ok: true; message: string; awb: string | null } | { ok: false; status: 404 | 409 | 422 | 503; message: string };

/**
 * The merchant's click on "Book pickup": the return is quoted again and booked with the courier named, or the one
 * Dakiya recommends, through the same exactly-once claim as every booking.
 */
export async function bookPickupByMerchant(shop: string, admin: ShopAdmin, returnGid: string, courierId: number | null): Promise<BookPickupResult> {
  if (!isReturnGid(returnGid)) return { ok: false, status: 422, message: "Say which return to book (a Shopify return id)." };
  const record = await prisma.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid } } });
  if (!record) return { ok: false, status: 404, message: "Dakiya has not seen this return yet: check for new orders and returns, then try again." };
  if (record.cancelledAt || record.readiness === READINESS.CANCELLED) return { ok: false, status: 409, message: "This return was declined or cancelled in Shopify: nothing to pick up." };
  const context = { shop, admin, actor: { kind: "merchant" as const, name: "Returns" } };
  const quote = await quoteOrder(context, { orderGid: returnGid });
  if (quote.kind === "unavailable") return { ok: false, status: 503, message: quote.message };
  if (quote.kind !== "quoted") return { ok: false, status: 422, message: bookOutcomeInWords(quote, { problems: "fixes" }) };
  const chosen = courierId ?? quote.rates.find((rate) => rate.isRecommended)?.id ?? quote.rates[0]!.id;
  if (!isLogisticId(chosen)) return { ok: false, status: 422, message: "Choose one of the couriers offered." };
  const outcome = await bookOrder(context, { orderGid: returnGid, courierId: chosen, quoted: quote });
  if (outcome.kind === "booked") return { ok: true, message: `Pickup booked with ${outcome.shipment.courierName}, awb ${outcome.shipment.awb}.`, awb: outcome.shipment.awb };
  if (outcome.kind === "already_booked") return { ok: false, status: 409, message: `This return's pickup is already booked${outcome.shipment.awb ? ` (awb ${outcome.shipment.awb})` : ""}.` };
  return { ok: false, status: 422, message: bookOutcomeInWords(outcome, { problems: "fixes" }) };
}
