import { json } from "@remix-run/node";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import { describeError } from "~/logging.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { getShopOverview } from "~/shopify/shop.server";
import { DocumentRefusal, getDocumentSettings, type RenderedDocument } from "./documents.server";
import { rememberShopName } from "./document-changes.server";

/** A rendered document as the browser gets it (inline, never cached), or the refusal's words with its status. */
export async function answerDocument(render: () => Promise<RenderedDocument>): Promise<Response> {
  try {
    const { pdf, filename } = await render();
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${filename}"`,
        "Content-Length": String(pdf.length),
        // A shopper's address is on it: kept by no cache between the printer and the app.
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof DocumentRefusal) {
      return json({ error: error.message }, { status: error.status, headers: { "Cache-Control": "no-store", ...(error.status === 503 ? { "Retry-After": "60" } : {}) } });
    }
    throw error;
  }
}

/** Documents carry the shop's name; Shopify is asked once, and the answer kept for links opened without a session. */
export async function ensureShopName(shop: string, admin: Pick<AdminApiContext, "graphql">): Promise<void> {
  if ((await getDocumentSettings(shop)).shopName) return;
  try {
    await rememberShopName(shop, (await getShopOverview(shopAdmin(shop, admin))).name);
  } catch (error) {
    // Without the name the documents print the shop's domain instead: not worth refusing a label for.
    console.warn(`documents: the shop's name could not be read (${describeError(error)})`);
  }
}
