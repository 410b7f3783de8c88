import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { countNeedsAttention } from "~/attention/needs-attention.server";
import { countShipmentsByStatus } from "~/booking/shipments.server";
import { getShopSettings, usesSandbox } from "~/settings/shop-settings.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { shipmentStatusLabel } from "~/shipments/lifecycle";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const [shop, settings, counts, needsAttention] = await Promise.all([
    whenShopifyAnswers(() => getShopOverview(admin)),
    getShopSettings(session.shop),
    countShipmentsByStatus(session.shop),
    countNeedsAttention(session.shop),
  ]);
  return json({
    shop: `${shop.name} (${shop.myshopifyDomain})`,
    sandbox: usesSandbox(settings),
    autoBooking: settings.autoBooking,
    needsAttention,
    counts,
  });
};

export default function Home() {
  const { shop, sandbox, autoBooking, needsAttention, counts } = useLoaderData<typeof loader>();
  return (
    <Page title="Dakiya" primaryAction={{ content: "Ship orders", url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {sandbox ? (
              <Banner tone="info" title="You are using the sandbox courier service" action={{ content: "Connect your courier account", url: "/app/settings" }}>
                Rates, awbs and tracking are simulated: nothing is picked up and no courier charges you. Your Shopify orders are
                fulfilled for real, with sandbox tracking numbers.
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Ship your orders with Indian couriers
                </Text>
                <Text as="p">
                  Dakiya compares couriers&apos; rates and delivery days for each order, books the shipment, and adds the tracking number and
                  link to the Shopify fulfillment so your customer is notified.
                </Text>
                <Text as="p" tone="subdued">
                  Connected store: {shop}
                </Text>
              </BlockStack>
            </Card>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <Card>
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingSm">
                      Auto-booking is {autoBooking ? "on" : "off"}
                    </Text>
                    <Text as="p" tone="subdued">
                      {autoBooking ? "New orders are booked by your rules as they arrive." : "New orders are checked as they arrive and wait for you."}
                    </Text>
                  </BlockStack>
                  <Button url="/app/auto-booking">{autoBooking ? "Rules" : "Set up"}</Button>
                </InlineStack>
              </Card>
              <Card>
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingSm">
                      {needsAttention === 0 ? "Nothing needs you" : `${needsAttention} need${needsAttention === 1 ? "s" : ""} attention`}
                    </Text>
                    <Text as="p" tone="subdued">
                      Orders to fix, held orders, delivery problems and stuck work.
                    </Text>
                  </BlockStack>
                  <Button url="/app/attention" variant={needsAttention > 0 ? "primary" : undefined}>
                    Open
                  </Button>
                </InlineStack>
              </Card>
            </InlineGrid>
            {counts.length > 0 ? (
              <InlineGrid columns={4} gap="300">
                {counts.map((row) => (
                  <Card key={row.status}>
                    <BlockStack gap="100">
                      <Text as="p" tone="subdued">
                        {shipmentStatusLabel(row.status).label}
                      </Text>
                      <Text as="p" variant="headingLg">
                        {row.count}
                      </Text>
                    </BlockStack>
                  </Card>
                ))}
              </InlineGrid>
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
