import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { describeError } from "./logging.server";
import { addDocumentResponseHeaders } from "./shopify.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
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
          console.error(`Rendering ${new URL(request.url).pathname} failed: ${describeError(error)}`);
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
  console.error(`${request.method} ${new URL(request.url).pathname} failed: ${describeError(error)}`);
}
