import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { extensionContext, syncOrderShipping } from "~/extension-api/order-shipping.server";
import { parseJsonBody, parseOrderId, SyncBodySchema } from "~/extension-api/requests";
import { authenticate } from "~/shopify.server";

/** POST /api/orders/{id}/sync `{}` → `SyncAnswer`: the shipment's tracking read from the courier now. */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { admin, session, cors } = await authenticate.admin(request);
  const orderId = parseOrderId(params.id);
  if (!orderId.ok) return cors(json({ error: orderId.error }, { status: 400 }));
  const body = await parseJsonBody(request, SyncBodySchema);
  if (!body.ok) return cors(json({ error: body.error }, { status: 400 }));
  return cors(json(await syncOrderShipping(extensionContext(session.shop, admin), orderId.value)));
};

/** The browser's preflight (OPTIONS) reaches the loader, where `authenticate.admin` answers it; a GET is refused. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(json({ error: "Sync with POST" }, { status: 405, headers: { Allow: "POST" } }));
};
