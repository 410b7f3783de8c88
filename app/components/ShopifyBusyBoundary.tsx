import { isRouteErrorResponse, useRevalidator, useRouteError } from "@remix-run/react";
import { Banner, Layout, Page } from "@shopify/polaris";

/**
 * The error boundary of the app's pages: Shopify being busy (a 429 from `whenShopifyAnswers`) is shown in the
 * page as a banner with a retry; anything else goes on to the app's own boundary.
 */
export function ShopifyBusyBoundary() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  if (!isRouteErrorResponse(error) || error.status !== 429 || typeof error.data?.shopifyBusy !== "string") throw error;
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
