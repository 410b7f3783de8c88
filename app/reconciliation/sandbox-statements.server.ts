import { CourierError } from "~/shipping/client.server";
import { courierClientFor, courierCredentialsOf, getShopSettings, usesSandbox } from "~/settings/shop-settings.server";
import type { StatementKind } from "./statement-columns";

/**
 * A statement from the courier sandbox, for a shop that ships with it: the remittance statement or freight invoice an
 * aggregator's panel would give it to download, made by the sandbox from the shop's own bookings (a short payment,
 * an awb it never booked, two parcels re-weighed heavier), so the merchant — and the demo — can try the checks on
 * their own parcels. A shop with its own courier account downloads its statements from its aggregator's panel.
 */
/** Whether the shop ships with the courier sandbox (no account of its own), which makes sample statements. */
export async function shipsWithSandbox(shop: string): Promise<boolean> {
  return usesSandbox(await getShopSettings(shop));
}

export type SandboxStatement = { ok: true; fileName: string; csv: string } | { ok: false; reason: "own_account" | "unavailable" };

export async function sandboxStatement(shop: string, kind: StatementKind, awbs?: string[]): Promise<SandboxStatement> {
  const settings = await getShopSettings(shop);
  if (!usesSandbox(settings)) return { ok: false, reason: "own_account" };
  const client = courierClientFor(courierCredentialsOf(settings));
  try {
    const statement = kind === "remittance" ? await client.sandboxRemittanceStatement(awbs) : await client.sandboxFreightInvoice(awbs);
    return { ok: true, fileName: statement.file_name, csv: statement.csv };
  } catch (error) {
    if (error instanceof CourierError) return { ok: false, reason: "unavailable" };
    throw error;
  }
}
