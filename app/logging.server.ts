/**
 * What an unexpected failure may leave in the app's log: its kind, its code and where it was thrown — never its
 * message. Prisma's messages quote the row (a shopper's name, phone and address), the Shopify library's can
 * quote tokens, and a JSON error quotes the text it choked on. A courier failure's own kind ("unavailable",
 * "unauthorized") is one word of the client's, never the input, so it is said too.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  const failureKind = (error as { kind?: unknown }).kind;
  const stack = error.stack ?? "";
  const end = stack.indexOf(error.message);
  const frame = (end === -1 ? "" : stack.slice(end + error.message.length)).split("\n").find((line) => /^\s+at /.test(line))?.trim();
  const kind = error.constructor.name === "Error" ? error.name : error.constructor.name;
  return [
    kind,
    typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code) ? code : null,
    typeof failureKind === "string" && /^[a-z][a-z_]{0,39}$/.test(failureKind) ? failureKind : null,
    frame,
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * A request's path as the log may show it: a signed link's token is a bearer credential, so only the route is kept —
 * a document's (a return label's lasts for weeks and opens a shopper's address) and a COD confirmation's (it cancels
 * the shopper's order or changes where it goes), on the app's address and through the shop's app proxy.
 */
export function loggablePath(pathname: string): string {
  return pathname.replace(/^\/documents\/[^/]+$/, "/documents/…").replace(/^(\/proxy)?\/confirm\/[^/]+$/, "$1/confirm/…");
}
