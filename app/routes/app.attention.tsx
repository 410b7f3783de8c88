import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect } from "react";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Divider, EmptyState, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { ATTENTION_LABELS, attentionTone, DISMISSABLE_KINDS, FIXED_IN_SHOPIFY_KINDS, ORDER_DISMISSABLE_KINDS } from "~/attention/attention-kinds";
import { dismissOrder, restoreDismissedOrder } from "~/orders/order-records.server";
import { shopifyOrderAdminUrl } from "~/shopify/admin-links";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { listNeedsAttention, markReturnInspected } from "~/attention/needs-attention.server";
import { clearShipmentAttention } from "~/shipments/shipment-changes.server";
import { legacyIdOf } from "~/booking/overrides";
import { formatDate } from "~/components/formatting";
import { enqueue, retryFailedJob } from "~/jobs/job-queue.server";
import { markDataRequestAnswered } from "~/privacy/data-requests.server";
import { authenticate } from "~/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const shop = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  return json({ ...(await listNeedsAttention(session.shop, new Date(), shop.ianaTimezone)), timeZone: shop.ianaTimezone, shopDomain: session.shop });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  if (form.get("intent") === "dismiss") {
    const shipmentId = Number(form.get("shipmentId"));
    if (!Number.isSafeInteger(shipmentId) || shipmentId <= 0)
      return json(
        {
          ok: false,
          message: "Say which shipment to dismiss (shipmentId, a whole number).",
        },
        { status: 400 }
      );
    const cleared = await clearShipmentAttention(session.shop, shipmentId);
    return json(cleared ? { ok: true, message: "Dismissed." } : { ok: false, message: "That item was already dealt with." }, { status: cleared ? 200 : 404 });
  }
  if (form.get("intent") === "dismiss-order" || form.get("intent") === "restore-order") {
    const orderGid = String(form.get("orderGid") ?? "").slice(0, 100);
    if (!/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(orderGid)) return json({ ok: false, message: "Say which order (orderGid, a Shopify order id)." }, { status: 400 });
    if (form.get("intent") === "restore-order") {
      const restored = await restoreDismissedOrder(session.shop, orderGid);
      // Checked again, so the shop's rules take it as they would have had it never been set aside.
      if (restored) await enqueue("order-check", { shop: session.shop, orderGid });
      return json(restored ? { ok: true, message: "Restored: the order is listed again." } : { ok: false, message: "That order is not dismissed." }, { status: restored ? 200 : 404 });
    }
    const dismissed = await dismissOrder(session.shop, orderGid, new Date());
    if (!dismissed) return json({ ok: false, message: "That order is already dismissed, booked or no longer to ship." }, { status: 404 });
    return json({ ok: true, message: `${dismissed.orderName} dismissed: it is no longer listed to ship.`, undoOrderGid: orderGid });
  }
  if (form.get("intent") === "inspected") {
    const returnGid = String(form.get("returnGid") ?? "").slice(0, 100);
    if (!/^gid:\/\/shopify\/Return\/\d{1,20}$/.test(returnGid)) return json({ ok: false, message: "Say which return was inspected (returnGid, a Shopify return id)." }, { status: 400 });
    const marked = await markReturnInspected(session.shop, returnGid);
    return json(marked ? { ok: true, message: "Marked inspected." } : { ok: false, message: "That return was already marked inspected." }, { status: marked ? 200 : 404 });
  }
  if (form.get("intent") === "answered") {
    const requestId = Number(form.get("dataRequestId"));
    if (!Number.isSafeInteger(requestId) || requestId <= 0) return json({ ok: false, message: "Say which data request was answered (dataRequestId, a whole number)." }, { status: 400 });
    const marked = await markDataRequestAnswered(session.shop, requestId);
    return json(marked ? { ok: true, message: "Marked answered." } : { ok: false, message: "That request was already answered." }, { status: marked ? 200 : 404 });
  }
  const retried = await retryFailedJob(session.shop, String(form.get("queue") ?? "").slice(0, 100), String(form.get("jobId") ?? "").slice(0, 100));
  return json(
    retried ? { ok: true, message: "Queued again: Dakiya is retrying it now." } : { ok: false, message: "That work is no longer waiting for a retry." },
    { status: retried ? 200 : 404 }
  );
};

