import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { describeError, loggablePath } from "./logging.server";
import type { ErrorResult } from "./shipping/contract";
import { addDocumentResponseHeaders } from "./shopify.server";

const ABORT_DELAY_MS = 5_000;

/**
 * The courier service answers JSON whatever its path holds. A `/v1/…` path with an encoded line break (`%0A`, `%0D`)
 * in it matches no route, because Remix's splat pattern does not cross lines, and would get the web app's HTML 404
 * (or 405, for a method only an action could take): it gets the service's own 404 instead, since the path names no
 * operation whatever the method.
 */
function courierServiceError(request: Request, status: number): Response | null {
  const path = new URL(request.url).pathname;
  if (!/^\/v1(?:\/|$)/i.test(path)) return null;
  const notFound = status === 404 || status === 405;
  const body: ErrorResult = notFound
    ? { success: false, message: "No operation at this path", errors: [{ field: "path", message: "path names no operation of the service" }] }
    : { success: false, message: "The service failed; try again", errors: [] };
  return new Response(JSON.stringify(body), { status: notFound ? 404 : status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  if (responseStatusCode >= 400) {
    const serviceError = courierServiceError(request, responseStatusCode);
    if (serviceError) return serviceError;
  }
  addDocumentResponseHeaders(request, responseHeaders);
  // The login form is its own page, never inside another site's frame (where a click could be stolen): the library
  // lets the admin frame any page opened with ?shop=, this one included.
  if (/^\/auth\/login\/?$/.test(new URL(request.url).pathname)) {
    responseHeaders.set("Content-Security-Policy", "frame-ancestors 'none'");
    responseHeaders.set("X-Frame-Options", "DENY");
  }
  const userAgent = request.headers.get("user-agent");
  const readyEvent = userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />,
      {
        [readyEvent]: () => {
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error) {
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          console.error(`Rendering ${loggablePath(new URL(request.url).pathname)} failed: ${describeError(error)}`);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}

/**
 * Remix reports here what loaders and actions throw. A 4xx the app answered on purpose (an unknown address, a
 * refused request) is not a failure; anything else is logged by kind and place only (app/logging.server.ts).
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(`${request.method} ${loggablePath(new URL(request.url).pathname)} failed: ${describeError(error)}`);
}
