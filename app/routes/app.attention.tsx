import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect } from "react";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Divider, EmptyState, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { attentionTone, DISMISSABLE_KINDS, FIXED_IN_SHOPIFY_KINDS, ORDER_DISMISSABLE_KINDS } from "~/attention/attention-kinds";
import { attentionInWords, type ProblemSaying } from "~/attention/attention-words";
import { jobLabelInWords, jobSubjectInWords } from "~/jobs/job-words";
import { dismissOrder, restoreDismissedOrder } from "~/orders/order-records.server";
import { shopifyOrderAdminUrl } from "~/shopify/admin-links";
import { problemInWords } from "~/shopify/readiness-checks";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { countAwaitingDecision } from "~/failed-deliveries/desk.server";
import { failingNdrEmail } from "~/failed-deliveries/ndr-email.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { listNeedsAttention, markReturnInspected } from "~/attention/needs-attention.server";
import { clearShipmentAttention } from "~/shipments/shipment-changes.server";
import { legacyIdOf } from "~/booking/overrides";
import { formatDate } from "~/components/formatting";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { adminStrings, fill, plural, type AdminStrings } from "~/locales/admin-language";
import { enqueue, retryFailedJob } from "~/jobs/job-queue.server";
import { markDataRequestAnswered } from "~/privacy/data-requests.server";
import { authenticate } from "~/shopify.server";
import { rowIdOf } from "~/security/row-id";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const shop = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  const [attention, failedDeliveries, ndrEmail] = await Promise.all([listNeedsAttention(session.shop, new Date(), shop.ianaTimezone), countAwaitingDecision(session.shop), failingNdrEmail(session.shop)]);
  return json({ ...attention, failedDeliveries, ndrEmail, timeZone: shop.ianaTimezone, shopDomain: session.shop });
};

type Outcome = keyof AdminStrings["attention"]["outcomes"];

/**
 * What an action did, by name: the page words it in the admin's language, which only the layout knows (the frame's
 * first address carries `locale`, a post does not); `message` says it in English for any other caller.
 */
interface Answer {
  ok: boolean;
  outcome: Outcome;
  message: string;
  /** The order named in the outcome. */
  order?: string;
  /** A dismissed order, to take back. */
  undoOrderGid?: string;
}

