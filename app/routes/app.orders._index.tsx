import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator, useSearchParams, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, EmptyState, IndexTable, InlineStack, Layout, Link, List, Page, Pagination, SkeletonBodyText, Tabs, Text, TextField, Tooltip, useIndexResourceState } from "@shopify/polaris";
import { useEffect, useState, type KeyboardEvent } from "react";
import { shopifyOrderAdminUrl } from "~/shopify/admin-links";
import { countOrderStages, listOrdersOverview, MAX_BULK_ORDERS, MAX_ORDER_SEARCH_LENGTH } from "~/booking/orders-overview.server";
import { isOrderStage, ORDER_STAGE_ORDER, ORDER_STAGES } from "~/orders/order-stage";
import { orderGidOf } from "~/booking/overrides";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import { shipOrders, type ShipResult } from "~/booking/ship-orders.server";
import { formatDate, formatKg, formatRupees } from "~/components/formatting";
import { requestOrderReconcile } from "~/orders/intake.server";
import { DECISION } from "~/orders/readiness";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { PROBLEM_LABELS } from "~/shopify/order-mapping";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const after = params.get("after");
  const stageParam = params.get("stage") ?? "";
  const stage = isOrderStage(stageParam) ? stageParam : null;
  const searchParam = (params.get("q") ?? "").trim().slice(0, MAX_ORDER_SEARCH_LENGTH);
  const [overview, stageCounts, intake] = await Promise.all([
    listOrdersOverview(session.shop, { after, stage, search: searchParam || null }),
    countOrderStages(session.shop),
    requestOrderReconcile(session.shop, { onlyIfNeverDone: true }),
  ]);
  return json({ ...overview, stage, stageCounts, shopDomain: session.shop, isFirstPage: !after, reading: intake.neverDone });
};

type ActionData = { error: string | null; results: ShipResult[]; checking: boolean };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const form = await request.formData();
  if (form.get("intent") === "check") {
    await requestOrderReconcile(session.shop, { onlyIfNeverDone: false });
    return json<ActionData>({ error: null, results: [], checking: true });
  }
  const orderGids = form
    .getAll("orderId")
    .map(String)
    .map(orderGidOf)
    .filter((gid): gid is string => gid !== null);
  const refuse = (error: string) => json<ActionData>({ error, results: [], checking: false }, { status: 422 });
  if (orderGids.length === 0) return refuse("Select at least one order.");
  if (orderGids.length > MAX_BULK_ORDERS) return refuse(`Select at most ${MAX_BULK_ORDERS} orders at a time.`);
  const results = await whenShopifyAnswers(() => shipOrders(session.shop, admin, orderGids, { policy: "recommended" }));
  return json<ActionData>({ error: null, results, checking: false });
};

const RESULT_TEXT: Record<ShipResult["outcome"], string> = { booked: "booked", already_booked: "already booked", held: "held", failed: "not booked" };

function describe(result: ShipResult): string {
  const courier = result.courierName ? ` with ${result.courierName}${result.awb ? `, awb ${result.awb}` : ""}` : "";
  return `${RESULT_TEXT[result.outcome]}${courier}${result.outcome === "failed" || result.outcome === "held" ? `: ${result.reason}` : ""}`;
}

/** A fix is made in Shopify: the order opens in Shopify's admin, in the whole window. */
function EditInShopify({ shopDomain, legacyId, orderName }: { shopDomain: string; legacyId: string; orderName: string }) {
  const url = shopifyOrderAdminUrl(shopDomain, legacyId);
  if (!url) return null;
  return (
    <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
      <Link url={url} target="_top" accessibilityLabel={`Edit in Shopify: ${orderName}`}>
        Edit in Shopify
      </Link>
    </span>
  );
}

