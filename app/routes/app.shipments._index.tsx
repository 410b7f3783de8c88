import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Badge, Banner, Button, Card, EmptyState, IndexTable, INDEX_TABLE_SELECT_ALL_ITEMS, Layout, Link, Page, Select, Tabs, Text, TextField, BlockStack, InlineStack, useIndexResourceState } from "@shopify/polaris";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { isReturnShipment } from "~/documents/documents.server";
import { documentsOverview, shipmentDocumentAction, type DocumentActionAnswer, type DocumentReady } from "~/documents/shipments-page.server";
import { legacyIdOf } from "~/booking/overrides";
import { isShipmentOutcome, RECORDED_TRANSITIONS, SHIPMENT_OUTCOME_TONES } from "~/shipments/lifecycle";
import { outcomeInWords } from "~/shipments/outcome-words";
import { listShipments, readShipmentFilter } from "~/shipments/shipments.server";
import { shipmentFilterProblemsInWords } from "~/shipments/shipment-filter-problems";
import { formatDate, formatPaise } from "~/components/formatting";
import { DELIVERY_STAGE_ORDER, DELIVERY_STAGES, type DeliveryStage } from "~/shipments/delivery-stage";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { courierStatusName, fill, plural, sayStored, shipmentStatusName, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { authenticate } from "~/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  // The filter's problems by code for the page to word in the admin's language, and in English for a bare reader.
  const { filter, issues: filterIssues, problems } = readShipmentFilter(params);
  const shop = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  const timeZone = shop.ianaTimezone;
  const notPrinted = params.get("printed") === "no";
  const shipments = await listShipments(session.shop, filter, { take: notPrinted ? 500 : 100, timeZone });
  const documents = await documentsOverview(session.shop, shipments.map((shipment) => shipment.id));
  const listed = notPrinted ? shipments.filter((shipment) => shipment.awb && !isReturnShipment(shipment) && !documents.printedAt[shipment.id] && !["cancelled", "failed", "booking"].includes(shipment.status)).slice(0, 100) : shipments;
  // The search itself is not sent back: it may be a shopper's mobile, and the page reads it from its own address.
  const filtered = Boolean(filter.stage || filter.search || filter.from || filter.to || filter.deliveredFrom || filter.payment || filter.lastEvent || notPrinted);
  return json({ shipments: listed, stage: filter.stage, lastEvent: filter.lastEvent, filtered, filterIssues, problems, notPrinted, timeZone, ...documents });
};

