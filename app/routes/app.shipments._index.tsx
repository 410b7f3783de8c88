import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Badge, Card, EmptyState, IndexTable, Layout, Link, Page, Select, Text, BlockStack, InlineStack } from "@shopify/polaris";
import prisma from "~/db.server";
import { SHIPMENT_STATUS } from "~/booking/book-order.server";
import { legacyIdOf } from "~/booking/overrides";
import { formatDate, formatPaise, SHIPMENT_STATUS_LABEL } from "~/components/formatting";
import { authenticate } from "~/shopify.server";

const STATUSES = Object.values(SHIPMENT_STATUS) as string[];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const status = new URL(request.url).searchParams.get("status");
  const filter = status && STATUSES.includes(status) ? status : null;
  const shipments = await prisma.shipment.findMany({
    where: { shop: session.shop, ...(filter ? { status: filter } : {}) },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: { id: true, orderGid: true, orderName: true, status: true, awb: true, courierName: true, totalChargesPaise: true, trackingUrl: true, lastError: true, createdAt: true },
  });
  return json({ shipments, filter });
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
                options={[{ label: "All", value: "" }, ...STATUSES.map((status) => ({ label: SHIPMENT_STATUS_LABEL[status]?.label ?? status, value: status }))]}
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
                  headings={[{ title: "Order" }, { title: "Booked" }, { title: "Courier" }, { title: "AWB" }, { title: "Charges", alignment: "end" }, { title: "Status" }]}
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
                        {shipment.awb && shipment.trackingUrl ? (
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
                          <Badge tone={SHIPMENT_STATUS_LABEL[shipment.status]?.tone}>{SHIPMENT_STATUS_LABEL[shipment.status]?.label ?? shipment.status}</Badge>
                          {shipment.lastError ? (
                            <Text as="span" tone="subdued" variant="bodySm">
                              {shipment.lastError}
                            </Text>
                          ) : null}
                        </BlockStack>
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
