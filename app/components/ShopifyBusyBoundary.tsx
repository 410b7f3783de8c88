import { isRouteErrorResponse, useRevalidator, useRouteError } from "@remix-run/react";
import { Banner, Layout, Page } from "@shopify/polaris";
import { useAdminStrings } from "./AdminLanguage";

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
  const t = useAdminStrings().common.errorPage;
  if (!isRouteErrorResponse(error) || error.status >= 500) throw error;
  if (isAppBridgePage(error.data)) return <div dangerouslySetInnerHTML={{ __html: error.data }} />;
  if (error.status === 429 && typeof error.data?.shopifyBusy === "string") {
    return (
      <Page title={t.busyTitle}>
        <Layout>
          <Layout.Section>
            <Banner tone="warning" title={t.busyBanner} action={{ content: t.tryAgain, onAction: () => revalidator.revalidate(), loading: revalidator.state === "loading" }}>
              {error.data.shopifyBusy}
            </Banner>
          </Layout.Section>
        </Layout>
      </Page>
    );
  }
  const message = typeof error.data === "string" && error.data.trim() ? error.data.trim() : error.statusText || t.notAvailable;
  return (
    <Page title={error.status === 404 ? t.notFoundTitle : t.notAvailableTitle} backAction={{ content: t.backToOrders, url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <Banner tone="warning" title={error.status === 404 ? t.notFoundBanner : t.refusedBanner} action={{ content: t.ordersToShip, url: "/app/orders" }}>
            {message}
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
