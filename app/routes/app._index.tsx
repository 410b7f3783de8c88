import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link as RemixLink, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { countNeedsAttention } from "~/attention/needs-attention.server";
import { homeOverview } from "~/home/home.server";
import { countAwaitingDecision } from "~/failed-deliveries/desk.server";
import { getShopSettings, usesSandbox } from "~/settings/shop-settings.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { recentRefusals } from "~/storefront/storefront-refusals.server";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { fill, plural } from "~/locales/admin-language";
import { formatCount, formatPaise } from "~/components/formatting";
import { CodReportSection } from "~/components/CodReportSection";
import { codReport } from "~/cod/cod-report.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const [shop, settings, needsAttention, storefrontRefusals, cod, failedDeliveries] = await Promise.all([
    whenShopifyAnswers(() => getShopOverview(admin)),
    getShopSettings(session.shop),
    countNeedsAttention(session.shop),
    recentRefusals(session.shop),
    codReport(session.shop),
    countAwaitingDecision(session.shop),
  ]);
  const overview = await homeOverview(session.shop, settings, { timeZone: shop.ianaTimezone });
  return json({ shop: `${shop.name} (${shop.myshopifyDomain})`, sandbox: usesSandbox(settings), autoBooking: settings.autoBooking, needsAttention, storefrontRefusals, cod, failedDeliveries, ...overview });
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
  const { shop, sandbox, autoBooking, needsAttention, storefrontRefusals, failedDeliveries, counts, setup, cod } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.home;
  const language = useAdminLanguage();
  const setupLeft = setup.filter((step) => !step.done).length;
  const shipmentLabel = (key: (typeof counts.shipments)[number]["key"]) =>
    key === "delivered" ? fill(t.counts.deliveredRecently, { days: counts.deliveredDays }) : key === "delivery_problem" ? t.counts.deliveryProblems : strings.common.deliveryStages[key];
  return (
    <Page title={strings.appName} primaryAction={{ content: t.actions.shipOrders, url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {sandbox ? (
              <Banner tone="info" title={t.sandbox.title} action={{ content: t.sandbox.connect, url: "/app/settings" }}>
                {t.sandbox.body}
              </Banner>
            ) : null}
            {storefrontRefusals.trackingLookups > 0 || storefrontRefusals.estimates > 0 ? (
              <Banner tone="warning" title={t.storefrontRefusals.title}>
                <BlockStack gap="100">
                  {storefrontRefusals.trackingLookups > 0 ? <Text as="p">{plural(language, t.storefrontRefusals.trackingLookups, storefrontRefusals.trackingLookups)}</Text> : null}
                  {storefrontRefusals.estimates > 0 ? <Text as="p">{plural(language, t.storefrontRefusals.estimates, storefrontRefusals.estimates)}</Text> : null}
                  <Text as="p">{t.storefrontRefusals.body}</Text>
                </BlockStack>
              </Banner>
            ) : null}
            {setupLeft > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.setup.heading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {plural(language, t.setup.stepsLeft, setupLeft)}
                  </Text>
                  <BlockStack gap="200" as="ul">
                    {setup.map((step) => (
                      <Box as="li" key={step.key}>
                        <InlineStack gap="200" blockAlign="center" wrap={false}>
                          <Badge tone={step.done ? "success" : undefined}>{step.done ? t.setup.done : t.setup.toDo}</Badge>
                          {step.done ? (
                            <Text as="span" tone="subdued">
                              {t.setup.steps[step.key]}
                            </Text>
                          ) : (
                            <RemixLink to={step.url}>{t.setup.steps[step.key]}</RemixLink>
                          )}
                        </InlineStack>
                      </Box>
                    ))}
                  </BlockStack>
                </BlockStack>
              </Card>
            ) : null}
            <Text as="h2" variant="headingMd">
              {t.counts.ordersHeading}
            </Text>
            <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
              {counts.orders.map((count) => (
                <CountCard key={count.key} label={strings.common.orderStages[count.key]} value={formatCount(count.count, language)} url={count.url} />
              ))}
            </InlineGrid>
            <Text as="h2" variant="headingMd">
              {t.counts.shipmentsHeading}
            </Text>
            <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
              {counts.shipments.map((count) => (
                <CountCard key={count.key} label={shipmentLabel(count.key)} value={formatCount(count.count, language)} url={count.url} />
              ))}
              <CountCard label={t.counts.failedDeliveries} value={formatCount(failedDeliveries, language)} url="/app/failed-deliveries" />
              <CountCard
                label={t.counts.trackingLag}
                value={
                  counts.trackingLag.overdue === 0
                    ? t.counts.trackingUpToDate
                    : fill(t.counts.trackingBehind, { minutes: formatCount(Math.ceil(counts.trackingLag.oldestOverdueSeconds / 60), language), count: formatCount(counts.trackingLag.overdue, language) })
                }
                url="/app/shipments"
              />
            </InlineGrid>
            <Text as="h2" variant="headingMd">
              {t.counts.codHeading}
            </Text>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <CountCard label={t.counts.codOut} value={formatPaise(counts.cod.outPaise)} url={counts.cod.outUrl} />
              <CountCard label={fill(t.counts.codDelivered, { days: counts.deliveredDays })} value={formatPaise(counts.cod.deliveredPaise)} url={counts.cod.deliveredUrl} />
            </InlineGrid>
            <CodReportSection report={cod} />
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <Card>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm">
                    {autoBooking ? t.autoBooking.on : t.autoBooking.off}
                  </Text>
                  <Text as="p" tone="subdued">
                    {autoBooking ? t.autoBooking.onText : t.autoBooking.offText}
                  </Text>
                  <RemixLink to="/app/auto-booking">{autoBooking ? t.autoBooking.rules : t.autoBooking.setUp}</RemixLink>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm">
                    {needsAttention === 0 ? t.attention.none : plural(language, t.attention.count, needsAttention)}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t.attention.text}
                  </Text>
                  <RemixLink to="/app/attention">{t.attention.open}</RemixLink>
                </BlockStack>
              </Card>
            </InlineGrid>
            <Text as="p" tone="subdued">
              {fill(t.connectedStore, { shop })}
            </Text>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
