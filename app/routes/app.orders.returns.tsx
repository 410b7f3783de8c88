import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, EmptyState, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { FormSaveBar } from "~/components/FormSaveBar";
import { formatDate } from "~/components/formatting";
import { requestOrderReconcile } from "~/orders/intake.server";
import { bookPickupByMerchant, listReturns, saveReturnSettings } from "~/returns/returns-view.server";
import { RETURN_RULES, type ReturnRule } from "~/returns/return-settings";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";

/**
 * Orders to ship → Returns: the shop's returns as Dakiya recorded them (no Shopify call), their pickups, a Book
 * pickup button for those waiting on the merchant, and the return settings that decide the rest.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json(await listReturns(session.shop));
};

type ActionData = { ok: boolean; message: string; errors?: Record<string, string> };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "settings") {
    const saved = await saveReturnSettings(session.shop, form);
    return saved.ok
      ? json<ActionData>({ ok: true, message: "Return settings saved." })
      : json<ActionData>({ ok: false, message: "Fix the return settings below; nothing was saved.", errors: saved.errors }, { status: 422 });
  }
  if (intent === "check") {
    await requestOrderReconcile(session.shop, { onlyIfNeverDone: false });
    return json<ActionData>({ ok: true, message: "Checking Shopify for new returns: they appear here in a minute." });
  }
  if (intent === "book") {
    const courier = Number(form.get("courierId") ?? "");
    const result = await whenShopifyAnswers(() => bookPickupByMerchant(session.shop, shopAdmin(session.shop, shopify), String(form.get("returnGid") ?? "").slice(0, 100), Number.isSafeInteger(courier) && courier > 0 ? courier : null));
    return json<ActionData>({ ok: result.ok, message: result.message }, { status: result.ok ? 200 : result.status });
  }
  return json<ActionData>({ ok: false, message: "Say what to do: intent settings, check or book." }, { status: 400 });
};

const RULE_LABELS: Record<ReturnRule, string> = {
  hold: "Hold every pickup for me to book",
  cheapest: "Book the cheapest courier at once",
  courier: "Book a courier I choose at once",
};

const STATUS_BADGES: Record<string, { label: string; tone?: "attention" | "success" | "info" | "critical" }> = {
  REQUESTED: { label: "Awaiting your approval", tone: "attention" },
  OPEN: { label: "Open", tone: "info" },
  DECLINED: { label: "Declined" },
  CANCELED: { label: "Cancelled" },
  CLOSED: { label: "Closed", tone: "success" },
};

export default function ReturnsView() {
  const { rows, settings, courierNames } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [rule, setRule] = useState<string>(settings.rule);
  const [courierId, setCourierId] = useState<string>(settings.courierId ? String(settings.courierId) : "");
  const [notify, setNotify] = useState<boolean>(settings.notifyCustomer);
  const [disposition, setDisposition] = useState<string>(settings.disposition);
  const [holdFrom, setHoldFrom] = useState<string>(settings.holdFromPaise === null ? "" : String(settings.holdFromPaise / 100));
  const [holdPincodes, setHoldPincodes] = useState<string>(settings.holdPincodes.join(", "));
  const savedHoldFrom = settings.holdFromPaise === null ? "" : String(settings.holdFromPaise / 100);
  const changed =
    rule !== settings.rule ||
    courierId !== (settings.courierId ? String(settings.courierId) : "") ||
    notify !== settings.notifyCustomer ||
    disposition !== settings.disposition ||
    holdFrom !== savedHoldFrom ||
    holdPincodes !== settings.holdPincodes.join(", ");
  const discard = () => {
    setRule(settings.rule);
    setCourierId(settings.courierId ? String(settings.courierId) : "");
    setNotify(settings.notifyCustomer);
    setDisposition(settings.disposition);
    setHoldFrom(savedHoldFrom);
    setHoldPincodes(settings.holdPincodes.join(", "));
  };
  const busy = (intent: string, returnGid?: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && (!returnGid || navigation.formData?.get("returnGid") === returnGid);
  const courierOptions = Object.entries(courierNames).map(([id, name]) => ({ label: name, value: id }));
  const save = () =>
    submit(
      { intent: "settings", returnRule: rule, returnCourierId: courierId, returnDisposition: disposition, returnHoldFrom: holdFrom, returnHoldPincodes: holdPincodes, ...(notify ? { returnNotifyCustomer: "on" } : {}) },
      { method: "post" },
    );
  const book = (returnGid: string) => submit({ intent: "book", returnGid }, { method: "post" });

  return (
    <Page
      title="Returns"
      backAction={{ content: "Orders to ship", url: "/app/orders" }}
      primaryAction={{ content: "Check for new returns", onAction: () => submit({ intent: "check" }, { method: "post" }), loading: busy("check") }}
    >
      <FormSaveBar id="returns-save-bar" changed={changed} saving={busy("settings")} onSave={save} onDiscard={discard} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? <Banner tone={result.ok ? "success" : "warning"}>{result.message}</Banner> : null}
            {rows.length === 0 ? (
              <Card>
                <EmptyState heading="No returns yet" image="">
                  <p>When a shopper asks to return something and you approve it in Shopify, its pickup appears here.</p>
                </EmptyState>
              </Card>
            ) : (
              <Card>
                <BlockStack gap="400" as="ul">
                  {rows.map((row) => {
                    const badge = STATUS_BADGES[row.status] ?? { label: row.status };
                    const waiting = row.status === "OPEN" && !row.pickup && row.readiness === "ready";
                    return (
                      <BlockStack gap="100" as="li" key={row.returnGid}>
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span" fontWeight="semibold">
                            {row.returnName || "Return"}
                          </Text>
                          <Badge tone="info">Return</Badge>
                          <Badge tone={badge.tone}>{badge.label}</Badge>
                          {row.pickup ? <Badge>{row.pickup.statusLabel}</Badge> : null}
                        </InlineStack>
                        <Text as="p" tone="subdued">
                          {[row.requestedAt ? `Asked ${formatDate(row.requestedAt)}` : null, row.pincode ? `Pickup from ${row.pincode}` : null, row.weightGrams ? `${row.weightGrams} g` : null]
                            .filter(Boolean)
                            .join(" · ")}
                        </Text>
                        {row.pickup ? (
                          <Text as="p">
                            {row.pickup.courierName ?? "Courier"} · awb {row.pickup.awb ?? "pending"}
                          </Text>
                        ) : null}
                        {row.problems.map((problem) => (
                          <Text as="p" key={problem.label} tone="critical">
                            {problem.message} {problem.fix}
                          </Text>
                        ))}
                        {!row.pickup && row.decisionReason && row.problems.length === 0 ? <Text as="p">{row.decisionReason}</Text> : null}
                        {waiting ? (
                          <InlineStack>
                            <Button size="slim" variant="primary" loading={busy("book", row.returnGid)} onClick={() => book(row.returnGid)} accessibilityLabel={`Book the pickup of ${row.returnName}`}>
                              Book pickup
                            </Button>
                          </InlineStack>
                        ) : null}
                      </BlockStack>
                    );
                  })}
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Return settings
              </Text>
              <Select label="When a return opens" options={RETURN_RULES.map((value) => ({ label: RULE_LABELS[value], value }))} value={rule} onChange={setRule} error={result?.errors?.returnRule} />
              {rule === "courier" ? (
                <Select label="Courier" options={[{ label: "Choose a courier", value: "" }, ...courierOptions]} value={courierId} onChange={setCourierId} error={result?.errors?.returnCourierId} />
              ) : null}
              <TextField
                label="Hold returns worth at least (₹)"
                type="number"
                autoComplete="off"
                value={holdFrom}
                onChange={setHoldFrom}
                error={result?.errors?.returnHoldFrom}
                helpText="Leave empty to hold none for their value."
              />
              <TextField
                label="Hold pickups from PIN codes starting"
                autoComplete="off"
                value={holdPincodes}
                onChange={setHoldPincodes}
                error={result?.errors?.returnHoldPincodes}
                helpText="Prefixes separated by commas, e.g. 400, 560"
              />
              <Checkbox label="Shopify e-mails the shopper the pickup's tracking" checked={notify} onChange={setNotify} />
              <InlineGrid columns={1}>
                <Select
                  label="When a return reaches the warehouse"
                  options={[
                    { label: "Leave the items for inspection", value: "inspect" },
                    { label: "Restock the items at the location", value: "restock" },
                  ]}
                  value={disposition}
                  onChange={setDisposition}
                  error={result?.errors?.returnDisposition}
                  helpText="Dakiya never refunds: refund the shopper in Shopify once you accept the return."
                />
              </InlineGrid>
              <InlineStack>
                <Button onClick={save} loading={busy("settings")}>
                  Save return settings
                </Button>
              </InlineStack>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
