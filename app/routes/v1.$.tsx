import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { embeddedServiceHandler } from "~/shipping/service/embedded.server";

// The embedded Shipment Order Service. A deployment that uses only the real aggregator turns it off.
function serve(request: Request): Promise<Response> | Response {
  if (!getConfig().COURIER_SERVICE_ENABLED) {
    return new Response(JSON.stringify({ success: false, message: "The embedded courier service is switched off", errors: [] }), {
      status: 404,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return embeddedServiceHandler()(request);
}

export const loader = ({ request }: LoaderFunctionArgs) => serve(request);
export const action = ({ request }: ActionFunctionArgs) => serve(request);
