import prisma from "~/db.server";
import { CONFIRM_HOURS, isSilenceAction, type SilenceAction } from "./confirmation-lifecycle";

/** A shop's choices for asking shoppers to confirm cash on delivery; the defaults until it saves its own. */
export interface CodSettings {
  confirmHours: number;
  onSilence: SilenceAction;
}

export const DEFAULT_COD_SETTINGS: CodSettings = { confirmHours: CONFIRM_HOURS.default, onSilence: "remind" };

export async function getCodSettings(shop: string): Promise<CodSettings> {
  const row = await prisma.codSettings.findUnique({ where: { shop } });
  if (!row) return DEFAULT_COD_SETTINGS;
  return { confirmHours: row.confirmHours, onSilence: isSilenceAction(row.onSilence) ? row.onSilence : DEFAULT_COD_SETTINGS.onSilence };
}

export type CodSettingsForm = { ok: true; settings: CodSettings } | { ok: false; errors: { confirmHours?: "range"; onSilence?: "choice" } };

/** Reads the Settings form's COD confirmation fields: whole hours within the courier's window, and one of the three choices. */
export function parseCodSettings(form: FormData): CodSettingsForm {
  const hoursText = String(form.get("codConfirmHours") ?? "").trim().slice(0, 10);
  const hours = /^\d{1,4}$/.test(hoursText) ? Number(hoursText) : NaN;
  const silence = String(form.get("codOnSilence") ?? "").slice(0, 20);
  const errors: { confirmHours?: "range"; onSilence?: "choice" } = {};
  if (!(hours >= CONFIRM_HOURS.min && hours <= CONFIRM_HOURS.max)) errors.confirmHours = "range";
  if (!isSilenceAction(silence)) errors.onSilence = "choice";
  if (errors.confirmHours || errors.onSilence) return { ok: false, errors };
  return { ok: true, settings: { confirmHours: hours, onSilence: silence as SilenceAction } };
}

export async function saveCodSettings(shop: string, settings: CodSettings): Promise<void> {
  await prisma.codSettings.upsert({ where: { shop }, create: { shop, ...settings }, update: settings });
}
