import type { Prisma } from "@prisma/client";
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

export async function saveCodSettings(shop: string, settings: CodSettings, tx: Pick<Prisma.TransactionClient, "codSettings"> = prisma): Promise<void> {
  await tx.codSettings.upsert({ where: { shop }, create: { shop, ...settings }, update: settings });
}

/**
 * The Liquid the merchant pastes into Shopify's order confirmation e-mail (Settings → Notifications): it shows the
 * shopper's confirmation link when Dakiya has written it on the order (the `$app:dakiya` metafield, which Liquid names
 * by the app's client id). Shopify sends that e-mail within moments of the order, so the link is in it only when the
 * order was checked and its shopper asked by then; a resent confirmation e-mail, the reminder and WhatsApp carry it
 * always.
 */
export function confirmationEmailSnippet(clientId: string): string {
  const namespace = `app--${clientId}--dakiya`;
  return [
    `{%- assign dakiya_confirmation = order.metafields["${namespace}"].cod_confirmation_url -%}`,
    "{%- if dakiya_confirmation != blank -%}",
    '  <p>Please confirm your cash-on-delivery order so we can send it: <a href="{{ dakiya_confirmation }}">confirm, correct the address or pay online</a>.</p>',
    '  <p lang="hi">कृपया अपना कैश-ऑन-डिलीवरी ऑर्डर कन्फ़र्म करें: <a href="{{ dakiya_confirmation }}?lang=hi">कन्फ़र्म करें, पता सुधारें या ऑनलाइन भुगतान करें</a>।</p>',
    "{%- endif -%}",
  ].join("\n");
}
