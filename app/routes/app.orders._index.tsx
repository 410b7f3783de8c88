import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator, useSearchParams, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, EmptyState, IndexTable, InlineStack, Layout, Link, List, Page, Pagination, SkeletonBodyText, Tabs, Text, TextField, Tooltip, useIndexResourceState } from "@shopify/polaris";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { shopifyOrderAdminUrl } from "~/shopify/admin-links";
import { countOrderStages, listOrdersOverview, MAX_BULK_ORDERS, MAX_ORDER_SEARCH_LENGTH } from "~/orders/orders-overview.server";
import { isOrderStage, ORDER_STAGE_ORDER } from "~/orders/order-stage";
import { orderGidOf } from "~/booking/overrides";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import { shipOrders, type ShipResult } from "~/orders/ship-orders.server";
import { formatCount, formatDate, formatKg, formatRupees } from "~/components/formatting";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { fill, formLanguage, sayStored, shipmentStatusName, type AdminStrings } from "~/locales/admin-language";
import { requestOrderReconcile } from "~/orders/intake.server";
import { RISK_TONES } from "~/components/CodCard";
import { factorInWords } from "~/cod/risk-words";
import { DECISION } from "~/orders/readiness";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { problemInWords } from "~/shopify/readiness-checks";

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

/** Why the bulk booking was refused, named on the page. */
type Refusal = { kind: "none_selected" } | { kind: "too_many"; limit: number };
type ActionData = { error: Refusal | null; results: ShipResult[]; checking: boolean };

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
  const refuse = (error: Refusal) => json<ActionData>({ error, results: [], checking: false }, { status: 422 });
  if (orderGids.length === 0) return refuse({ kind: "none_selected" });
  if (orderGids.length > MAX_BULK_ORDERS) return refuse({ kind: "too_many", limit: MAX_BULK_ORDERS });
  const results = await whenShopifyAnswers(() => shipOrders(session.shop, admin, orderGids, { policy: "recommended", language: formLanguage(form) }));
  return json<ActionData>({ error: null, results, checking: false });
};

type ListStrings = AdminStrings["orders"]["list"];

/** One order's booking in a line: what happened, with which courier and awb, and why when it did not book. */
function describe(t: ListStrings["booking"], result: ShipResult): string {
  const outcome = t.outcomes[result.outcome];
  const withCourier = result.courierName ? fill(result.awb ? t.withCourierAwb : t.withCourier, { outcome, courier: result.courierName, awb: result.awb ?? "" }) : outcome;
  const text = result.outcome === "failed" || result.outcome === "held" ? fill(t.withReason, { result: withCourier, reason: result.reason ?? "" }) : withCourier;
  return fill(t.line, { order: result.orderName, result: text });
}

/** A fix is made in Shopify: the order opens in Shopify's admin, in the whole window. */
function EditInShopify({ shopDomain, legacyId, orderName }: { shopDomain: string; legacyId: string; orderName: string }) {
  const t = useAdminStrings().orders.list;
  const url = shopifyOrderAdminUrl(shopDomain, legacyId);
  if (!url) return null;
  return (
    <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
      <Link url={url} target="_top" accessibilityLabel={fill(t.editInShopifyLabel, { order: orderName })}>
        {t.editInShopify}
      </Link>
    </span>
  );
}

