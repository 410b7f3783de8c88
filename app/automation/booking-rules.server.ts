import type { ShopSettings } from "@prisma/client";
import prisma from "~/db.server";
import { BookingRulesSchema, type BookingRule } from "./rules";

/** A shop's auto-booking rules, in priority order, as its settings keep them (checked by the rules' schema). */
export const bookingRulesOf = (settings: Pick<ShopSettings, "bookingRules">): BookingRule[] => BookingRulesSchema.parse(JSON.parse(settings.bookingRules));

/** Saves the shop's auto-booking rules and whether they run, checked by the rules' schema. */
export async function saveBookingRules(shop: string, { autoBooking, rules }: { autoBooking: boolean; rules: BookingRule[] }): Promise<ShopSettings> {
  const bookingRules = JSON.stringify(BookingRulesSchema.parse(rules));
  return prisma.shopSettings.upsert({ where: { shop }, create: { shop, autoBooking, bookingRules }, update: { autoBooking, bookingRules } });
}
