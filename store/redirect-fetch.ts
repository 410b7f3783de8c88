/**
 * Sends the Shopify library's calls to `https://{shop}.myshopify.com/...` to the store simulator.
 * It must be installed before @shopify/shopify-app-remix is imported (the library keeps the fetch
 * it found), and it refuses to run in production: the app's own code paths are untouched.
 */
declare global {
  var __dakiyaStoreSimulatorUrl: string | undefined;
  var __dakiyaFetchRedirected: boolean | undefined;
}

export function setStoreSimulatorUrl(url: string | undefined): void {
  globalThis.__dakiyaStoreSimulatorUrl = url?.replace(/\/$/, "");
}

export function installShopifyFetchRedirect(): void {
  if (process.env.NODE_ENV === "production") throw new Error("The store simulator cannot be used when NODE_ENV is production");
  if (globalThis.__dakiyaFetchRedirected) return;
  globalThis.__dakiyaFetchRedirected = true;
  const original = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const target = globalThis.__dakiyaStoreSimulatorUrl;
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!target || !url.hostname.endsWith(".myshopify.com")) return original(input, init);
    const redirected = `${target}/${url.hostname}${url.pathname}${url.search}`;
    return original(input instanceof Request ? new Request(redirected, input) : redirected, init);
  };
}
