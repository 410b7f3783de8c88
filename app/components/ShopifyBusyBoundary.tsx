import { isRouteErrorResponse, useRevalidator, useRouteError } from "@remix-run/react";
import { Banner, Layout, Page } from "@shopify/polaris";

/** A thrown Response whose body is Shopify's App Bridge page (re-authentication, leaving the iframe): shown as is. */
export const isAppBridgePage = (data: unknown): data is string => typeof data === "string" && data.includes("<script");

/**
 * The error boundary of the app's pages, inside the app's layout. Shopify being busy (a 429 from
 * `whenShopifyAnswers`) is a banner with a retry; an address that leads nowhere (404) or another refusal says so;
 * Shopify's own re-authentication page is rendered as it is. Anything else — a real failure — goes on to the
 * app's boundary. Recognised with Remix's `isRouteErrorResponse`, which survives minification (comparing class
 * names does not: in the browser bundle the class is renamed, and such a page would fail to hydrate).
 */
export function ShopifyBusyBoundary() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  if (!isRouteErrorResponse(error) || error.status >= 500) throw error;
  if (isAppBridgePage(error.data)) return <div dangerouslySetInnerHTML={{ __html: error.data }} />;
  if (error.status === 429 && typeof error.data?.shopifyBusy === "string") {
    return (
      <Page title="Shopify is busy">
        <Layout>
          <Layout.Section>
            <Banner tone="warning" title="Shopify is busy, try again in a minute" action={{ content: "Try again", onAction: () => revalidator.revalidate(), loading: revalidator.state === "loading" }}>
              {error.data.shopifyBusy}
            </Banner>
          </Layout.Section>
        </Layout>
      </Page>
    );
  }
  const message = typeof error.data === "string" && error.data.trim() ? error.data.trim() : error.statusText || "This page is not available.";
  return (
    <Page title={error.status === 404 ? "Not found" : "Not available"} backAction={{ content: "Orders", url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <Banner tone="warning" title={error.status === 404 ? "Nothing here" : "This request was refused"} action={{ content: "Orders to ship", url: "/app/orders" }}>
            {message}
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
