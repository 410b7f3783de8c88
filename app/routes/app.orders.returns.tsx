import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, EmptyState, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { adminStrings, fill, formLanguage, plural, sayStored, shipmentStatusName, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { FormSaveBar } from "~/components/FormSaveBar";
import { formatDate } from "~/components/formatting";
import { requestOrderReconcile } from "~/orders/intake.server";
import { EMPTY_RETURN_RULE_DRAFT, returnRuleDraftOf, returnRuleFieldKey, type ReturnRuleDraft } from "~/returns/return-rule-drafts";
import { previewReturnRulesForm, type PreviewedReturn, type ReturnRulesPreview } from "~/returns/return-rules-preview.server";
import { bookPickupByMerchant, listReturns, saveReturnSettings } from "~/returns/returns-view.server";
import { RETURN_RULES, type ReturnRuleAction } from "~/returns/return-settings";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { problemInWords, problemLabel } from "~/shopify/readiness-checks";
import { ReturnHistory } from "~/components/ShipmentHistory";
import { awaitsPickup, isReturnState, RETURN_STATE_TONES } from "~/returns/return-lifecycle";
import { returnStateName } from "~/returns/return-words";

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

type ReturnsStrings = AdminStrings["returns"];

/** One of this page's own notices: an id (with the count a preview looked at), said in the admin's language by the page. */
type ReturnsNotice = { id: Exclude<keyof ReturnsStrings["notices"], "previewed"> } | { id: "previewed"; count: number };

const noticeInWords = (notices: ReturnsStrings["notices"], language: AdminLanguage, notice: ReturnsNotice) =>
  notice.id === "previewed" ? plural(language, notices.previewed, notice.count) : notices[notice.id];

/** A notice for the page, with its English words as the answer's `message` for whoever reads the answer bare. */
const said = (notice: ReturnsNotice) => ({ notice, message: noticeInWords(adminStrings("en").returns.notices, "en", notice) });

/** The form fields a preview was made of: it is shown only while the page's drafts still equal them. */
type PreviewedForm = { returnRules: string; returnRule: string; returnCourierId: string };
type ActionData = { ok: boolean; message: string; notice?: ReturnsNotice; errors?: Record<string, string>; preview?: ReturnRulesPreview; previewedForm?: PreviewedForm };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "settings") {
    const saved = await saveReturnSettings(session.shop, form);
    return saved.ok
      ? json<ActionData>({ ok: true, ...said({ id: "saved" }) })
      : json<ActionData>({ ok: false, ...said({ id: "fixRules" }), errors: saved.errors }, { status: 422 });
  }
  if (intent === "preview") {
    const previewed = await previewReturnRulesForm(session.shop, form);
    if (!previewed.ok) return json<ActionData>({ ok: false, ...said({ id: "fixRulesToPreview" }), errors: previewed.errors }, { status: 422 });
    const previewedForm = { returnRules: String(form.get("returnRules") ?? "[]"), returnRule: String(form.get("returnRule") ?? ""), returnCourierId: String(form.get("returnCourierId") ?? "") };
    const looked = previewed.preview.looked;
    return json<ActionData>({ ok: true, ...said(looked === 0 ? { id: "nothingToPreview" } : { id: "previewed", count: looked }), preview: previewed.preview, previewedForm });
  }
  if (intent === "check") {
    await requestOrderReconcile(session.shop, { onlyIfNeverDone: false });
    return json<ActionData>({ ok: true, ...said({ id: "checking" }) });
  }
  if (intent === "book") {
    const courier = Number(form.get("courierId") ?? "");
    const result = await whenShopifyAnswers(() => bookPickupByMerchant(session.shop, shopAdmin(session.shop, shopify), String(form.get("returnGid") ?? "").slice(0, 100), Number.isSafeInteger(courier) && courier > 0 ? courier : null, formLanguage(form)));
    return json<ActionData>({ ok: result.ok, message: result.message }, { status: result.ok ? 200 : result.status });
  }
  return json<ActionData>({ ok: false, ...said({ id: "unknownIntent" }) }, { status: 400 });
};

/** The id of a rule's "Move up" (-1) or "Move down" (1) button, for the focus to follow a moved rule. */
const moveButtonId = (index: number, by: -1 | 1) => `return-rule-${index}-move-${by === -1 ? "up" : "down"}`;

/** "#1001-R1, #1002-R1 and 3 more": a preview's returns, named up to a handful. */
const listed = (t: ReturnsStrings, names: readonly string[], shown = 8) =>
  names.length <= shown ? names.join(", ") : fill(t.preview.more, { names: names.slice(0, shown).join(", "), count: names.length - shown });
const namesOf = (t: ReturnsStrings, returns: readonly PreviewedReturn[]) => listed(t, returns.map((ret) => ret.returnName));
const decidesInWords = (t: ReturnsStrings, language: AdminLanguage, returns: readonly PreviewedReturn[]) =>
  returns.length === 0 ? t.preview.ruleDecidesNone : plural(language, t.preview.ruleDecides, returns.length, { names: namesOf(t, returns) });


