import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { RATE_BADGE_TONES } from "../../extensions/shared/badge-tones";
import { useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, DataTable, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { compareOrders, MAX_BULK_ORDERS } from "~/orders/orders-overview.server";
import { legacyIdOf, orderGidOf } from "~/booking/overrides";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { ProblemsBanner } from "~/components/ProblemsBanner";
import { formatRupees } from "~/components/formatting";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { fill, plural } from "~/locales/admin-language";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const ids = new URL(request.url).searchParams.getAll("id");
  const orderGids = ids.map(orderGidOf).filter((gid): gid is string => gid !== null);
  return json({ compared: await whenShopifyAnswers(() => compareOrders(session.shop, admin, orderGids)), skipped: Math.max(0, orderGids.length - MAX_BULK_ORDERS), limit: MAX_BULK_ORDERS });
};

export default function CompareRates() {
  const { compared, skipped, limit } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.orders.compare;
  const language = useAdminLanguage();
  return (
    <Page title={strings.pages.compare} backAction={{ content: t.back, url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {compared.length === 0 ? <Banner tone="warning">{t.noneSelected}</Banner> : null}
            {skipped > 0 ? <Banner tone="info">{plural(language, t.skipped, skipped, { limit })}</Banner> : null}
            {compared.map(({ orderGid, outcome }) => {
              const order = "order" in outcome ? outcome.order : null;
              const name = outcome.kind === "already_booked" ? outcome.parcels[0]!.orderName : (order?.name ?? orderGid);
              return (
                <Card key={orderGid}>
                  <BlockStack gap="300">
                    <InlineStack align="space-between">
                      <Text as="h2" variant="headingMd">
                        {name}
                        {order ? ` · ${order.destination}` : ""}
                        {outcome.kind === "quoted" && outcome.parcels > 1 ? ` · ${plural(language, t.parcels, outcome.parcels)}` : ""}
                      </Text>
                      <Button url={`/app/orders/${legacyIdOf(orderGid)}/ship`}>{t.ship}</Button>
                    </InlineStack>
                    {outcome.kind === "problems" ? <ProblemsBanner problems={outcome.problems} /> : null}
                    {outcome.kind === "unavailable" ? <Banner tone="critical">{bookOutcomeInWords(outcome, { language })}</Banner> : null}
                    {outcome.kind === "not_found" ? <Banner tone="critical">{t.notFound}</Banner> : null}
                    {outcome.kind === "already_booked" ? <Banner tone="info">{fill(t.alreadyBooked, { awbs: outcome.parcels.map((parcel) => parcel.awb ?? t.awbPending).join(", ") })}</Banner> : null}
                    {outcome.kind === "quoted" ? (
                      <DataTable
                        columnContentTypes={["text", "numeric", "text", "text"]}
                        headings={[t.headings.courier, t.headings.total, t.headings.days, t.headings.marked]}
                        rows={outcome.rates.map((rate) => [
                          rate.name,
                          formatRupees(rate.total_charges),
                          fill(t.days, { days: rate.edd }),
                          <InlineStack key="badges" gap="100">
                            {rate.isRecommended ? <Badge tone={RATE_BADGE_TONES.recommended}>{t.recommended}</Badge> : null}
                            {rate.isCheapest ? <Badge tone={RATE_BADGE_TONES.cheapest}>{t.cheapest}</Badge> : null}
                            {rate.isFastest ? <Badge tone={RATE_BADGE_TONES.fastest}>{t.fastest}</Badge> : null}
                          </InlineStack>,
                        ])}
                      />
                    ) : null}
                  </BlockStack>
                </Card>
              );
            })}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
