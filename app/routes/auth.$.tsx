import type { LoaderFunctionArgs } from "@remix-run/node";
import { ShopifyError } from "@shopify/shopify-api";
import { authenticate } from "~/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  try {
    await authenticate.admin(request);
  } catch (error) {
    // The library refuses to send the shopper's browser to another site (an exit-iframe destination off the
    // app's or the shop's host, say) by throwing; that is the caller's mistake, not the app's.
    if (error instanceof ShopifyError) {
      throw new Response("Refused: that address leaves the app or the shop's admin.\n", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
    throw error;
  }
  return null;
};
