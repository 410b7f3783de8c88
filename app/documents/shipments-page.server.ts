import { describeError } from "~/logging.server";
import { signDocumentLink } from "./document-links.server";
import { createManifest, DocumentRefusal, labelsPrintedAt, listManifests, pendingPickups, printableShipments } from "./documents.server";
import { recordLabelsPrinted } from "./document-changes.server";
import { parseSelection } from "./document-requests";
import { rowIdOf } from "~/security/row-id";

/** What the Shipments page shows of labels and pickups beside its list. */
export async function documentsOverview(shop: string, shipmentIds: readonly number[]) {
  const printed = await labelsPrintedAt(shop, shipmentIds);
  return {
    printedAt: Object.fromEntries([...printed].map(([id, at]) => [id, at.toISOString()])) as Record<number, string>,
    pickups: await pendingPickups(shop),
    manifests: await listManifests(shop, 10),
  };
}

/** What is ready behind the link; the page words it in the merchant's language. */
export type DocumentReady = { kind: "labels"; count: number } | { kind: "manifest"; number: number; count: number } | { kind: "manifestAgain"; number: number };

export type DocumentActionAnswer = { ok: true; url: string; ready: DocumentReady } | { ok: false; status: DocumentRefusal["status"]; error: string };

const refused = (status: DocumentRefusal["status"], error: string): DocumentActionAnswer => ({ ok: false, status, error });

/**
 * The Shipments page's document buttons. Each answers a signed link (opened in a new tab, outside the admin's
 * session) rather than the PDF itself; the labels are checked here first, so a refusal shows on the page, and
 * recorded as printed here, since opening the link changes nothing.
 */
export async function shipmentDocumentAction(shop: string, form: FormData): Promise<DocumentActionAnswer> {
  const intent = form.get("intent");
  try {
    if (intent === "labels") {
      const selection = parseSelection(new URLSearchParams({ shipments: String(form.get("shipmentIds") ?? "") }));
      if (!selection.ok) return refused(400, selection.error);
      const shipments = await printableShipments(shop, selection.selection);
      const ids = shipments.map((shipment) => shipment.id);
      // Print labels is the merchant's print: recorded here, by the POST, not by whoever opens the link it answers.
      await recordLabelsPrinted(shop, ids, new Date());
      return { ok: true, url: signDocumentLink({ kind: "labels", shop, shipmentIds: ids }), ready: { kind: "labels", count: ids.length } };
    }
    if (intent === "manifest") {
      const warehouseId = rowIdOf(form.get("warehouseId"));
      const courierName = String(form.get("courierName") ?? "").slice(0, 200);
      if (warehouseId === null) return refused(400, "Choose the pickup's warehouse.");
      const manifest = await createManifest(shop, warehouseId, courierName);
      return { ok: true, url: signDocumentLink({ kind: "manifest", shop, manifestId: manifest.id }), ready: { kind: "manifest", number: manifest.number, count: manifest.count } };
    }
    if (intent === "manifest-again") {
      const manifestId = rowIdOf(form.get("manifestId"));
      if (manifestId === null) return refused(400, "Choose a manifest to print.");
      const known = (await listManifests(shop, 1_000)).find((manifest) => manifest.id === manifestId);
      if (!known) return refused(404, `There is no manifest ${manifestId} in this shop.`);
      return { ok: true, url: signDocumentLink({ kind: "manifest", shop, manifestId }), ready: { kind: "manifestAgain", number: known.number } };
    }
    return refused(400, "Unknown action.");
  } catch (error) {
    if (error instanceof DocumentRefusal) return refused(error.status, error.message);
    console.error(`documents: ${String(intent).slice(0, 20)} failed (${describeError(error)})`);
    throw error;
  }
}
