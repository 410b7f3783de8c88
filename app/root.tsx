import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError } from "@remix-run/react";

/** The page's language as the deepest route that chose one says (the admin's layout, the tracking page); English otherwise. */
function useDocumentLanguage(): string {
  const chosen = useMatches()
    .map((match) => (match.data as { language?: unknown } | null | undefined)?.language)
    .filter((language): language is string => typeof language === "string" && /^[a-z]{2}$/.test(language));
  return chosen.at(-1) ?? "en";
}

export default function App() {
  return (
    <html lang={useDocumentLanguage()}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * What a request no route answers gets — an unknown address (a browser's /favicon.ico), a refusal a route threw, a
 * failure: a short page with the status, and nothing logged beyond what handleError (entry.server.tsx) logs. Remix's
 * own fallback would print each to the console, stack and all. A failure's page never says what failed; a refusal
 * the app threw on purpose says what to fix.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // The router's own answers (no such route, no action) carry its internals: only our own refusals are shown.
  const ownMessage = isRouteErrorResponse(error) && !(error as { internal?: boolean }).internal && status < 500 && typeof error.data === "string" ? error.data.slice(0, 300) : "";
  const message = ownMessage || (status === 404 ? "There is no page at this address." : status < 500 ? "This request cannot be answered." : "Something went wrong on our side. Try again in a moment.");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{`${status} · Dakiya`}</title>
        <Meta />
        <Links />
      </head>
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "2rem" }}>
        <h1 style={{ fontSize: "1.5rem" }}>{status}</h1>
        <p>{message}</p>
        <Scripts />
      </body>
    </html>
  );
}