export default function OrdersToShip() {
  const { rows, nextCursor, isFirstPage, reading, stage, stageCounts, shopDomain } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(searchParams.get("q") ?? "");
  const tabs = [{ id: "all", content: "All" }, ...ORDER_STAGE_ORDER.map((id) => ({ id, content: `${ORDER_STAGES[id].label} (${stageCounts[id].toLocaleString("en-IN")})` }))];
  const selectedTab = Math.max(0, tabs.findIndex((tab) => tab.id === stage));
  const filtered = Boolean(stage || searchParams.get("q"));
  const showTab = (index: number) => {
    const next = new URLSearchParams();
    if (index > 0) next.set("stage", tabs[index]!.id);
    if (searchParams.get("q")) next.set("q", searchParams.get("q")!);
    setSearchParams(next);
  };
  const clearFilters = () => {
    setSearch("");
    setSearchParams(new URLSearchParams());
  };
  // The list follows what is typed, once typing pauses; Enter applies it at once.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((searchParams.get("q") ?? "") !== search.trim()) searchNow();
    }, 500);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when what is typed changes, not when the address does
  }, [search]);
  const searchNow = (event?: KeyboardEvent) => {
    event?.preventDefault();
    const next = new URLSearchParams(searchParams);
    next.delete("after");
    if (search.trim()) next.set("q", search.trim());
    else next.delete("q");
    setSearchParams(next);
  };
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const revalidator = useRevalidator();
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(rows.map((row) => ({ ...row, id: row.legacyId })));
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/app/orders";

  // Booked orders leave the list: what was selected is gone with them.
  useEffect(() => {
    if (result?.results.length) clearSelection();
  }, [result, clearSelection]);
  // While the first read of the shop's orders runs, the list fills in as orders are checked.
  useEffect(() => {
    if (!reading && !result?.checking) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2_000);
    return () => clearInterval(timer);
  }, [reading, result?.checking, revalidator]);

  const bulkBook = () => {
    const form = new FormData();
    for (const id of selectedResources) form.append("orderId", id);
    submit(form, { method: "post" });
  };
  const checkNow = () => submit({ intent: "check" }, { method: "post" });

  return (
    <Page
      title="Orders to ship"
      primaryAction={{ content: "Check for new orders", onAction: checkNow, loading: navigation.state === "submitting" && navigation.formData?.get("intent") === "check" }}
      secondaryActions={[{ content: "Returns", url: "/app/orders/returns" }]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {reading ? (
              <Banner tone="info" title="Dakiya is reading your recent orders from Shopify">
                Each order is checked as it is read; this list fills in by itself.
              </Banner>
            ) : null}
            {result?.checking ? <Banner tone="info">Checking Shopify for new and changed orders.</Banner> : null}
            {result?.error ? <Banner tone="critical">{result.error}</Banner> : null}
            {result && result.results.length > 0 ? (
              <Banner tone={result.results.every((entry) => entry.outcome === "booked" || entry.outcome === "already_booked") ? "success" : "warning"} title="Booking with the recommended courier">
                <List>
                  {result.results.map((entry) => (
                    <List.Item key={entry.orderGid}>
                      {entry.orderName}: {describe(entry)}
                    </List.Item>
                  ))}
                </List>
              </Banner>
            ) : null}
            <Tabs tabs={tabs} selected={selectedTab} onSelect={showTab} />
            <div role="search" aria-label="Search orders" onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT" && searchNow(event)}>
              <InlineStack gap="300" blockAlign="end">
                <TextField label="Order number" value={search} onChange={setSearch} autoComplete="off" maxLength={100} clearButton onClearButtonClick={() => setSearch("")} />
              </InlineStack>
            </div>
            <Card padding="0">
              {loading ? (
                <BlockStack gap="200">
                  <SkeletonBodyText lines={8} />
                </BlockStack>
              ) : rows.length === 0 && filtered ? (
                <EmptyState heading="No orders match these filters" image="" action={{ content: "Clear filters", onAction: clearFilters }}>
                  <p>Try another tab or order number.</p>
                </EmptyState>
              ) : rows.length === 0 ? (
                <EmptyState heading={reading ? "Reading your orders…" : "No orders waiting to ship"} image="" action={{ content: "Open Settings", url: "/app/settings" }}>
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
                  headings={[{ title: "Order" }, { title: "Date" }, { title: "Shopper" }, { title: "Destination" }, { title: "Payment" }, { title: "Weight" }, { title: "Total", alignment: "end" }, { title: "Status" }]}
                >
                  {rows.map((row, index) => (
                    <IndexTable.Row id={row.legacyId} key={row.id} position={index} selected={selectedResources.includes(row.legacyId)}>
                      <IndexTable.Cell>
                        {/* A real link, reached by Tab and named by the order, and the row's click target (dataPrimaryLink). */}
                        <Link url={`/app/orders/${row.legacyId}/ship`} dataPrimaryLink monochrome removeUnderline>
                          <Text as="span" fontWeight="semibold">
                            {row.name}
                          </Text>
                        </Link>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{formatDate(row.createdAt)}</IndexTable.Cell>
                      <IndexTable.Cell>{row.shopperName || "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{row.destination}</IndexTable.Cell>
                      <IndexTable.Cell>{row.paymentMode === "cod" ? "COD" : row.paymentMode === "prepaid" ? "Prepaid" : "Unknown"}</IndexTable.Cell>
                      <IndexTable.Cell>{row.weightKg === null ? "—" : formatKg(row.weightKg)}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {row.total === null ? "—" : formatRupees(row.total)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <InlineStack gap="100">
                          {row.shipmentStatus ? (
                            <Badge tone={shipmentStatusLabel(row.shipmentStatus).tone}>{shipmentStatusLabel(row.shipmentStatus).label}</Badge>
                          ) : row.problems.length === 0 ? (
                            <Badge tone="success">Ready</Badge>
                          ) : (
                            <InlineStack gap="100" blockAlign="center">
                              <Tooltip content={row.problems.map((problem) => `${problem.message} ${problem.fix}`).join(" ")}>
                                <InlineStack gap="100">
                                  {row.problems.map((problem) => (
                                    <Badge key={problem.code} tone="warning">
                                      {PROBLEM_LABELS[problem.code]}
                                    </Badge>
                                  ))}
                                </InlineStack>
                              </Tooltip>
                              <EditInShopify shopDomain={shopDomain} legacyId={row.legacyId} orderName={row.name} />
                            </InlineStack>
                          )}
                          {row.decision === DECISION.HELD || row.decision === DECISION.FAILED ? (
                            <Tooltip content={row.decisionReason ?? ""}>
                              <Badge tone="attention">{row.decision === DECISION.HELD ? "Held by rules" : "Auto-booking failed"}</Badge>
                            </Tooltip>
                          ) : null}
                        </InlineStack>
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <Pagination hasPrevious={!isFirstPage} previousTooltip="First page" onPrevious={() => {
                const first = new URLSearchParams(searchParams);
                first.delete("after");
                navigate(`/app/orders?${first}`);
              }} hasNext={Boolean(nextCursor)} onNext={() => {
                const next = new URLSearchParams(searchParams);
                next.set("after", nextCursor!);
                navigate(`/app/orders?${next}`);
              }} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
