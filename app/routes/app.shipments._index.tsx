import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Badge, Banner, Button, Card, EmptyState, IndexTable, Layout, Link, Page, Select, Text, BlockStack, InlineStack, useIndexResourceState } from "@shopify/polaris";
import { useEffect } from "react";
import { documentsOverview, shipmentDocumentAction, type DocumentActionAnswer } from "~/documents/shipments-page.server";
import { legacyIdOf } from "~/booking/overrides";
import { isShipmentStatus, SHIPMENT_STATUSES, shipmentStatusLabel } from "~/shipments/lifecycle";
import { listShipments } from "~/booking/shipments.server";
import { formatDate, formatPaise } from "~/components/formatting";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { stageTone } from "~/tracking/courier-progress";
import { authenticate } from "~/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const status = new URL(request.url).searchParams.get("status") ?? "";
  const filter = isShipmentStatus(status) ? status : null;
  const notPrinted = new URL(request.url).searchParams.get("printed") === "no";
  const shipments = await listShipments(session.shop, filter, notPrinted ? 500 : 100);
  const documents = await documentsOverview(session.shop, shipments.map((shipment) => shipment.id));
  const listed = notPrinted ? shipments.filter((shipment) => shipment.awb && !documents.printedAt[shipment.id] && !["cancelled", "failed", "booking"].includes(shipment.status)).slice(0, 100) : shipments;
  return json({ shipments: listed, filter, notPrinted, ...documents });
};

/** Print labels for the selected shipments, make a pickup's manifest, or print an earlier one: each answers a signed link. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const answer = await shipmentDocumentAction(session.shop, await request.formData());
  return json(answer, { status: answer.ok ? 200 : answer.status });
};

function DocumentLink({ answer }: { answer: DocumentActionAnswer | undefined }) {
  useEffect(() => {
    if (answer?.ok) window.open(answer.url, "_blank", "noopener");
  }, [answer]);
  if (!answer) return null;
  if (!answer.ok) return <Banner tone="critical">{answer.error}</Banner>;
  return (
    <Banner tone="success">
      {answer.message}{" "}
      <Link url={answer.url} target="_blank">
        Open the PDF
      </Link>{" "}
      (the link works for 10 minutes).
    </Banner>
  );
}

export default function Shipments() {
  const { shipments, filter, notPrinted, printedAt, pickups, manifests } = useLoaderData<typeof loader>();
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
  return (
    <Page title="Shipments" backAction={{ content: "Orders", url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <DocumentLink answer={printing.data} />
            <InlineStack gap="400">
              <Select
                label="Status"
                labelInline
                options={[{ label: "All", value: "" }, ...SHIPMENT_STATUSES.map((status) => ({ label: shipmentStatusLabel(status).label, value: status }))]}
                value={filter ?? ""}
                onChange={(value) => setParam("status", value)}
              />
              <Select
                label="Label"
                labelInline
                options={[
                  { label: "Any", value: "" },
                  { label: "Not printed yet", value: "no" },
                ]}
                value={notPrinted ? "no" : ""}
                onChange={(value) => setParam("printed", value)}
              />
            </InlineStack>
            {pickups.length > 0 || manifests.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Pickups
                  </Text>
                  {pickups.map((pickup) => (
                    <InlineStack key={`${pickup.warehouseId}-${pickup.courierName}`} gap="300" blockAlign="center">
                      <Text as="span">
                        Warehouse {pickup.warehouseId} · {pickup.courierName || "Courier"} · {pickup.count} {pickup.count === 1 ? "shipment" : "shipments"} waiting
                      </Text>
                      <Button loading={printing.state !== "idle"} onClick={() => submitDocument({ intent: "manifest", warehouseId: String(pickup.warehouseId), courierName: pickup.courierName })}>
                        Print manifest
                      </Button>
                    </InlineStack>
                  ))}
                  {pickups.length === 0 ? <Text as="p" tone="subdued">Every booked shipment is in a manifest.</Text> : null}
                  {manifests.map((manifest) => (
                    <InlineStack key={manifest.id} gap="300" blockAlign="center">
                      <Text as="span" tone="subdued">
                        Manifest #{manifest.number} · warehouse {manifest.warehouseId} · {manifest.courierName} · {manifest.count} {manifest.count === 1 ? "shipment" : "shipments"} · {formatDate(manifest.createdAt)}
                      </Text>
                      <Button variant="plain" onClick={() => submitDocument({ intent: "manifest-again", manifestId: String(manifest.id) })}>
                        Print again
                      </Button>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Card>
            ) : null}
            <Card padding="0">
              {shipments.length === 0 ? (
                <EmptyState heading={notPrinted ? "Every label is printed" : filter ? "No shipments in this state" : "No shipments yet"} image="" action={{ content: "Ship an order", url: "/app/orders" }}>
                  <p>Shipments appear here once you book an order with a courier.</p>
                </EmptyState>
              ) : (
                <IndexTable
                  resourceName={{ singular: "shipment", plural: "shipments" }}
                  itemCount={shipments.length}
                  selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
                  onSelectionChange={handleSelectionChange}
                  promotedBulkActions={[{ content: "Print labels", onAction: () => submitDocument({ intent: "labels", shipmentIds: selectedResources.join(",") }) }]}
                  headings={[{ title: "Order" }, { title: "Booked" }, { title: "Courier" }, { title: "AWB" }, { title: "Label" }, { title: "Charges", alignment: "end" }, { title: "Status" }, { title: "Delivery" }]}
                >
                  {shipments.map((shipment, index) => (
                    <IndexTable.Row id={String(shipment.id)} key={shipment.id} position={index} selected={selectedResources.includes(String(shipment.id))} onClick={() => navigate(`/app/orders/${legacyIdOf(shipment.returnOfOrderGid ?? shipment.orderGid)}/ship`)}>
                      <IndexTable.Cell>
                        <Text as="span" fontWeight="semibold">
                          {shipment.orderName}
                        </Text>
                        {shipment.direction === "return" ? <Badge tone="info">Return</Badge> : null}
                      </IndexTable.Cell>
                      <IndexTable.Cell>{formatDate(shipment.createdAt)}</IndexTable.Cell>
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
                      <IndexTable.Cell>
                        {printedAt[shipment.id] ? (
                          <Text as="span" tone="subdued" variant="bodySm">
                            Printed {formatDate(printedAt[shipment.id]!)}
                          </Text>
                        ) : shipment.awb && (shipment.status === "booked_unfulfilled" || shipment.status === "fulfilled") ? (
                          <Badge tone="attention">Not printed yet</Badge>
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
                          <Badge tone={shipmentStatusLabel(shipment.status).tone}>{shipmentStatusLabel(shipment.status).label}</Badge>
                          {shipment.lastError ? (
                            <Text as="span" tone="subdued" variant="bodySm">
                              {shipment.lastError}
                            </Text>
                          ) : null}
                        </BlockStack>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        {shipment.courierStatusCode === null ? (
                          "—"
                        ) : (
                          <BlockStack gap="100">
                            <Badge tone={stageTone(shipment.courierStatusCode)}>{shipment.courierStatusLabel ?? `Status ${shipment.courierStatusCode}`}</Badge>
                            <Text as="span" tone="subdued" variant="bodySm">
                              {shipment.courierStatusAt ? formatDate(shipment.courierStatusAt) : ""}
                              {shipment.courierStatusCode !== 8 && shipment.estimatedDeliveryAt ? ` · expected ${formatDate(shipment.estimatedDeliveryAt)}` : ""}
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

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
