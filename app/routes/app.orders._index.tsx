import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, EmptyState, IndexTable, InlineStack, Layout, List, Page, Pagination, SkeletonBodyText, Text, Tooltip, useIndexResourceState } from "@shopify/polaris";
import { bookRecommended, listOrdersOverview, MAX_BULK_ORDERS } from "~/booking/orders-overview.server";
import { orderGidOf } from "~/booking/overrides";
import { formatDate, formatKg, formatRupees } from "~/components/formatting";
import { shipmentStatusLabel } from "~/booking/shipment-lifecycle";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { PROBLEM_LABELS } from "~/shopify/order-mapping";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const after = new URL(request.url).searchParams.get("after");
  return json({ ...(await whenShopifyAnswers(() => listOrdersOverview(session.shop, admin, { after }))), isFirstPage: !after });
};

interface BulkResult {
  orderGid: string;
  booked: boolean;
  summary: string;
}

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const form = await request.formData();
  const ids = form.getAll("orderId").map(String);
  const orderGids = ids.map(orderGidOf).filter((gid): gid is string => gid !== null);
  const refuse = (error: string) => json<{ error: string | null; results: BulkResult[] }>({ error, results: [] }, { status: 422 });
  if (orderGids.length === 0) return refuse("Select at least one order.");
  if (orderGids.length > MAX_BULK_ORDERS) return refuse(`Select at most ${MAX_BULK_ORDERS} orders at a time.`);
  const results = await bookRecommended(session.shop, admin, orderGids);
  return json<{ error: string | null; results: BulkResult[] }>({
    error: null,
    results: results.map(({ orderGid, outcome }): BulkResult => ({
      orderGid,
      booked: outcome.kind === "booked" || outcome.kind === "already_booked",
      summary:
        outcome.kind === "booked"
          ? `booked with ${outcome.shipment.courierName}${outcome.shipment.awb ? `, awb ${outcome.shipment.awb}` : ""}`
          : outcome.kind === "already_booked"
            ? outcome.shipment.awb
              ? `already booked with ${outcome.shipment.courierName}, awb ${outcome.shipment.awb}`
              : "already being booked"
            : outcome.kind === "problems"
              ? `not booked: ${outcome.problems.map((problem) => problem.message).join(" ")}`
              : outcome.kind === "quoted"
                ? "not booked: no courier serves this route"
                : outcome.kind === "not_found"
                  ? "not booked: the order no longer exists"
                  : outcome.kind === "shopify_busy"
                    ? outcome.message
                    : `not booked: ${outcome.message}`,
    })),
  });
};

export default function OrdersToShip() {
  const { rows, nextCursor, isFirstPage } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(rows.map((row) => ({ ...row, id: row.legacyId })));
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/app/orders";
  const names = new Map(rows.map((row) => [row.id, row.name]));

  const bulkBook = () => {
    const form = new FormData();
    for (const id of selectedResources) form.append("orderId", id);
    submit(form, { method: "post" });
  };

  return (
    <Page title="Orders to ship" secondaryActions={[{ content: "Shipments", url: "/app/shipments" }, { content: "Settings", url: "/app/settings" }]}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.error ? <Banner tone="critical">{result.error}</Banner> : null}
            {result && result.results.length > 0 ? (
              <Banner tone={result.results.every((entry) => entry.booked) ? "success" : "warning"} title="Booking with the recommended courier">
                <List>
                  {result.results.map((entry) => (
                    <List.Item key={entry.orderGid}>
                      {names.get(entry.orderGid) ?? entry.orderGid}: {entry.summary}
                    </List.Item>
                  ))}
                </List>
              </Banner>
            ) : null}
            <Card padding="0">
              {loading ? (
                <BlockStack gap="200">
                  <SkeletonBodyText lines={8} />
                </BlockStack>
              ) : rows.length === 0 ? (
                <EmptyState heading="No orders waiting to ship" image="" action={{ content: "Open Settings", url: "/app/settings" }}>
                  <p>New orders appear here as soon as customers place them.</p>
                </EmptyState>
              ) : (
                <IndexTable
                  loading={navigation.state === "submitting"}
                  resourceName={{ singular: "order", plural: "orders" }}
                  itemCount={rows.length}
                  selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
                  onSelectionChange={handleSelectionChange}
                  promotedBulkActions={[
                    {
                      content: "Compare rates",
                      onAction: () => navigate(`/app/orders/compare?${selectedResources.map((id) => `id=${id}`).join("&")}`),
                    },
                    { content: "Book with recommended courier", onAction: bulkBook },
                  ]}
                  headings={[{ title: "Order" }, { title: "Date" }, { title: "Destination" }, { title: "Payment" }, { title: "Weight" }, { title: "Total", alignment: "end" }, { title: "Status" }]}
                >
                  {rows.map((row, index) => (
                    <IndexTable.Row id={row.legacyId} key={row.id} position={index} selected={selectedResources.includes(row.legacyId)} onClick={() => navigate(`/app/orders/${row.legacyId}/ship`)}>
                      <IndexTable.Cell>
                        <Text as="span" fontWeight="semibold">
                          {row.name}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{formatDate(row.createdAt)}</IndexTable.Cell>
                      <IndexTable.Cell>{row.destination}</IndexTable.Cell>
                      <IndexTable.Cell>{row.paymentMode === "cod" ? "COD" : row.paymentMode === "prepaid" ? "Prepaid" : "Unknown"}</IndexTable.Cell>
                      <IndexTable.Cell>{row.weightKg === null ? "—" : formatKg(row.weightKg)}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {formatRupees(row.total)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        {row.shipmentStatus ? (
                          <Badge tone={shipmentStatusLabel(row.shipmentStatus).tone}>{shipmentStatusLabel(row.shipmentStatus).label}</Badge>
                        ) : row.problems.length === 0 ? (
                          <Badge tone="success">Ready</Badge>
                        ) : (
                          <Tooltip content={row.problems.map((problem) => `${problem.message} ${problem.fix}`).join(" ")}>
                            <InlineStack gap="100">
                              {row.problems.map((problem) => (
                                <Badge key={problem.code} tone="warning">
                                  {PROBLEM_LABELS[problem.code]}
                                </Badge>
                              ))}
                            </InlineStack>
                          </Tooltip>
                        )}
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <Pagination hasPrevious={!isFirstPage} previousTooltip="First page" onPrevious={() => navigate("/app/orders")} hasNext={Boolean(nextCursor)} onNext={() => navigate(`/app/orders?after=${encodeURIComponent(nextCursor!)}`)} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
