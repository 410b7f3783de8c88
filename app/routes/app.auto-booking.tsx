import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { LOGISTIC_IDS } from "~/shipping/contract";
import { EXAMPLE_RULES, MAX_RULES } from "~/automation/rules";
import { draftOf, EMPTY_DRAFT, fieldKey, previewOutcomeInWords, previewProblemsInWords, RISK_LEVELS, RULE_ACTIONS, ZONES, type PreviewOutcome, type RuleDraft, type RuleField, type RulePreview } from "~/automation/rules-form";
import { rulesPage, submitRulesForm } from "~/orders/rules-settings.server";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { fill, plural } from "~/locales/admin-language";
import { FormSaveBar } from "~/components/FormSaveBar";
import { NoRulesCard, RuleCardHeading, RulesNotSaved, useRuleDrafts } from "~/components/RuleList";
import { formatCount } from "~/components/formatting";
import { authenticate } from "~/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json(await rulesPage(session.shop));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const outcome = await submitRulesForm(session.shop, await request.formData());
  return json(outcome, { status: outcome.kind === "invalid" ? 422 : 200 });
};

const PAYMENT_MODES = ["any", "cod", "prepaid"] as const;
/** The most recent orders a rule's preview names; the rest are counted. */
const PREVIEW_NAMED = 8;