/**
 * Fetched rather than followed: inside the admin, App Bridge's fetch carries the session token the download route
 * requires, which a plain link would not.
 */
async function downloadDataRequest(id: number): Promise<void> {
  const response = await fetch(`/app/data-requests/${id}`);
  if (!response.ok) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `dakiya-data-request-${id}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

export default function NeedsAttentionPage() {
  const { items, failedJobs, dataRequests, timeZone, shopDomain } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shopify = useAppBridge();
  const submit = useSubmit();
  const undoOrderGid = result && "undoOrderGid" in result && typeof result.undoOrderGid === "string" ? result.undoOrderGid : null;
  const undo = undoOrderGid ? () => submit({ intent: "restore-order", orderGid: undoOrderGid }, { method: "post" }) : null;
  useEffect(() => {
    if (!result?.ok) return;
    // A dismissed order can be taken back from the toast, or from the banner once the toast is gone.
    if (undoOrderGid) shopify.toast.show(result.message, { action: "Undo", onAction: () => submit({ intent: "restore-order", orderGid: undoOrderGid }, { method: "post" }) });
    else shopify.toast.show(result.message);
  }, [result, shopify, undoOrderGid, submit]);
  const navigation = useNavigation();
  const retrying = navigation.state === "submitting" ? navigation.formData?.get("jobId") : null;
  const dismissing = navigation.state === "submitting" ? navigation.formData?.get("shipmentId") : null;
  const dismissingOrder = navigation.state === "submitting" && navigation.formData?.get("intent") === "dismiss-order" ? navigation.formData.get("orderGid") : null;
  const answering = navigation.state === "submitting" ? navigation.formData?.get("dataRequestId") : null;
  const empty = items.length === 0 && failedJobs.length === 0 && dataRequests.length === 0;
  return (
    <Page title="Needs attention">
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? (
              <Banner tone={result.ok ? "success" : "warning"} action={undo ? { content: "Undo", onAction: undo } : undefined}>
                {result.message}
              </Banner>
            ) : null}
            {empty ? (
              <Card>
                <EmptyState heading="Nothing needs you" image="" action={{ content: "Orders to ship", url: "/app/orders" }}>
                  <p>Orders that need a fix, failed bookings and stuck background work show up here.</p>
                </EmptyState>
              </Card>
            ) : null}
            {items.length > 0 ? (
              <Card>
                <BlockStack gap="400" as="ul">
                  {items.map((item, index) => (
                    <BlockStack gap="400" as="li" key={`${item.kind}-${item.returnGid ?? item.orderGid}`}>
                      {index > 0 ? <Divider /> : null}
                      <BlockStack gap="100">
                        <InlineStack gap="200">
                          <Text as="span" fontWeight="semibold">
                            {item.orderName || "Order"}
                          </Text>
                          <Badge tone={attentionTone(item.kind)}>{ATTENTION_LABELS[item.kind]}</Badge>
                          {item.returnGid ? <Badge tone="info">Return</Badge> : null}
                        </InlineStack>
                        <Text as="p">{item.message}</Text>
                        <Text as="p" tone="subdued">
                          {item.action} · {formatDate(item.at, timeZone)}
                        </Text>
                        <InlineStack gap="200">
                          {FIXED_IN_SHOPIFY_KINDS.includes(item.kind) && shopifyOrderAdminUrl(shopDomain, legacyIdOf(item.orderGid)) ? (
                            <Button size="slim" variant="primary" url={shopifyOrderAdminUrl(shopDomain, legacyIdOf(item.orderGid))!} target="_top">
                              {`Edit ${item.orderName} in Shopify`}
                            </Button>
                          ) : null}
                          <Button size="slim" url={`/app/orders/${legacyIdOf(item.orderGid)}/ship`}>
                            {`Open ${item.orderName}`}
                          </Button>
                          {item.shipmentId !== undefined && DISMISSABLE_KINDS.includes(item.kind) ? (
                            <Form method="post">
                              <input type="hidden" name="intent" value="dismiss" />
                              <input type="hidden" name="shipmentId" value={item.shipmentId} />
                              <Button
                                submit
                                size="slim"
                                loading={dismissing === String(item.shipmentId)}
                                accessibilityLabel={`Dismiss ${ATTENTION_LABELS[item.kind]} for ${item.orderName}`}
                              >
                                Dismiss
                              </Button>
                            </Form>
                          ) : null}
                          {ORDER_DISMISSABLE_KINDS.includes(item.kind) && !item.returnGid ? (
                            <Form method="post">
                              <input type="hidden" name="intent" value="dismiss-order" />
                              <input type="hidden" name="orderGid" value={item.orderGid} />
                              <Button submit size="slim" loading={dismissingOrder === item.orderGid} accessibilityLabel={`Dismiss ${item.orderName}: it will not ship with Dakiya`}>
                                Dismiss
                              </Button>
                            </Form>
                          ) : null}
                          {item.kind === "return_received" && item.returnGid ? (
                            <Form method="post">
                              <input type="hidden" name="intent" value="inspected" />
                              <input type="hidden" name="returnGid" value={item.returnGid} />
                              <Button submit size="slim" accessibilityLabel={`Mark ${item.orderName} inspected`}>
                                Mark inspected
                              </Button>
                            </Form>
                          ) : null}
                        </InlineStack>
                      </BlockStack>
                    </BlockStack>
                  ))}
                </BlockStack>
              </Card>
            ) : null}
            {dataRequests.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Customers asking for their data
                  </Text>
                  <Text as="p" tone="subdued">
                    Shopify passed on these requests. Download what Dakiya holds for the orders named, send it to the customer with what Shopify shows,
                    then mark the request answered.
                  </Text>
                  {dataRequests.map((request) => (
                    <InlineStack key={request.id} align="space-between" blockAlign="center" gap="300">
                      <Text as="p">
                        Customer {request.customerId || "(no id)"} · {request.orders} {request.orders === 1 ? "order" : "orders"} · asked {formatDate(request.requestedAt, timeZone)}
                      </Text>
                      <InlineStack gap="200">
                        <Button size="slim" onClick={() => downloadDataRequest(request.id)} accessibilityLabel={`Download the data for customer ${request.customerId}`}>
                          Download
                        </Button>
                        <Form method="post">
                          <input type="hidden" name="intent" value="answered" />
                          <input type="hidden" name="dataRequestId" value={request.id} />
                          <Button submit size="slim" loading={answering === String(request.id)} accessibilityLabel={`Mark the request of customer ${request.customerId} answered`}>
                            Mark answered
                          </Button>
                        </Form>
                      </InlineStack>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Card>
            ) : null}
            {failedJobs.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Background work that needs you
                  </Text>
                  <Text as="p" tone="subdued">
                    Dakiya tried these several times over hours and gave up. Fix the cause (reconnect the courier account, check the order in Shopify), then
                    retry.
                  </Text>
                  {failedJobs.map((job) => (
                    <InlineStack key={job.id} align="space-between" blockAlign="center" gap="300">
                      <BlockStack gap="050">
                        <Text as="p" fontWeight="semibold">
                          {job.label} ({job.subject})
                        </Text>
                        <Text as="p" tone="subdued">
                          {job.reason} · {job.attempts} attempts · last {formatDate(job.failedAt, timeZone)}
                        </Text>
                      </BlockStack>
                      <Form method="post">
                        <input type="hidden" name="queue" value={job.queue} />
                        <input type="hidden" name="jobId" value={job.id} />
                        <Button submit loading={retrying === job.id} accessibilityLabel={`Retry ${job.label} for ${job.subject}`}>
                          Retry
                        </Button>
                      </Form>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Card>
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
