import { decideFailedDeliveries } from "./failed-delivery-changes.server";
import { isDeskDecision } from "./failed-delivery-lifecycle";
import { saveReturnAfterHours } from "./desk-settings.server";
import { hasControlCharacters, REMARKS_LIMIT } from "./shopper-answer";
import { rowIdOf } from "~/security/row-id";

/** What the desk's page says after an action, by id (with the counts a decision made); the page words it. */
export type DeskNotice =
  | { id: "decided"; decided: number; refused: number }
  | { id: "chooseParcels" | "unknownDecision" | "remarksTooLong" | "saved" | "hoursRange" | "unknownIntent" };

export interface DeskAnswer {
  ok: boolean;
  notice: DeskNotice;
  /** The same in English, for whoever reads the answer bare. */
  message: string;
}

/** The most parcels one bulk decision takes: the desk lists at most this many. */
const BULK_LIMIT = 300;

/**
 * The merchant's decision from the desk's form — for one parcel or the selected ones — checked (the decision one of
 * the three, remarks bounded, the parcels' ids numbers) and applied; each parcel the courier moved on since is
 * counted as refused.
 */
export async function decideOnDesk(shop: string, form: FormData): Promise<DeskAnswer> {
  const decision = String(form.get("decision") ?? "");
  const remarks = String(form.get("remarks") ?? "").trim();
  const ids = String(form.get("shipmentIds") ?? "")
    .split(",")
    .slice(0, BULK_LIMIT + 1)
    .map(rowIdOf)
    .filter((id): id is number => id !== null);
  if (!isDeskDecision(decision)) return { ok: false, notice: { id: "unknownDecision" }, message: "Choose re-attempt, return to origin or call." };
  if (remarks.length > REMARKS_LIMIT || hasControlCharacters(remarks)) return { ok: false, notice: { id: "remarksTooLong" }, message: "Remarks are at most 200 characters, on one line." };
  if (ids.length === 0 || ids.length > BULK_LIMIT) return { ok: false, notice: { id: "chooseParcels" }, message: "Select the parcels to decide first." };
  const result = await decideFailedDeliveries(shop, ids, decision, remarks || null, { actor: { kind: "merchant", name: "Failed-delivery desk" }, at: new Date() });
  const message = `${result.decided.length} decided, ${result.refused.length} not (the courier moved them on since).`;
  return { ok: result.decided.length > 0, notice: { id: "decided", decided: result.decided.length, refused: result.refused.length }, message };
}

/** The desk's return window from its form: whole hours, 1 to 168. */
export async function saveDeskHours(shop: string, form: FormData): Promise<DeskAnswer> {
  const raw = String(form.get("returnAfterHours") ?? "").trim();
  const saved = /^\d{1,3}$/.test(raw) && (await saveReturnAfterHours(shop, Number(raw)));
  return saved ? { ok: true, notice: { id: "saved" }, message: "Saved." } : { ok: false, notice: { id: "hoursRange" }, message: "Enter whole hours from 1 to 168." };
}

/** An intent the desk's page does not have. */
export const UNKNOWN_DESK_INTENT: DeskAnswer = { ok: false, notice: { id: "unknownIntent" }, message: "That action is not on this page." };