/** Print labels for the selected shipments, make a pickup's manifest, or print an earlier one: each answers a signed link. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const answer = await shipmentDocumentAction(session.shop, await request.formData());
  return json(answer, { status: answer.ok ? 200 : answer.status });
};

function readyMessage(ready: DocumentReady, t: AdminStrings["shipments"]["documents"], language: AdminLanguage): string {
  if (ready.kind === "labels") return plural(language, t.labelsReady, ready.count);
  if (ready.kind === "manifest") return plural(language, t.manifestMade, ready.count, { number: ready.number });
  return fill(t.manifestAgain, { number: ready.number });
}

function DocumentLink({ answer }: { answer: DocumentActionAnswer | undefined }) {
  const t = useAdminStrings().shipments.documents;
  const language = useAdminLanguage();
  useEffect(() => {
    if (answer?.ok) window.open(answer.url, "_blank", "noopener");
  }, [answer]);
  if (!answer) return null;
  if (!answer.ok) return <Banner tone="critical">{answer.error}</Banner>;
  return (
    <Banner tone="success">
      {readyMessage(answer.ready, t, language)}{" "}
      <Link url={answer.url} target="_blank">
        {t.openPdf}
      </Link>{" "}
      {t.linkLifetime}
    </Banner>
  );
}

const TAB_STAGES: readonly DeliveryStage[] = ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_problem", "returning", "delivered"];

export default function Shipments() {
  const { shipments, stage, lastEvent, filtered, filterIssues, notPrinted, timeZone, printedAt, pickups, manifests } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.shipments;
  const stageNames = strings.common.deliveryStages;
  const language = useAdminLanguage();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const printing = useFetcher<DocumentActionAnswer>();
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(shipments.map((shipment) => ({ id: String(shipment.id) })));
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearchParams(next);
  };
  const submitDocument = (fields: Record<string, string>) => printing.submit(fields, { method: "post" });
  const [search, setSearch] = useState(searchParams.get("q") ?? "");
  const [from, setFrom] = useState(searchParams.get("from") ?? "");
  const [to, setTo] = useState(searchParams.get("to") ?? "");
  const [exporting, setExporting] = useState<"idle" | "running" | "failed">("idle");
  // The stages a merchant looks at every day are tabs; the rest are one choice away. Every stage as a tab overflows
  // into Polaris' "More views", whose button inside the tab list screen readers cannot make sense of.
  const shownStages = [...TAB_STAGES, ...(stage && !TAB_STAGES.includes(stage) ? [stage] : [])];
  const tabs = [{ id: "all", content: t.tabs.all }, ...shownStages.map((id) => ({ id, content: stageNames[id] }))];
  const selectedTab = Math.max(0, tabs.findIndex((tab) => tab.id === stage));
  const otherStages = DELIVERY_STAGE_ORDER.filter((id) => !TAB_STAGES.includes(id));
  const clearFilters = () => {
    setSearch("");
    setFrom("");
    setTo("");
    setSearchParams(new URLSearchParams());
  };
  // The address as it is now, for the pause's search below: by the time typing pauses, Enter or a tab may have moved
  // it on, and a search from the address as it was when typing began would undo them.
  const currentParams = useRef(searchParams);
  currentParams.current = searchParams;
  // The list follows what is typed, once typing pauses; Enter applies it at once.
  useEffect(() => {
    const timer = setTimeout(() => {
      const shown = currentParams.current;
      if ((shown.get("q") ?? "") !== search.trim() || (shown.get("from") ?? "") !== from || (shown.get("to") ?? "") !== to) searchNow();
    }, 500);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when what is typed changes, not when the address does
  }, [search, from, to]);
  const searchNow = (event?: KeyboardEvent) => {
    event?.preventDefault();
    const next = new URLSearchParams(currentParams.current);
    for (const [key, value] of [["q", search.trim()], ["from", from], ["to", to]] as const) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setSearchParams(next);
  };
  // The export is streamed by the server; the browser saves what arrives as a file.
  const exportCsv = async () => {
    setExporting("running");
    try {
      const response = await fetch("/app/shipments/export", { method: "POST", body: new URLSearchParams(searchParams) });
      if (!response.ok) throw new Error(String(response.status));
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = `shipments-${new Date().toISOString().slice(0, 10)}.csv`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExporting("idle");
    } catch {
      setExporting("failed");
    }
  };
  return (
    <Page title={strings.pages.shipments} secondaryActions={[{ content: t.export.action, onAction: exportCsv, loading: exporting === "running", disabled: shipments.length === 0 }]}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <DocumentLink answer={printing.data} />
            {exporting === "failed" ? <Banner tone="critical">{t.export.failed}</Banner> : null}
            {filterIssues.length > 0 ? <Banner tone="warning">{shipmentFilterProblemsInWords(language, filterIssues)}</Banner> : null}
            <Tabs tabs={tabs} selected={selectedTab} onSelect={(index) => setParam("stage", index === 0 ? "" : tabs[index]!.id)} />
            <div role="search" aria-label={t.filters.region} onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT" && searchNow(event)}>
              <InlineStack gap="300" blockAlign="end">
                <TextField label={t.filters.search} value={search} onChange={setSearch} autoComplete="off" maxLength={100} clearButton onClearButtonClick={() => setSearch("")} />
                <TextField label={t.filters.bookedFrom} type="date" value={from} onChange={setFrom} autoComplete="off" />
                <TextField label={t.filters.bookedUntil} type="date" value={to} onChange={setTo} autoComplete="off" />
                <Select
                  label={t.filters.otherStages}
                  labelInline
                  options={[{ label: "—", value: "" }, ...otherStages.map((id) => ({ label: stageNames[id], value: id }))]}
                  value={stage && otherStages.includes(stage) ? stage : ""}
                  onChange={(value) => setParam("stage", value)}
                />
                <Select
                  label={t.filters.lastEvent}
                  labelInline
                  options={[{ label: t.filters.any, value: "" }, ...RECORDED_TRANSITIONS.map((name) => ({ label: t.events[name], value: name }))]}
                  value={lastEvent ?? ""}
                  onChange={(value) => setParam("event", value)}
                />
                <Select
                  label={t.filters.label}
                  labelInline
                  options={[
                    { label: t.filters.any, value: "" },
                    { label: t.filters.notPrinted, value: "no" },
                  ]}
                  value={notPrinted ? "no" : ""}
                  onChange={(value) => setParam("printed", value)}
                />
              </InlineStack>
            </div>
            {pickups.length > 0 || manifests.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.pickups.heading}
                  </Text>
                  {pickups.map((pickup) => (
                    <InlineStack key={`${pickup.warehouseId}-${pickup.courierName}`} gap="300" blockAlign="center">
                      <Text as="span">
                        {plural(language, t.pickups.waiting, pickup.count, { warehouse: pickup.warehouseId, courier: pickup.courierName || t.pickups.anyCourier })}
                      </Text>
                      <Button loading={printing.state !== "idle"} onClick={() => submitDocument({ intent: "manifest", warehouseId: String(pickup.warehouseId), courierName: pickup.courierName })}>
                        {t.pickups.printManifest}
                      </Button>
                    </InlineStack>
                  ))}
                  {pickups.length === 0 ? <Text as="p" tone="subdued">{t.pickups.allInManifests}</Text> : null}
                  {manifests.map((manifest) => (
                    <InlineStack key={manifest.id} gap="300" blockAlign="center">
                      <Text as="span" tone="subdued">
                        {plural(language, t.pickups.manifest, manifest.count, { number: manifest.number, warehouse: manifest.warehouseId, courier: manifest.courierName, date: formatDate(manifest.createdAt, timeZone, language) })}
                      </Text>
                      <Button variant="plain" onClick={() => submitDocument({ intent: "manifest-again", manifestId: String(manifest.id) })}>
                        {t.pickups.printAgain}
                      </Button>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Card>
            ) : null}
            <Card padding="0">
              {shipments.length === 0 ? (
                filtered ? (
                  <EmptyState heading={notPrinted ? t.empty.allPrinted : t.empty.noMatch} image="" action={{ content: t.empty.clearFilters, onAction: clearFilters }}>
                    <p>{t.empty.tryOther}</p>
                  </EmptyState>
                ) : (
                  <EmptyState heading={t.empty.none} image="" action={{ content: t.empty.shipOrder, url: "/app/orders" }}>
                    <p>{t.empty.explain}</p>
                  </EmptyState>
                )
              ) : (
                <IndexTable
                  resourceName={t.table.resourceName}
                  itemCount={shipments.length}
                  selectedItemsCount={allResourcesSelected ? INDEX_TABLE_SELECT_ALL_ITEMS : selectedResources.length}
                  onSelectionChange={handleSelectionChange}
                  promotedBulkActions={[{ content: t.table.printLabels, onAction: () => submitDocument({ intent: "labels", shipmentIds: selectedResources.join(",") }) }]}
                  headings={[
                    { title: t.table.headings.order },
                    { title: t.table.headings.booked },
                    { title: t.table.headings.shopper },
                    { title: t.table.headings.courier },
                    { title: t.table.headings.awb },
                    { title: t.table.headings.payment },
                    { title: t.table.headings.codAmount, alignment: "end" },
                    { title: t.table.headings.label },
                    { title: t.table.headings.charges, alignment: "end" },
                    { title: t.table.headings.status },
                    { title: t.table.headings.delivery },
                  ]}
                >
                  {shipments.map((shipment, index) => (
                    <IndexTable.Row id={String(shipment.id)} key={shipment.id} position={index} selected={selectedResources.includes(String(shipment.id))} onClick={() => navigate(`/app/orders/${legacyIdOf(shipment.returnOfOrderGid ?? shipment.orderGid)}/ship`)}>
                      <IndexTable.Cell>
                        <Link url={`/app/orders/${legacyIdOf(shipment.returnOfOrderGid ?? shipment.orderGid)}/ship`} dataPrimaryLink monochrome removeUnderline>
                          <Text as="span" fontWeight="semibold">
                            {shipment.orderName}
                          </Text>
                        </Link>
                        {shipment.direction === "return" ? <Badge tone="info">{t.table.return}</Badge> : null}
                      </IndexTable.Cell>
                      <IndexTable.Cell>{formatDate(shipment.createdAt, timeZone, language)}</IndexTable.Cell>
                      <IndexTable.Cell>{shipment.shopperName || "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{shipment.courierName ?? "—"}</IndexTable.Cell>
                      <IndexTable.Cell>
                        {shipment.awb && shipment.trackingUrl && isSafeTrackingUrl(shipment.trackingUrl) ? (
                          <Link url={shipment.trackingUrl} target="_blank" removeUnderline>
                            {shipment.awb}
                          </Link>
                        ) : (
                          (shipment.awb ?? "—")
                        )}
                      </IndexTable.Cell>
                      <IndexTable.Cell>{shipment.paymentMode === "cod" ? t.table.cod : t.table.prepaid}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {shipment.codAmountPaise === null ? "—" : formatPaise(shipment.codAmountPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        {printedAt[shipment.id] ? (
                          <Text as="span" tone="subdued" variant="bodySm">
                            {fill(t.table.printed, { date: formatDate(printedAt[shipment.id]!, timeZone, language) })}
                          </Text>
                        ) : shipment.direction === "return" ? (
                          <Text as="span" tone="subdued" variant="bodySm">
                            {t.table.labelWithPickup}
                          </Text>
                        ) : shipment.awb && (shipment.status === "booked_unfulfilled" || shipment.status === "fulfilled") ? (
                          <Badge tone="attention">{t.table.notPrinted}</Badge>
                        ) : (
                          "—"
                        )}
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {shipment.totalChargesPaise === null ? "—" : formatPaise(shipment.totalChargesPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <BlockStack gap="100">
                          <Badge tone={DELIVERY_STAGES[shipment.stage].tone}>{stageNames[shipment.stage]}</Badge>
                          <Text as="span" tone="subdued" variant="bodySm">
                            {shipmentStatusName(strings, shipment.status) ?? shipment.status}
                          </Text>
                          {shipment.lastError ? (
                            <Text as="span" tone="subdued" variant="bodySm">
                              {sayStored(language, shipment.lastErrorWords, shipment.lastError)}
                            </Text>
                          ) : null}
                        </BlockStack>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        {shipment.courierStatusCode === null ? (
                          "—"
                        ) : (
                          <BlockStack gap="100">
                            <Badge tone={isShipmentOutcome(shipment.outcome) ? SHIPMENT_OUTCOME_TONES[shipment.outcome] : undefined}>{outcomeInWords(shipment, language)}</Badge>
                            <CourierWords outcome={shipment.outcome} code={shipment.courierStatusCode} label={shipment.courierStatusLabel} />
                            <Text as="span" tone="subdued" variant="bodySm">
                              {shipment.courierStatusAt ? formatDate(shipment.courierStatusAt, timeZone, language) : ""}
                              {shipment.estimatedDeliveryAt && ["awaiting_pickup", "in_transit", "out_for_delivery"].includes(shipment.stage) ? ` · ${fill(t.table.expected, { date: formatDate(shipment.estimatedDeliveryAt, timeZone, language) })}` : ""}
                            </Text>
                          </BlockStack>
                        )}
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** The courier's own word for its latest stage, where it says more than the outcome ("RTO", "Undelivered"). */
function CourierWords({ outcome, code, label }: { outcome: string; code: number; label: string | null }) {
  const strings = useAdminStrings();
  const language = useAdminLanguage();
  const said = courierStatusName(strings, code) ?? label ?? fill(strings.shipments.table.courierCode, { code });
  if (said === outcomeInWords({ outcome, deliveryAttempts: 0 }, language)) return null;
  return (
    <Text as="span" tone="subdued" variant="bodySm">
      {said}
    </Text>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
