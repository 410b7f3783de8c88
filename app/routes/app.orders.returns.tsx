import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, EmptyState, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { FormSaveBar } from "~/components/FormSaveBar";
import { formatDate } from "~/components/formatting";
import { requestOrderReconcile } from "~/orders/intake.server";
import { EMPTY_RETURN_RULE_DRAFT, returnRuleDraftOf, returnRuleFieldKey, type ReturnRuleDraft } from "~/returns/return-rule-drafts";
import { previewReturnRulesForm, type PreviewedReturn, type ReturnRulesPreview } from "~/returns/return-rules-preview.server";
import { bookPickupByMerchant, listReturns, saveReturnSettings } from "~/returns/returns-view.server";
import { RETURN_RULE_ACTION_LABELS, RETURN_RULES, type ReturnRuleAction } from "~/returns/return-settings";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";

/**
 * Orders to ship → Returns: the shop's returns as Dakiya recorded them (no Shopify call), their pickups, a Book
 * pickup button for those waiting on the merchant, and the return rules (first match wins, else the default) that
 * decide the rest.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const page = await listReturns(session.shop);
  return json({ ...page, ruleDrafts: page.settings.rules.map(returnRuleDraftOf) });
};

/** The form fields a preview was made of: it is shown only while the page's drafts still equal them. */
type PreviewedForm = { returnRules: string; returnRule: string; returnCourierId: string };
type ActionData = { ok: boolean; message: string; errors?: Record<string, string>; preview?: ReturnRulesPreview; previewedForm?: PreviewedForm };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "settings") {
    const saved = await saveReturnSettings(session.shop, form);
    return saved.ok
      ? json<ActionData>({ ok: true, message: "Return rules saved." })
      : json<ActionData>({ ok: false, message: "Fix the return rules below; nothing was saved.", errors: saved.errors }, { status: 422 });
  }
  if (intent === "preview") {
    const previewed = await previewReturnRulesForm(session.shop, form);
    if (!previewed.ok) return json<ActionData>({ ok: false, message: "Fix the return rules below to preview them; nothing was saved.", errors: previewed.errors }, { status: 422 });
    const previewedForm = { returnRules: String(form.get("returnRules") ?? "[]"), returnRule: String(form.get("returnRule") ?? ""), returnCourierId: String(form.get("returnCourierId") ?? "") };
    const looked = previewed.preview.looked;
    const message = looked === 0 ? "Dakiya has recorded no returns yet: nothing to preview on." : `Previewed on the ${looked === 1 ? "most recent return" : `${looked} most recent returns`}; nothing was saved.`;
    return json<ActionData>({ ok: true, message, preview: previewed.preview, previewedForm });
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
  return json<ActionData>({ ok: false, message: "Say what to do: intent settings, preview, check or book." }, { status: 400 });
};

/** The id of a rule's "Move up" (-1) or "Move down" (1) button, for the focus to follow a moved rule. */
const moveButtonId = (index: number, by: -1 | 1) => `return-rule-${index}-move-${by === -1 ? "up" : "down"}`;

const ACTION_OPTIONS = RETURN_RULES.map((value: ReturnRuleAction) => ({ label: RETURN_RULE_ACTION_LABELS[value], value }));

/** "#1001-R1, #1002-R1 and 3 more": a preview's returns, named up to a handful. */
const listed = (names: readonly string[], shown = 8) => (names.length <= shown ? names.join(", ") : `${names.slice(0, shown).join(", ")} and ${names.length - shown} more`);
const namesOf = (returns: readonly PreviewedReturn[]) => listed(returns.map((ret) => ret.returnName));
const decidesInWords = (returns: readonly PreviewedReturn[]) =>
  returns.length === 0 ? "Would decide none of the recent returns." : `Would decide ${returns.length === 1 ? "1 recent return" : `${returns.length} recent returns`}: ${namesOf(returns)}.`;

const STATUS_BADGES: Record<string, { label: string; tone?: "attention" | "success" | "info" | "critical" }> = {
  REQUESTED: { label: "Awaiting your approval", tone: "attention" },
  OPEN: { label: "Open", tone: "info" },
  DECLINED: { label: "Declined" },
  CANCELED: { label: "Cancelled" },
  CLOSED: { label: "Closed", tone: "success" },
};

