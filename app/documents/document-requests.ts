import { MAX_SHIPMENTS_PER_DOCUMENT } from "./label-layout";

/**
 * Which shipments a document request names, read from its query: `orders` (Shopify order ids, as numbers or
 * `gid://shopify/Order/…`) or `shipments` (Dakiya's shipment ids), comma-separated. Pure: no I/O.
 */
export type SelectionRequest = { ok: true; selection: { orderGids: string[] } | { shipmentIds: number[] }; skipUnprintable: boolean } | { ok: false; error: string };

const MAX_QUERY_LENGTH = 40_000;

export function parseSelection(params: URLSearchParams): SelectionRequest {
  const orders = params.get("orders");
  const shipments = params.get("shipments");
  if ((orders ?? "").length + (shipments ?? "").length > MAX_QUERY_LENGTH) return { ok: false, error: `The list of shipments is too long: one document takes at most ${MAX_SHIPMENTS_PER_DOCUMENT} shipments.` };
  const skip = params.get("skip");
  if (skip !== null && skip !== "unbooked") return { ok: false, error: 'skip takes one value, "unbooked" (leave out what has no label).' };
  const skipUnprintable = skip === "unbooked";
  if (orders && shipments) return { ok: false, error: "Name the orders or the shipments to print, not both." };
  const items = (orders ?? shipments ?? "").split(",").map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) return { ok: false, error: "Name the orders (orders=…) or shipments (shipments=…) to print." };
  if (items.length > MAX_SHIPMENTS_PER_DOCUMENT) return { ok: false, error: `One document takes at most ${MAX_SHIPMENTS_PER_DOCUMENT} shipments; ${items.length} were named. Print them in parts.` };
  if (orders) {
    const gids: string[] = [];
    for (const item of items) {
      const id = /^(?:gid:\/\/shopify\/Order\/)?([1-9]\d{0,18})$/.exec(item)?.[1];
      if (!id) return { ok: false, error: `"${item.slice(0, 40)}" is not a Shopify order id.` };
      gids.push(`gid://shopify/Order/${id}`);
    }
    return { ok: true, selection: { orderGids: gids }, skipUnprintable };
  }
  const ids: number[] = [];
  for (const item of items) {
    if (!/^[1-9]\d{0,9}$/.test(item) || Number(item) > 2 ** 31 - 1) return { ok: false, error: `"${item.slice(0, 40)}" is not a shipment id.` };
    ids.push(Number(item));
  }
  return { ok: true, selection: { shipmentIds: ids }, skipUnprintable };
}