const answer = (ok: boolean, outcome: Outcome, status: number, extra: Pick<Answer, "order" | "undoOrderGid"> = {}) =>
  json<Answer>({ ok, outcome, message: fill(adminStrings("en").attention.outcomes[outcome], { order: extra.order ?? "" }), ...extra }, { status });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  if (form.get("intent") === "dismiss") {
    const shipmentId = rowIdOf(form.get("shipmentId"));
    if (shipmentId === null) return answer(false, "dismissWhich", 400);
    const cleared = await clearShipmentAttention(session.shop, shipmentId);
    return cleared ? answer(true, "dismissed", 200) : answer(false, "alreadyDealtWith", 404);
  }
  if (form.get("intent") === "dismiss-order" || form.get("intent") === "restore-order") {
    const orderGid = String(form.get("orderGid") ?? "").slice(0, 100);
    if (!/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(orderGid)) return answer(false, "orderWhich", 400);
    if (form.get("intent") === "restore-order") {
      const restored = await restoreDismissedOrder(session.shop, orderGid);
      // Checked again, so the shop's rules take it as they would have had it never been set aside.
      if (restored) await enqueue("order-check", { shop: session.shop, orderGid });
      return restored ? answer(true, "restored", 200) : answer(false, "notDismissed", 404);
    }
    const dismissed = await dismissOrder(session.shop, orderGid, new Date());
    if (!dismissed) return answer(false, "cannotDismiss", 404);
    return answer(true, "orderDismissed", 200, { order: dismissed.orderName, undoOrderGid: orderGid });
  }
  if (form.get("intent") === "inspected") {
    const returnGid = String(form.get("returnGid") ?? "").slice(0, 100);
    if (!/^gid:\/\/shopify\/Return\/\d{1,20}$/.test(returnGid)) return answer(false, "returnWhich", 400);
    const marked = await markReturnInspected(session.shop, returnGid);
    return marked ? answer(true, "inspected", 200) : answer(false, "alreadyInspected", 404);
  }
  if (form.get("intent") === "answered") {
    const requestId = rowIdOf(form.get("dataRequestId"));
    if (requestId === null) return answer(false, "requestWhich", 400);
    const marked = await markDataRequestAnswered(session.shop, requestId);
    return marked ? answer(true, "answered", 200) : answer(false, "alreadyAnswered", 404);
  }
  const retried = await retryFailedJob(session.shop, String(form.get("queue") ?? "").slice(0, 100), String(form.get("jobId") ?? "").slice(0, 100));
  return retried ? answer(true, "retried", 200) : answer(false, "notRetrying", 404);
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
  const { items, failedJobs, dataRequests, failedDeliveries, ndrEmail, timeZone, shopDomain } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const strings = useAdminStrings();
  const t = strings.attention;
  const language = useAdminLanguage();
  const wordProblem: ProblemSaying = (problem) => problemInWords(problem, language);
  const shopify = useAppBridge();
  const submit = useSubmit();
  const resultText = result ? fill(t.outcomes[result.outcome], { order: result.order ?? "" }) : "";
  const undoOrderGid = result?.undoOrderGid ?? null;
  const undo = undoOrderGid ? () => submit({ intent: "restore-order", orderGid: undoOrderGid }, { method: "post" }) : null;
  useEffect(() => {
    if (!result?.ok) return;
    // A dismissed order can be taken back from the toast, or from the banner once the toast is gone.
    if (undoOrderGid) shopify.toast.show(resultText, { action: t.undo, onAction: () => submit({ intent: "restore-order", orderGid: undoOrderGid }, { method: "post" }) });
    else shopify.toast.show(resultText);
  }, [result, resultText, t.undo, shopify, undoOrderGid, submit]);
  const navigation = useNavigation();
  const retrying = navigation.state === "submitting" ? navigation.formData?.get("jobId") : null;
  const dismissing = navigation.state === "submitting" ? navigation.formData?.get("shipmentId") : null;
  const dismissingOrder = navigation.state === "submitting" && navigation.formData?.get("intent") === "dismiss-order" ? navigation.formData.get("orderGid") : null;
  const answering = navigation.state === "submitting" ? navigation.formData?.get("dataRequestId") : null;
  const empty = items.length === 0 && failedJobs.length === 0 && dataRequests.length === 0;
  return (
    <Page title={strings.pages.needsAttention}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? (
              <Banner tone={result.ok ? "success" : "warning"} action={undo ? { content: t.undo, onAction: undo } : undefined}>
                {resultText}
              </Banner>
            ) : null}
            {ndrEmail ? (
              <Banner tone="critical" action={{ content: strings.ndrEmail.attention.open, url: "/app/failed-deliveries/email" }}>
                {fill(strings.ndrEmail.attention.failing, { day: ndrEmail.day, reason: fill(strings.ndrEmail.smtp[ndrEmail.kind], { host: ndrEmail.host, port: ndrEmail.port }) })}
              </Banner>
            ) : null}
            {failedDeliveries > 0 ? (
              <Banner tone="warning" action={{ content: t.failedDeliveries.open, url: "/app/failed-deliveries" }}>
                {plural(language, t.failedDeliveries.waiting, failedDeliveries)}
              </Banner>
            ) : null}
            {empty ? (
              <Card>
                <EmptyState heading={t.empty.heading} image="" action={{ content: t.empty.ordersToShip, url: "/app/orders" }}>
                  <p>{t.empty.text}</p>
                </EmptyState>
              </Card>
            ) : null}
            {items.length > 0 ? (
              <Card>
                <BlockStack gap="400" as="ul">
                  {items.map((item, index) => {
                    const said = attentionInWords(item.note, language, wordProblem);
                    return (
                      <BlockStack gap="400" as="li" key={`${item.kind}-${item.returnGid ?? item.orderGid}`}>
                        {index > 0 ? <Divider /> : null}
                        <BlockStack gap="100">
                          <InlineStack gap="200">
                            <Text as="span" fontWeight="semibold">
                              {item.orderName || t.items.order}
                            </Text>
                            <Badge tone={attentionTone(item.kind)}>{t.kinds[item.kind]}</Badge>
                            {item.returnGid ? <Badge tone="info">{t.items.return}</Badge> : null}
                          </InlineStack>
                          <Text as="p">{said.message}</Text>
                          <Text as="p" tone="subdued">
                            {said.action} · {formatDate(item.at, timeZone, language)}
                          </Text>
                          <InlineStack gap="200">
                            {FIXED_IN_SHOPIFY_KINDS.includes(item.kind) && shopifyOrderAdminUrl(shopDomain, legacyIdOf(item.orderGid)) ? (
                              <Button size="slim" variant="primary" url={shopifyOrderAdminUrl(shopDomain, legacyIdOf(item.orderGid))!} target="_top">
                                {fill(t.items.editInShopify, { order: item.orderName })}
                              </Button>
                            ) : null}
                            <Button size="slim" url={`/app/orders/${legacyIdOf(item.orderGid)}/ship`}>
                              {fill(t.items.open, { order: item.orderName })}
                            </Button>
                            {item.shipmentId !== undefined && DISMISSABLE_KINDS.includes(item.kind) ? (
                              <Form method="post">
                                <input type="hidden" name="intent" value="dismiss" />
                                <input type="hidden" name="shipmentId" value={item.shipmentId} />
                                <Button
                                  submit
                                  size="slim"
                                  loading={dismissing === String(item.shipmentId)}
                                  accessibilityLabel={fill(t.items.dismissFlagLabel, { kind: t.kinds[item.kind], order: item.orderName })}
                                >
                                  {t.items.dismiss}
                                </Button>
                              </Form>
                            ) : null}
                            {ORDER_DISMISSABLE_KINDS.includes(item.kind) && !item.returnGid ? (
                              <Form method="post">
                                <input type="hidden" name="intent" value="dismiss-order" />
                                <input type="hidden" name="orderGid" value={item.orderGid} />
                                <Button submit size="slim" loading={dismissingOrder === item.orderGid} accessibilityLabel={fill(t.items.dismissOrderLabel, { order: item.orderName })}>
                                  {t.items.dismiss}
                                </Button>
                              </Form>
                            ) : null}
                            {item.kind === "return_received" && item.returnGid ? (
                              <Form method="post">
                                <input type="hidden" name="intent" value="inspected" />
                                <input type="hidden" name="returnGid" value={item.returnGid} />
                                <Button submit size="slim" accessibilityLabel={fill(t.items.markInspectedLabel, { order: item.orderName })}>
                                  {t.items.markInspected}
                                </Button>
                              </Form>
                            ) : null}
                          </InlineStack>
                        </BlockStack>
                      </BlockStack>
                    );
                  })}
                </BlockStack>
              </Card>
            ) : null}
            {dataRequests.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.dataRequests.heading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t.dataRequests.intro}
                  </Text>
                  {dataRequests.map((request) => (
                    <InlineStack key={request.id} align="space-between" blockAlign="center" gap="300">
                      <Text as="p">
                        {plural(language, t.dataRequests.line, request.orders, { customer: request.customerId || t.dataRequests.noId, date: formatDate(request.requestedAt, timeZone, language) })}
                      </Text>
                      <InlineStack gap="200">
                        <Button size="slim" onClick={() => downloadDataRequest(request.id)} accessibilityLabel={fill(t.dataRequests.downloadLabel, { customer: request.customerId })}>
                          {t.dataRequests.download}
                        </Button>
                        <Form method="post">
                          <input type="hidden" name="intent" value="answered" />
                          <input type="hidden" name="dataRequestId" value={request.id} />
                          <Button submit size="slim" loading={answering === String(request.id)} accessibilityLabel={fill(t.dataRequests.markAnsweredLabel, { customer: request.customerId })}>
                            {t.dataRequests.markAnswered}
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
                    {t.failedJobs.heading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t.failedJobs.intro}
                  </Text>
                  {failedJobs.map((job) => (
                    <InlineStack key={job.id} align="space-between" blockAlign="center" gap="300">
                      <BlockStack gap="050">
                        <Text as="p" fontWeight="semibold">
                          {jobLabelInWords(job.queue, language)} ({jobSubjectInWords(job.about, language)})
                        </Text>
                        <Text as="p" tone="subdued">
                          {plural(language, t.failedJobs.details, job.attempts, { reason: job.reason, date: formatDate(job.failedAt, timeZone, language) })}
                        </Text>
                      </BlockStack>
                      <Form method="post">
                        <input type="hidden" name="queue" value={job.queue} />
                        <input type="hidden" name="jobId" value={job.id} />
                        <Button submit loading={retrying === job.id} accessibilityLabel={fill(t.failedJobs.retryLabel, { job: jobLabelInWords(job.queue, language), subject: jobSubjectInWords(job.about, language) })}>
                          {t.failedJobs.retry}
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