export default function ReturnsView() {
  const { rows, settings, courierNames, ruleDrafts } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [rule, setRule] = useState<string>(settings.rule);
  const [courierId, setCourierId] = useState<string>(settings.courierId ? String(settings.courierId) : "");
  const [notify, setNotify] = useState<boolean>(settings.notifyCustomer);
  const [disposition, setDisposition] = useState<string>(settings.disposition);
  const [rules, setRules] = useState<ReturnRuleDraft[]>(ruleDrafts);
  const editRule = (index: number, field: keyof ReturnRuleDraft) => (value: string) => setRules((current) => current.map((rule, at) => (at === index ? { ...rule, [field]: value } : rule)));
  // After a move, the keyboard's focus follows the moved rule to its new place (its other move button at either end).
  const [movedRule, setMovedRule] = useState<{ index: number; by: -1 | 1 } | null>(null);
  const moveRule = (index: number, by: -1 | 1) => {
    setRules((current) => {
      const next = [...current];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved!);
      return next;
    });
    setMovedRule({ index: index + by, by });
  };
  useEffect(() => {
    if (!movedRule) return;
    const { index, by } = movedRule;
    const atEnd = by === -1 ? index === 0 : index === rules.length - 1;
    const stillEnabled: -1 | 1 = atEnd ? (by === -1 ? 1 : -1) : by;
    document.getElementById(moveButtonId(index, stillEnabled))?.focus();
    setMovedRule(null);
  }, [movedRule, rules.length]);
  const removeRule = (index: number) => setRules((current) => current.filter((_, at) => at !== index));
  const ruleError = (index: number, field: keyof ReturnRuleDraft) => result?.errors?.[returnRuleFieldKey(index, field)];
  const changed =
    rule !== settings.rule ||
    courierId !== (settings.courierId ? String(settings.courierId) : "") ||
    notify !== settings.notifyCustomer ||
    disposition !== settings.disposition ||
    JSON.stringify(rules) !== JSON.stringify(ruleDrafts);
  const discard = () => {
    setRule(settings.rule);
    setCourierId(settings.courierId ? String(settings.courierId) : "");
    setNotify(settings.notifyCustomer);
    setDisposition(settings.disposition);
    setRules(ruleDrafts);
  };
  const busy = (intent: string, returnGid?: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && (!returnGid || navigation.formData?.get("returnGid") === returnGid);
  const courierOptions = Object.entries(courierNames).map(([id, name]) => ({ label: name, value: id }));
  const save = () =>
    submit(
      { intent: "settings", returnRule: rule, returnCourierId: courierId, returnDisposition: disposition, returnRules: JSON.stringify(rules), ...(notify ? { returnNotifyCustomer: "on" } : {}) },
      { method: "post" },
    );
  const book = (returnGid: string) => submit({ intent: "book", returnGid }, { method: "post" });
  // The rules as edited, not saved: the same fields as a save, so a preview refuses what a save would.
  const previewRules = () =>
    submit({ intent: "preview", returnRule: rule, returnCourierId: courierId, returnDisposition: disposition, returnRules: JSON.stringify(rules), ...(notify ? { returnNotifyCustomer: "on" } : {}) }, { method: "post" });
  const previewedForm = result?.previewedForm;
  const previewCurrent = previewedForm !== undefined && previewedForm.returnRules === JSON.stringify(rules) && previewedForm.returnRule === rule && previewedForm.returnCourierId === courierId;
  const preview = previewCurrent ? (result?.preview ?? null) : null;

  return (
    <Page
      title="Returns"
      backAction={{ content: "Orders to ship", url: "/app/orders" }}
      primaryAction={{ content: "Check for new returns", onAction: () => submit({ intent: "check" }, { method: "post" }), loading: busy("check") }}
      secondaryActions={[{ content: "Preview on recent returns", onAction: previewRules, loading: busy("preview") }]}
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
                Return rules
              </Text>
              <Text as="p" tone="subdued">
                Tried in order when a return opens: the first rule that matches decides its pickup.
              </Text>
              {result?.errors?.returnRules ? <Banner tone="critical">{result.errors.returnRules}</Banner> : null}
              <BlockStack gap="400" as="ol">
                {rules.map((draft, index) => {
                  const named = `Return rule ${index + 1}`;
                  return (
                    <BlockStack gap="200" as="li" key={index}>
                      <Text as="h3" variant="headingSm">
                        {named}
                      </Text>
                      <TextField label={`${named} name`} autoComplete="off" value={draft.name} onChange={editRule(index, "name")} error={ruleError(index, "name")} />
                      <TextField
                        label={`${named}: return reasons`}
                        autoComplete="off"
                        value={draft.reasons}
                        onChange={editRule(index, "reasons")}
                        error={ruleError(index, "reasons")}
                        helpText="Words of the shopper's reason, separated by commas, e.g. damaged, size. Empty matches any."
                      />
                      <InlineGrid columns={2} gap="200">
                        <TextField label={`${named}: value from (₹)`} type="number" autoComplete="off" value={draft.minValueRupees} onChange={editRule(index, "minValueRupees")} error={ruleError(index, "minValueRupees")} />
                        <TextField label={`${named}: value up to (₹)`} type="number" autoComplete="off" value={draft.maxValueRupees} onChange={editRule(index, "maxValueRupees")} error={ruleError(index, "maxValueRupees")} />
                      </InlineGrid>
                      <TextField
                        label={`${named}: pickup PIN codes starting`}
                        autoComplete="off"
                        value={draft.pincodePrefixes}
                        onChange={editRule(index, "pincodePrefixes")}
                        error={ruleError(index, "pincodePrefixes")}
                        helpText="Prefixes separated by commas, e.g. 400, 560"
                      />
                      <TextField label={`${named}: order tags`} autoComplete="off" value={draft.tags} onChange={editRule(index, "tags")} error={ruleError(index, "tags")} helpText="Any one of these tags, separated by commas" />
                      <Select label={`${named}: then`} options={ACTION_OPTIONS} value={draft.action} onChange={editRule(index, "action")} error={ruleError(index, "action")} />
                      {draft.action === "courier" ? (
                        <Select label={`${named}: courier`} options={[{ label: "Choose a courier", value: "" }, ...courierOptions]} value={draft.courierId} onChange={editRule(index, "courierId")} error={ruleError(index, "courierId")} />
                      ) : null}
                      {preview ? (
                        <Text as="p" tone="subdued">
                          {decidesInWords(preview.byRule[index] ?? [])}
                        </Text>
                      ) : null}
                      <InlineStack gap="200">
                        <Button id={moveButtonId(index, -1)} size="slim" disabled={index === 0} onClick={() => moveRule(index, -1)} accessibilityLabel={`Move ${named} up`}>
                          Move up
                        </Button>
                        <Button id={moveButtonId(index, 1)} size="slim" disabled={index === rules.length - 1} onClick={() => moveRule(index, 1)} accessibilityLabel={`Move ${named} down`}>
                          Move down
                        </Button>
                        <Button size="slim" tone="critical" variant="plain" onClick={() => removeRule(index)} accessibilityLabel={`Remove ${named}`}>
                          Remove
                        </Button>
                      </InlineStack>
                    </BlockStack>
                  );
                })}
              </BlockStack>
              <InlineStack>
                <Button onClick={() => setRules((current) => [...current, EMPTY_RETURN_RULE_DRAFT])} disabled={rules.length >= 20}>
                  Add return rule
                </Button>
              </InlineStack>
              <Select label="Any other return" options={ACTION_OPTIONS} value={rule} onChange={setRule} error={result?.errors?.returnRule} />
              {preview ? (
                <Text as="p" tone="subdued">
                  {preview.byDefault.length === 0 ? "No recent return falls to this setting." : `Would decide ${preview.byDefault.length === 1 ? "1 recent return" : `${preview.byDefault.length} recent returns`} no rule matches: ${namesOf(preview.byDefault)}.`}
                </Text>
              ) : null}
              {preview && preview.notBooked.length > 0 ? (
                <Text as="p" tone="subdued">
                  Not booked whatever the rules say: {listed(preview.notBooked.map((ret) => `${ret.returnName} (${ret.why})`))}.
                </Text>
              ) : null}
              {previewedForm && !previewCurrent ? (
                <Text as="p" tone="subdued">
                  The rules have changed since the preview: preview them again to see which recent returns each would decide.
                </Text>
              ) : null}
              {rule === "courier" ? (
                <Select label="Courier for any other return" options={[{ label: "Choose a courier", value: "" }, ...courierOptions]} value={courierId} onChange={setCourierId} error={result?.errors?.returnCourierId} />
              ) : null}
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
                  Save return rules
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
