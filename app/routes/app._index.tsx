import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link as RemixLink, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { countNeedsAttention } from "~/attention/needs-attention.server";
import { homeOverview } from "~/booking/home.server";
import { getShopSettings, usesSandbox } from "~/settings/shop-settings.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { formatPaise } from "~/components/formatting";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const [shop, settings, needsAttention] = await Promise.all([whenShopifyAnswers(() => getShopOverview(admin)), getShopSettings(session.shop), countNeedsAttention(session.shop)]);
  const overview = await homeOverview(session.shop, settings, { timeZone: shop.ianaTimezone });
  return json({ shop: `${shop.name} (${shop.myshopifyDomain})`, sandbox: usesSandbox(settings), autoBooking: settings.autoBooking, needsAttention, ...overview });
};

function CountCard({ label, value, url }: { label: string; value: string; url: string }) {
  return (
    <Card>
      <RemixLink to={url} className="dakiya-count-link">
        <BlockStack gap="100">
          <Text as="span" tone="subdued">
            {label}
          </Text>
          <Text as="span" variant="headingLg">
            {value}
          </Text>
        </BlockStack>
      </RemixLink>
    </Card>
  );
}

export default function Home() {
  const { shop, sandbox, autoBooking, needsAttention, counts, setup } = useLoaderData<typeof loader>();
  const setupLeft = setup.filter((step) => !step.done).length;
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
            {setupLeft > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Set up Dakiya
                  </Text>
                  <Text as="p" tone="subdued">
                    {setupLeft === 1 ? "1 step left" : `${setupLeft} steps left`}
                  </Text>
                  <BlockStack gap="200" as="ul">
                    {setup.map((step) => (
                      <Box as="li" key={step.key}>
                        <InlineStack gap="200" blockAlign="center" wrap={false}>
                          <Badge tone={step.done ? "success" : undefined}>{step.done ? "Done" : "To do"}</Badge>
                          {step.done ? (
                            <Text as="span" tone="subdued">
                              {step.label}
                            </Text>
                          ) : (
                            <RemixLink to={step.url}>{step.label}</RemixLink>
                          )}
                        </InlineStack>
                      </Box>
                    ))}
                  </BlockStack>
                </BlockStack>
              </Card>
            ) : null}
            <Text as="h2" variant="headingMd">
              Orders to ship
            </Text>
            <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
              {counts.orders.map((count) => (
                <CountCard key={count.key} label={count.label} value={count.count.toLocaleString("en-IN")} url={count.url} />
              ))}
            </InlineGrid>
            <Text as="h2" variant="headingMd">
              Shipments
            </Text>
            <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
              {counts.shipments.map((count) => (
                <CountCard key={count.key} label={count.label} value={count.count.toLocaleString("en-IN")} url={count.url} />
              ))}
            </InlineGrid>
            <Text as="h2" variant="headingMd">
              Cash on delivery
            </Text>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <CountCard label="COD out with couriers" value={formatPaise(counts.cod.outPaise)} url={counts.cod.outUrl} />
              <CountCard label="COD delivered in the last 7 days" value={formatPaise(counts.cod.deliveredPaise)} url={counts.cod.deliveredUrl} />
            </InlineGrid>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <Card>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm">
                    Auto-booking is {autoBooking ? "on" : "off"}
                  </Text>
                  <Text as="p" tone="subdued">
                    {autoBooking ? "New orders are booked by your rules as they arrive." : "New orders are checked as they arrive and wait for you."}
                  </Text>
                  <RemixLink to="/app/auto-booking">{autoBooking ? "Your rules" : "Set up auto-booking"}</RemixLink>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm">
                    {needsAttention === 0 ? "Nothing needs you" : `${needsAttention} need${needsAttention === 1 ? "s" : ""} attention`}
                  </Text>
                  <Text as="p" tone="subdued">
                    Orders to fix, held orders, delivery problems and stuck work.
                  </Text>
                  <RemixLink to="/app/attention">Open Needs attention</RemixLink>
                </BlockStack>
              </Card>
            </InlineGrid>
            <Text as="p" tone="subdued">
              Connected store: {shop}
            </Text>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