export default function ReturnsView() {
  const { rows, settings, courierNames, ruleDrafts } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.returns;
  const language = useAdminLanguage();
  const actionOptions = RETURN_RULES.map((value: ReturnRuleAction) => ({ label: t.rules.actions[value], value }));
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
      { intent: "settings", locale: language, returnRule: rule, returnCourierId: courierId, returnDisposition: disposition, returnRules: JSON.stringify(rules), ...(notify ? { returnNotifyCustomer: "on" } : {}) },
      { method: "post" },
    );
  const book = (returnGid: string) => submit({ intent: "book", locale: language, returnGid }, { method: "post" });
  // The rules as edited, not saved: the same fields as a save, so a preview refuses what a save would.
  const previewRules = () =>
    submit({ intent: "preview", locale: language, returnRule: rule, returnCourierId: courierId, returnDisposition: disposition, returnRules: JSON.stringify(rules), ...(notify ? { returnNotifyCustomer: "on" } : {}) }, { method: "post" });
  const previewedForm = result?.previewedForm;
  const previewCurrent = previewedForm !== undefined && previewedForm.returnRules === JSON.stringify(rules) && previewedForm.returnRule === rule && previewedForm.returnCourierId === courierId;
  const preview = previewCurrent ? (result?.preview ?? null) : null;
  const chooseCourier = { label: t.rules.chooseCourier, value: "" };

  return (
    <Page
      title={t.page.title}
      backAction={{ content: strings.pages.ordersToShip, url: "/app/orders" }}
      primaryAction={{ content: t.page.checkForNew, onAction: () => submit({ intent: "check" }, { method: "post" }), loading: busy("check") }}
      secondaryActions={[{ content: t.page.preview, onAction: previewRules, loading: busy("preview") }]}
    >
      <FormSaveBar id="returns-save-bar" changed={changed} saving={busy("settings")} onSave={save} onDiscard={discard} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? <Banner tone={result.ok ? "success" : "warning"}>{result.notice ? noticeInWords(t.notices, language, result.notice) : result.message}</Banner> : null}
            {rows.length === 0 ? (
              <Card>
                <EmptyState heading={t.empty.heading} image="">
                  <p>{t.empty.text}</p>
                </EmptyState>
              </Card>
            ) : (
              <Card>
                <BlockStack gap="400" as="ul">
                  {rows.map((row) => {
                    const waiting = awaitsPickup(row.state) && !row.pickup && row.problems.length === 0;
                    return (
                      <BlockStack gap="100" as="li" key={row.returnGid}>
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span" fontWeight="semibold">
                            {row.returnName || t.list.unnamed}
                          </Text>
                          <Badge tone="info">{t.list.badge}</Badge>
                          <Badge tone={isReturnState(row.state) ? RETURN_STATE_TONES[row.state] : undefined}>{returnStateName(strings, row.state) ?? row.state}</Badge>
                          {row.pickup ? <Badge>{shipmentStatusName(strings, row.pickup.status) ?? row.pickup.statusLabel}</Badge> : null}
                        </InlineStack>
                        <Text as="p" tone="subdued">
                          {[
                            row.requestedAt ? fill(t.list.asked, { date: formatDate(row.requestedAt, undefined, language) }) : null,
                            row.pincode ? fill(t.list.pickupFrom, { pincode: row.pincode }) : null,
                            row.weightGrams ? fill(t.list.grams, { grams: row.weightGrams }) : null,
                          ]
                            .filter(Boolean)
                            .join(" · ")}
                        </Text>
                        {row.pickup ? (
                          <Text as="p">
                            {fill(t.list.pickup, { courier: row.pickup.courierName ?? t.list.courier, awb: row.pickup.awb ?? t.list.pending })}
                          </Text>
                        ) : null}
                        {row.problems
                          .map((problem) => ({ code: problem.code, ...problemInWords(problem, language) }))
                          .map((problem) => (
                            <Text as="p" key={problem.code} tone="critical">
                              {problem.message} {problem.fix}
                            </Text>
                          ))}
                        {!row.pickup && row.decisionReason && row.problems.length === 0 ? <Text as="p">{sayStored(language, row.decisionWords, row.decisionReason)}</Text> : null}
                        {row.history.length > 0 ? <ReturnHistory entries={row.history} heading={t.history.heading} /> : null}
                        {waiting ? (
                          <InlineStack>
                            <Button size="slim" variant="primary" loading={busy("book", row.returnGid)} onClick={() => book(row.returnGid)} accessibilityLabel={fill(t.list.bookLabel, { name: row.returnName })}>
                              {t.list.book}
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
                {t.rules.heading}
              </Text>
              <Text as="p" tone="subdued">
                {t.rules.intro}
              </Text>
              {result?.errors?.returnRules ? <Banner tone="critical">{result.errors.returnRules}</Banner> : null}
              <BlockStack gap="400" as="ol">
                {rules.map((draft, index) => {
                  const named = fill(t.rules.named, { number: index + 1 });
                  const namedRule = { rule: named };
                  return (
                    <BlockStack gap="200" as="li" key={index}>
                      <Text as="h3" variant="headingSm">
                        {named}
                      </Text>
                      <TextField label={fill(t.rules.name, namedRule)} autoComplete="off" value={draft.name} onChange={editRule(index, "name")} error={ruleError(index, "name")} />
                      <TextField
                        label={fill(t.rules.reasons, namedRule)}
                        autoComplete="off"
                        value={draft.reasons}
                        onChange={editRule(index, "reasons")}
                        error={ruleError(index, "reasons")}
                        helpText={t.rules.reasonsHelp}
                      />
                      <InlineGrid columns={2} gap="200">
                        <TextField label={fill(t.rules.minValue, namedRule)} type="number" autoComplete="off" value={draft.minValueRupees} onChange={editRule(index, "minValueRupees")} error={ruleError(index, "minValueRupees")} />
                        <TextField label={fill(t.rules.maxValue, namedRule)} type="number" autoComplete="off" value={draft.maxValueRupees} onChange={editRule(index, "maxValueRupees")} error={ruleError(index, "maxValueRupees")} />
                      </InlineGrid>
                      <TextField
                        label={fill(t.rules.pincodes, namedRule)}
                        autoComplete="off"
                        value={draft.pincodePrefixes}
                        onChange={editRule(index, "pincodePrefixes")}
                        error={ruleError(index, "pincodePrefixes")}
                        helpText={t.rules.pincodesHelp}
                      />
                      <TextField label={fill(t.rules.tags, namedRule)} autoComplete="off" value={draft.tags} onChange={editRule(index, "tags")} error={ruleError(index, "tags")} helpText={t.rules.tagsHelp} />
                      <Select label={fill(t.rules.then, namedRule)} options={actionOptions} value={draft.action} onChange={editRule(index, "action")} error={ruleError(index, "action")} />
                      {draft.action === "courier" ? (
                        <Select label={fill(t.rules.courier, namedRule)} options={[chooseCourier, ...courierOptions]} value={draft.courierId} onChange={editRule(index, "courierId")} error={ruleError(index, "courierId")} />
                      ) : null}
                      {preview ? (
                        <Text as="p" tone="subdued">
                          {decidesInWords(t, language, preview.byRule[index] ?? [])}
                        </Text>
                      ) : null}
                      <InlineStack gap="200">
                        <Button id={moveButtonId(index, -1)} size="slim" disabled={index === 0} onClick={() => moveRule(index, -1)} accessibilityLabel={fill(t.rules.moveUpLabel, namedRule)}>
                          {t.rules.moveUp}
                        </Button>
                        <Button id={moveButtonId(index, 1)} size="slim" disabled={index === rules.length - 1} onClick={() => moveRule(index, 1)} accessibilityLabel={fill(t.rules.moveDownLabel, namedRule)}>
                          {t.rules.moveDown}
                        </Button>
                        <Button size="slim" tone="critical" variant="plain" onClick={() => removeRule(index)} accessibilityLabel={fill(t.rules.removeLabel, namedRule)}>
                          {t.rules.remove}
                        </Button>
                      </InlineStack>
                    </BlockStack>
                  );
                })}
              </BlockStack>
              <InlineStack>
                <Button onClick={() => setRules((current) => [...current, EMPTY_RETURN_RULE_DRAFT])} disabled={rules.length >= 20}>
                  {t.rules.add}
                </Button>
              </InlineStack>
              <Select label={t.rules.anyOther} options={actionOptions} value={rule} onChange={setRule} error={result?.errors?.returnRule} />
              {preview ? (
                <Text as="p" tone="subdued">
                  {preview.byDefault.length === 0 ? t.preview.defaultDecidesNone : plural(language, t.preview.defaultDecides, preview.byDefault.length, { names: namesOf(t, preview.byDefault) })}
                </Text>
              ) : null}
              {preview && preview.notBooked.length > 0 ? (
                <Text as="p" tone="subdued">
                  {fill(t.preview.notBooked, {
                    returns: listed(
                      t,
                      preview.notBooked.map((ret) => fill(t.preview.notBookedReturn, { name: ret.returnName, why: ret.kind === "problems" ? ret.problemCodes.map((code) => problemLabel(code, language)).join(", ") : t.preview.why[ret.kind] })),
                    ),
                  })}
                </Text>
              ) : null}
              {previewedForm && !previewCurrent ? (
                <Text as="p" tone="subdued">
                  {t.preview.stale}
                </Text>
              ) : null}
              {rule === "courier" ? (
                <Select label={t.rules.anyOtherCourier} options={[chooseCourier, ...courierOptions]} value={courierId} onChange={setCourierId} error={result?.errors?.returnCourierId} />
              ) : null}
              <Checkbox label={t.rules.notify} checked={notify} onChange={setNotify} />
              <InlineGrid columns={1}>
                <Select
                  label={t.rules.disposition}
                  options={[
                    { label: t.rules.inspect, value: "inspect" },
                    { label: t.rules.restock, value: "restock" },
                  ]}
                  value={disposition}
                  onChange={setDisposition}
                  error={result?.errors?.returnDisposition}
                  helpText={t.rules.dispositionHelp}
                />
              </InlineGrid>
              <InlineStack>
                <Button onClick={save} loading={busy("settings")}>
                  {t.rules.save}
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
