import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { serveEmbeddedService } from "~/courier-service/embedded.server";

// The embedded Shipment Order Service. A deployment that uses only the real aggregator turns it off.
function serve(request: Request, clientAddress: string | undefined): Promise<Response> | Response {
  if (!getConfig().COURIER_SERVICE_ENABLED) {
    return new Response(JSON.stringify({ success: false, message: "The embedded courier service is switched off", errors: [] }), {
      status: 404,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return serveEmbeddedService(request, clientAddress);
}

export const loader = ({ request, context }: LoaderFunctionArgs) => serve(request, context.clientAddress);
export const action = ({ request, context }: ActionFunctionArgs) => serve(request, context.clientAddress);