export default function OrdersToShip() {
  const { rows, nextCursor, isFirstPage, reading, stage, stageCounts, shopDomain } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(searchParams.get("q") ?? "");
  const strings = useAdminStrings();
  const t = strings.orders.list;
  const language = useAdminLanguage();
  const tabs = [
    { id: "all", content: t.allTab },
    ...ORDER_STAGE_ORDER.map((id) => ({ id, content: fill(t.tab, { stage: strings.common.orderStages[id], count: formatCount(stageCounts[id], language) }) })),
  ];
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
  // The address as it is now, for the pause's search below: by the time typing pauses, Enter or a tab may have moved
  // it on, and a search from the address as it was when typing began would undo them.
  const currentParams = useRef(searchParams);
  currentParams.current = searchParams;
  // The list follows what is typed, once typing pauses; Enter applies it at once.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((currentParams.current.get("q") ?? "") !== search.trim()) searchNow();
    }, 500);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when what is typed changes, not when the address does
  }, [search]);
  const searchNow = (event?: KeyboardEvent) => {
    event?.preventDefault();
    const next = new URLSearchParams(currentParams.current);
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
    form.append("locale", language);
    submit(form, { method: "post" });
  };
  const checkNow = () => submit({ intent: "check" }, { method: "post" });

  return (
    <Page
      title={strings.pages.ordersToShip}
      primaryAction={{ content: t.checkForNew, onAction: checkNow, loading: navigation.state === "submitting" && navigation.formData?.get("intent") === "check" }}
      secondaryActions={[{ content: t.returns, url: "/app/orders/returns" }]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {reading ? (
              <Banner tone="info" title={t.reading.title}>
                {t.reading.body}
              </Banner>
            ) : null}
            {result?.checking ? <Banner tone="info">{t.checking}</Banner> : null}
            {result?.error ? (
              <Banner tone="critical">{result.error.kind === "too_many" ? fill(t.errors.tooMany, { count: result.error.limit }) : t.errors.noneSelected}</Banner>
            ) : null}
            {result && result.results.length > 0 ? (
              <Banner tone={result.results.every((entry) => entry.outcome === "booked" || entry.outcome === "already_booked") ? "success" : "warning"} title={t.booking.title}>
                <List>
                  {result.results.map((entry) => (
                    <List.Item key={entry.orderGid}>{describe(t.booking, entry)}</List.Item>
                  ))}
                </List>
              </Banner>
            ) : null}
            <Tabs tabs={tabs} selected={selectedTab} onSelect={showTab} />
            <div role="search" aria-label={t.search} onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT" && searchNow(event)}>
              <InlineStack gap="300" blockAlign="end">
                <TextField label={t.orderNumber} value={search} onChange={setSearch} autoComplete="off" maxLength={100} clearButton onClearButtonClick={() => setSearch("")} />
              </InlineStack>
            </div>
            <Card padding="0">
              {loading ? (
                <BlockStack gap="200">
                  <SkeletonBodyText lines={8} />
                </BlockStack>
              ) : rows.length === 0 && filtered ? (
                <EmptyState heading={t.noMatch.heading} image="" action={{ content: t.noMatch.clear, onAction: clearFilters }}>
                  <p>{t.noMatch.text}</p>
                </EmptyState>
              ) : rows.length === 0 ? (
                <EmptyState heading={reading ? t.empty.reading : t.empty.heading} image="" action={{ content: t.empty.settings, url: "/app/settings" }}>
                  <p>{t.empty.text}</p>
                </EmptyState>
              ) : (
                <IndexTable
                  loading={navigation.state === "submitting"}
                  resourceName={t.resourceName}
                  itemCount={rows.length}
                  selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
                  onSelectionChange={handleSelectionChange}
                  promotedBulkActions={[
                    {
                      content: t.compare,
                      onAction: () => navigate(`/app/orders/compare?${selectedResources.map((id) => `id=${id}`).join("&")}`),
                    },
                    { content: t.bookRecommended, onAction: bulkBook },
                  ]}
                  headings={[
                    { title: t.headings.order },
                    { title: t.headings.date },
                    { title: t.headings.shopper },
                    { title: t.headings.destination },
                    { title: t.headings.payment },
                    { title: t.headings.risk },
                    { title: t.headings.weight },
                    { title: t.headings.total, alignment: "end" },
                    { title: t.headings.status },
                  ]}
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
                      <IndexTable.Cell>{formatDate(row.createdAt, undefined, language)}</IndexTable.Cell>
                      <IndexTable.Cell>{row.shopperName || "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{row.destination || t.noAddress}</IndexTable.Cell>
                      <IndexTable.Cell>{row.paymentMode === "cod" ? t.payment.cod : row.paymentMode === "prepaid" ? t.payment.prepaid : t.payment.unknown}</IndexTable.Cell>
                      <IndexTable.Cell>
                        {row.risk && row.paymentMode === "cod" ? (
                          <Tooltip content={row.risk.factors.filter((factor) => factor.points !== 0).map((factor) => factorInWords(factor, language)).join(" · ")}>
                            <Badge tone={RISK_TONES[row.risk.level]}>{fill(strings.cod.riskBadge, { level: strings.cod.levels[row.risk.level] })}</Badge>
                          </Tooltip>
                        ) : (
                          "—"
                        )}
                      </IndexTable.Cell>
                      <IndexTable.Cell>{row.weightKg === null ? "—" : formatKg(row.weightKg, language)}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {row.total === null ? "—" : formatRupees(row.total)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <InlineStack gap="100">
                          {row.shipmentStatus ? (
                            <Badge tone={shipmentStatusLabel(row.shipmentStatus).tone}>{shipmentStatusName(strings, row.shipmentStatus) ?? row.shipmentStatus}</Badge>
                          ) : row.problems.length === 0 ? (
                            <Badge tone="success">{t.ready}</Badge>
                          ) : (
                            <InlineStack gap="100" blockAlign="center">
                              <Tooltip content={row.problems.map((problem) => problemInWords(problem, language)).map((words) => `${words.message} ${words.fix}`).join(" ")}>
                                <InlineStack gap="100">
                                  {row.problems.map((problem) => (
                                    <Badge key={problem.code} tone="warning">
                                      {problemInWords(problem, language).label}
                                    </Badge>
                                  ))}
                                </InlineStack>
                              </Tooltip>
                              <EditInShopify shopDomain={shopDomain} legacyId={row.legacyId} orderName={row.name} />
                            </InlineStack>
                          )}
                          {row.decision === DECISION.CONFIRMING ? (
                            <Tooltip content={sayStored(language, row.decisionWords, row.decisionReason ?? "")}>
                              <Badge tone="attention">{strings.common.orderStages.confirming}</Badge>
                            </Tooltip>
                          ) : null}
                          {row.decision === DECISION.HELD || row.decision === DECISION.FAILED ? (
                            <Tooltip content={sayStored(language, row.decisionWords, row.decisionReason ?? "")}>
                              <Badge tone="attention">{row.decision === DECISION.HELD ? t.heldByRules : t.autoBookingFailed}</Badge>
                            </Tooltip>
                          ) : null}
                        </InlineStack>
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <Pagination
              accessibilityLabel={t.pagination.label}
              accessibilityLabels={{ previous: t.pagination.previous, next: t.pagination.next }}
              hasPrevious={!isFirstPage}
              previousTooltip={t.pagination.first}
              onPrevious={() => {
                const first = new URLSearchParams(searchParams);
                first.delete("after");
                navigate(`/app/orders?${first}`);
              }}
              hasNext={Boolean(nextCursor)}
              onNext={() => {
                const next = new URLSearchParams(searchParams);
                next.set("after", nextCursor!);
                navigate(`/app/orders?${next}`);
              }}
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
