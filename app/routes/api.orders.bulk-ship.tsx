import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { extensionContext, shipOrdersInBulk } from "~/extension-api/order-shipping.server";
import { BulkShipBodySchema, parseJsonBody } from "~/extension-api/requests";
import { authenticate } from "~/shopify.server";

/** POST /api/orders/bulk-ship `{"orderIds": [gid, …1..50]}` → `BulkAnswer`: each order shipped by the shop's policy. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin, session, cors } = await authenticate.admin(request);
  const body = await parseJsonBody(request, BulkShipBodySchema);
  if (!body.ok) return cors(json({ error: body.error }, { status: 400 }));
  return cors(json(await shipOrdersInBulk(extensionContext(session.shop, admin), body.value.orderIds)));
};

/** The browser's preflight (OPTIONS) reaches the loader, where `authenticate.admin` answers it; a GET is refused. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(json({ error: "Ship with POST" }, { status: 405, headers: { Allow: "POST" } }));
};