function RuleCard({
  draft,
  index,
  count,
  errors,
  courierOptions,
  matched,
  onChange,
  onMove,
  onRemove,
}: {
  draft: RuleDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  courierOptions: { label: string; value: string }[];
  matched: RulePreview["byRule"][number] | undefined;
  onChange: (draft: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const strings = useAdminStrings();
  const t = strings.autoBooking;
  const language = useAdminLanguage();
  const f = t.fields;
  const error = (field: RuleField) => errors[fieldKey(index, field)];
  const set = (field: RuleField) => (value: string) => onChange({ ...draft, [field]: value });
  const number = formatCount(index + 1, language);
  // A chosen courier is named as the courier choice names it, in the admin's language when its name is not known.
  const namedAsOffered = (decided: PreviewOutcome): PreviewOutcome =>
    decided.kind === "courier" ? { ...decided, courierName: courierOptions.find((option) => option.value === String(decided.courierId))?.label ?? decided.courierName } : decided;
  return (
    <Card>
      <BlockStack gap="300">
        <RuleCardHeading words={t.rule} number={number} name={draft.name} index={index} count={count} onMove={onMove} onRemove={onRemove} />
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="300">
          <TextField label={f.name} value={draft.name} onChange={set("name")} error={error("name")} autoComplete="off" maxLength={60} />
          <Select
            label={f.payment}
            options={PAYMENT_MODES.map((mode) => ({ label: f.payments[mode], value: mode }))}
            value={draft.paymentMode}
            onChange={set("paymentMode")}
            error={error("paymentMode")}
          />
          <TextField label={f.tags} value={draft.tags} onChange={set("tags")} error={error("tags")} helpText={f.tagsHelp} autoComplete="off" />
        </InlineGrid>
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
          <TextField
            label={f.minWeight}
            value={draft.minWeightKg}
            onChange={set("minWeightKg")}
            error={error("minWeightKg")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label={f.maxWeight}
            value={draft.maxWeightKg}
            onChange={set("maxWeightKg")}
            error={error("maxWeightKg")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label={f.minValue}
            value={draft.minValueRupees}
            onChange={set("minValueRupees")}
            error={error("minValueRupees")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label={f.maxValue}
            value={draft.maxValueRupees}
            onChange={set("maxValueRupees")}
            error={error("maxValueRupees")}
            inputMode="decimal"
            autoComplete="off"
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            label={f.pincodes}
            value={draft.pincodePrefixes}
            onChange={set("pincodePrefixes")}
            error={error("pincodePrefixes")}
            helpText={f.pincodesHelp}
            autoComplete="off"
          />
          <ChoiceList
            allowMultiple
            title={f.zones}
            choices={ZONES.map((zone) => ({ label: fill(f.zone, { zone }), value: zone }))}
            selected={draft.zones}
            onChange={(zones) => onChange({ ...draft, zones })}
            error={error("zones")}
          />
          <ChoiceList
            allowMultiple
            title={f.riskLevels}
            choices={RISK_LEVELS.map((level) => ({ label: strings.cod.levels[level], value: level }))}
            selected={draft.riskLevels}
            onChange={(riskLevels) => onChange({ ...draft, riskLevels })}
            error={error("riskLevels")}
          />
        </InlineGrid>
        {draft.riskLevels.length > 0 ? (
          <Text as="p" tone="subdued">
            {f.riskHelp}
          </Text>
        ) : null}
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <Select
            label={f.then}
            options={RULE_ACTIONS.map((action) => ({ label: f.actions[action], value: action }))}
            value={draft.action}
            onChange={set("action")}
            error={error("action")}
          />
          {draft.action === "confirm" ? (
            <Text as="p" tone="subdued">
              {f.confirmHelp}
            </Text>
          ) : null}
          {draft.action === "courier" ? (
            <Select
              label={f.courier}
              options={[{ label: f.chooseCourier, value: "" }, ...courierOptions]}
              value={draft.courierId}
              onChange={set("courierId")}
              error={error("courierId")}
            />
          ) : null}
        </InlineGrid>
        {matched ? (
          <Text as="p" tone="subdued">
            {matched.orders.length === 0
              ? t.decided.none
              : plural(language, t.decided.some, matched.orders.length, {
                  orders: `${matched.orders
                    .slice(0, PREVIEW_NAMED)
                    .map((order) => `${order.orderName || t.preview.unnamedOrder} (${previewOutcomeInWords(namedAsOffered(order.decided), language)})`)
                    .join(", ")}${matched.orders.length > PREVIEW_NAMED ? "…" : ""}`,
                })}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export default function AutoBooking() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shopify = useAppBridge();
  const strings = useAdminStrings();
  const t = strings.autoBooking;
  const language = useAdminLanguage();
  const savedToast = t.page.savedToast;
  useEffect(() => {
    if (result?.kind === "saved") shopify.toast.show(savedToast);
  }, [result, shopify, savedToast]);
  const navigation = useNavigation();
  const submit = useSubmit();
  const { drafts, setDrafts, changeRule, moveRule, removeRule } = useRuleDrafts<RuleDraft>(loaded.drafts);
  const [autoBooking, setAutoBooking] = useState(loaded.autoBooking);
  const fieldErrors = result?.kind === "invalid" ? result.fieldErrors : {};
  // The preview is of the rules as last previewed or saved (else as stored); once they are edited it is not shown.
  const previewed = result && result.kind !== "invalid" ? result : { preview: loaded.preview, drafts: loaded.drafts };
  useEffect(() => {
    if (result && result.kind !== "invalid") setDrafts(result.drafts);
  }, [result, setDrafts]);
  const preview = JSON.stringify(previewed.drafts) === JSON.stringify(drafts) ? previewed.preview : null;
  const courierNames: Partial<Record<number, string>> = loaded.courierNames;
  const courierOptions = LOGISTIC_IDS.map((id) => ({ label: courierNames[id] ?? fill(t.fields.courierNumber, { id }), value: String(id) }));
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // Unsaved: the rules or the switch differ from what is stored (the loader's, fresh after every save).
  const changed = autoBooking !== loaded.autoBooking || JSON.stringify(drafts) !== JSON.stringify(loaded.drafts);
  const discard = () => {
    setDrafts(loaded.drafts);
    setAutoBooking(loaded.autoBooking);
  };

  const send = (intent: "save" | "preview") =>
    submit({ intent, locale: language, rules: JSON.stringify(drafts), ...(autoBooking ? { autoBooking: "on" } : {}) }, { method: "post" });

  return (
    <Page
      title={strings.pages.autoBooking}
      subtitle={t.page.subtitle}
      primaryAction={{ content: t.page.save, onAction: () => send("save"), loading: busy === "save" }}
      secondaryActions={[{ content: t.page.preview, onAction: () => send("preview"), loading: busy === "preview" }]}
    >
      <FormSaveBar id="auto-booking-save-bar" changed={changed} saving={busy === "save"} onSave={() => send("save")} onDiscard={discard} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.kind === "saved" ? (
              <Banner tone="success" title={t.result.saved}>
                {result.autoBooking ? t.result.on : t.result.off}
              </Banner>
            ) : null}
            {result?.kind === "invalid" ? <RulesNotSaved title={t.result.notSaved} formError={result.formError} fieldErrors={result.fieldErrors} /> : null}
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Checkbox label={t.switch.label} checked={autoBooking} onChange={setAutoBooking} />
                  <Badge tone={loaded.autoBooking ? "success" : undefined}>{loaded.autoBooking ? t.switch.on : t.switch.off}</Badge>
                </InlineStack>
                <Text as="p" tone="subdued">
                  {t.switch.explain}
                </Text>
              </BlockStack>
            </Card>
            {drafts.length === 0 ? <NoRulesCard text={t.empty.text} startWithExamples={t.empty.examples} onStart={() => setDrafts(EXAMPLE_RULES.map(draftOf))} /> : null}
            {drafts.map((draft, index) => (
              <RuleCard
                key={index}
                draft={draft}
                index={index}
                count={drafts.length}
                errors={fieldErrors}
                courierOptions={courierOptions}
                matched={preview?.byRule[index]}
                onChange={(changed) => changeRule(index, changed)}
                onMove={(by) => moveRule(index, by)}
                onRemove={() => removeRule(index)}
              />
            ))}
            <InlineStack gap="200">
              <Button
                disabled={drafts.length >= MAX_RULES}
                onClick={() => setDrafts((current) => [...current, { ...EMPTY_DRAFT, name: fill(t.rule.name, { number: formatCount(current.length + 1, language) }) }])}
              >
                {t.addRule}
              </Button>
            </InlineStack>
            {preview ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t.preview.heading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {preview.unmatched.length === 0 ? t.preview.none : fill(t.preview.held, { orders: preview.unmatched.map((order) => order.orderName || t.preview.unnamedOrder).join(", ") })}
                  </Text>
                  {preview.withProblems.length > 0 ? (
                    <Text as="p" tone="subdued">
                      {fill(t.preview.withProblems, { orders: preview.withProblems.map((order) => `${order.orderName || t.preview.unnamedOrder} (${previewProblemsInWords(order, language)})`).join(", ") })}
                    </Text>
                  ) : null}
                </BlockStack>
              </Card>
            ) : (
              <Banner tone="info">{t.preview.stale}</Banner>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
