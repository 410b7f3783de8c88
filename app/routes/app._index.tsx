import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "~/shopify.server";
import { getShopOverview } from "~/shopify/shop.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin } = await authenticate.admin(request);
  const shop = await getShopOverview(admin);
  return { shop: `${shop.name} (${shop.myshopifyDomain})` };
};

export default function Home() {
  const { shop } = useLoaderData<typeof loader>();
  return (
    <Page title="Dakiya">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Ship your orders with Indian couriers
              </Text>
              <Text as="p">
                Dakiya compares couriers&apos; rates and delivery days for each order, books the shipment, and adds the
                tracking number and link to the Shopify fulfillment so your customer is notified.
              </Text>
              <Text as="p" tone="subdued">
                Connected store: {shop}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
