import type { FailedDeliverySettings } from "@prisma/client";
import prisma from "~/db.server";

/** The hours a courier usually waits after a failed attempt before it starts the return to origin: at least 1, at most a week. */
export const RETURN_AFTER_HOURS_RANGE = { min: 1, max: 168 } as const;

/** The shop's desk settings, or the defaults (24 hours, no rules) for a shop that saved none. */
export async function getDeskSettings(shop: string): Promise<Pick<FailedDeliverySettings, "returnAfterHours" | "rules">> {
  return (await prisma.failedDeliverySettings.findUnique({ where: { shop }, select: { returnAfterHours: true, rules: true } })) ?? { returnAfterHours: 24, rules: "[]" };
}

/** Saves the hours the desk counts down from; refused (false) outside the range. */
export async function saveReturnAfterHours(shop: string, hours: number): Promise<boolean> {
  if (!Number.isInteger(hours) || hours < RETURN_AFTER_HOURS_RANGE.min || hours > RETURN_AFTER_HOURS_RANGE.max) return false;
  await prisma.failedDeliverySettings.upsert({ where: { shop }, create: { shop, returnAfterHours: hours }, update: { returnAfterHours: hours } });
  return true;
}
