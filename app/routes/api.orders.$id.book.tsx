import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { bookOrderShipping, extensionContext } from "~/extension-api/order-shipping.server";
import { BookBodySchema, parseJsonBody, parseOrderId } from "~/extension-api/requests";
import { authenticate } from "~/shopify.server";

/** POST /api/orders/{id}/book `{"courierId"}` → `BookAnswer`: the chosen courier booked, exactly once. */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { admin, session, cors } = await authenticate.admin(request);
  const orderId = parseOrderId(params.id);
  if (!orderId.ok) return cors(json({ error: orderId.error }, { status: 400 }));
  const body = await parseJsonBody(request, BookBodySchema);
  if (!body.ok) return cors(json({ error: body.error }, { status: 400 }));
  return cors(json(await bookOrderShipping(extensionContext(session.shop, admin), orderId.value, body.value.courierId)));
};

/** The browser's preflight (OPTIONS) reaches the loader, where `authenticate.admin` answers it; a GET is refused. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(json({ error: "Book with POST" }, { status: 405, headers: { Allow: "POST" } }));
};
