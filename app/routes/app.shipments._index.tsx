import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Badge, Card, EmptyState, IndexTable, Layout, Link, Page, Select, Text, BlockStack, InlineStack } from "@shopify/polaris";
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
  return json({ shipments: await listShipments(session.shop, filter), filter });
};

export default function Shipments() {
  const { shipments, filter } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const [, setSearchParams] = useSearchParams();
  return (
    <Page title="Shipments" backAction={{ content: "Orders", url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <InlineStack>
              <Select
                label="Status"
                labelInline
                options={[{ label: "All", value: "" }, ...SHIPMENT_STATUSES.map((status) => ({ label: shipmentStatusLabel(status).label, value: status }))]}
                value={filter ?? ""}
                onChange={(value) => setSearchParams(value ? { status: value } : {})}
              />
            </InlineStack>
            <Card padding="0">
              {shipments.length === 0 ? (
                <EmptyState heading={filter ? "No shipments in this state" : "No shipments yet"} image="" action={{ content: "Ship an order", url: "/app/orders" }}>
                  <p>Shipments appear here once you book an order with a courier.</p>
                </EmptyState>
              ) : (
                <IndexTable
                  resourceName={{ singular: "shipment", plural: "shipments" }}
                  itemCount={shipments.length}
                  selectable={false}
                  headings={[{ title: "Order" }, { title: "Booked" }, { title: "Courier" }, { title: "AWB" }, { title: "Charges", alignment: "end" }, { title: "Status" }, { title: "Delivery" }]}
                >
                  {shipments.map((shipment, index) => (
                    <IndexTable.Row id={String(shipment.id)} key={shipment.id} position={index} onClick={() => navigate(`/app/orders/${legacyIdOf(shipment.orderGid)}/ship`)}>
                      <IndexTable.Cell>
                        <Text as="span" fontWeight="semibold">
                          {shipment.orderName}
                        </Text>
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
