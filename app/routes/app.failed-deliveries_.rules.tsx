import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { FormSaveBar } from "~/components/FormSaveBar";
import { NoRulesCard, RuleCardHeading, RulesNotSaved, useRuleDrafts } from "~/components/RuleList";
import { formatCount } from "~/components/formatting";
import { DESK_RULE_ACTIONS, DESK_RULE_LIMITS, draftOfRule, EMPTY_DESK_RULE, exampleRules, RULE_PAYMENTS, ruleFieldKey, WAIT_FALLBACKS, type DeskRuleDraft, type DeskRuleField } from "~/failed-deliveries/desk-rules";
import { deskRulesPage, saveDeskRules } from "~/failed-deliveries/desk-rules.server";
import { fill } from "~/locales/admin-language";
import { authenticate } from "~/shopify.server";

/**
 * The failed-delivery desk's rules: what happens to a failed attempt as tracking records it — by the courier's reason,
 * COD or prepaid, and the attempt's number — re-attempt, return to origin, or wait for the shopper's answer. The first
 * rule that matches decides. Saved whole; a rule set that cannot be saved answers 422 naming each rule and field.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json(await deskRulesPage(session.shop));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const answer = await saveDeskRules(session.shop, await request.formData());
  return json(answer, { status: answer.ok ? 200 : 422 });
};

const ATTEMPTS = Array.from({ length: DESK_RULE_LIMITS.attempt }, (_, index) => String(index + 1));

function RuleCard({ draft, index, count, errors, onChange, onMove, onRemove }: { draft: DeskRuleDraft; index: number; count: number; errors: Record<string, string>; onChange: (draft: DeskRuleDraft) => void; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  const t = useAdminStrings().failedDeliveries.rules;
  const language = useAdminLanguage();
  const f = t.fields;
  const number = formatCount(index + 1, language);
  const error = (field: DeskRuleField) => errors[ruleFieldKey(index, field)];
  const set = (field: DeskRuleField) => (value: string) => onChange({ ...draft, [field]: value });
  const attemptOptions = ATTEMPTS.map((attempt) => ({ label: formatCount(Number(attempt), language), value: attempt }));
  return (
    <Card>
      <BlockStack gap="300">
        <RuleCardHeading words={t.rule} number={number} name={draft.name} index={index} count={count} onMove={onMove} onRemove={onRemove} />
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField label={f.name} value={draft.name} onChange={set("name")} error={error("name")} autoComplete="off" maxLength={DESK_RULE_LIMITS.name} />
          <Select label={f.payment} options={RULE_PAYMENTS.map((payment) => ({ label: f.payments[payment], value: payment }))} value={draft.payment} onChange={set("payment")} error={error("payment")} />
        </InlineGrid>
        <TextField label={f.reasons} value={draft.reasons} onChange={set("reasons")} error={error("reasons")} helpText={f.reasonsHelp} autoComplete="off" maxLength={400} />
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
          <Select label={f.fromAttempt} options={attemptOptions} value={draft.fromAttempt} onChange={set("fromAttempt")} error={error("fromAttempt")} />
          <Select label={f.toAttempt} options={[{ label: f.anyLater, value: "" }, ...attemptOptions]} value={draft.toAttempt} onChange={set("toAttempt")} error={error("toAttempt")} />
          <Select label={f.action} options={DESK_RULE_ACTIONS.map((action) => ({ label: f.actions[action], value: action }))} value={draft.action} onChange={set("action")} error={error("action")} />
          {draft.action === "wait" ? (
            <Select label={f.otherwise} options={WAIT_FALLBACKS.map((fallback) => ({ label: f.actions[fallback], value: fallback }))} value={draft.otherwise} onChange={set("otherwise")} error={error("otherwise")} />
          ) : null}
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}

export default function FailedDeliveryRules() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shopify = useAppBridge();
  const strings = useAdminStrings();
  const t = strings.failedDeliveries.rules;
  const language = useAdminLanguage();
  const navigation = useNavigation();
  const submit = useSubmit();
  const { drafts, setDrafts, changeRule, moveRule, removeRule } = useRuleDrafts<DeskRuleDraft>(loaded.drafts);
  const savedToast = t.savedToast;
  useEffect(() => {
    if (result?.ok) {
      setDrafts(result.drafts);
      shopify.toast.show(savedToast);
    }
  }, [result, shopify, savedToast, setDrafts]);
  const saving = navigation.state === "submitting";
  const changed = JSON.stringify(drafts) !== JSON.stringify(loaded.drafts);
  const fieldErrors = result && !result.ok ? result.fieldErrors : {};
  const save = () => submit({ intent: "rules", locale: language, rules: JSON.stringify(drafts) }, { method: "post" });

  return (
    <Page title={strings.pages.failedDeliveryRules} subtitle={t.subtitle} backAction={{ content: t.back, url: "/app/failed-deliveries" }} primaryAction={{ content: t.save, onAction: save, loading: saving }}>
      <FormSaveBar id="failed-delivery-rules-save-bar" changed={changed} saving={saving} onSave={save} onDiscard={() => setDrafts(loaded.drafts)} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.ok ? <Banner tone="success">{t.saved}</Banner> : null}
            {result && !result.ok ? <RulesNotSaved title={t.notSaved} formError={result.formError} fieldErrors={result.fieldErrors} /> : null}
            <Text as="p" tone="subdued">
              {fill(t.waitExplained, { hours: formatCount(loaded.returnAfterHours, language) })}
            </Text>
            {drafts.length === 0 ? <NoRulesCard text={t.empty} startWithExamples={t.startWithExamples} onStart={() => setDrafts(exampleRules(language).map(draftOfRule))} /> : null}
            {drafts.map((draft, index) => (
              <RuleCard
                key={index}
                draft={draft}
                index={index}
                count={drafts.length}
                errors={fieldErrors}
                onChange={(next) => changeRule(index, next)}
                onMove={(by) => moveRule(index, by)}
                onRemove={() => removeRule(index)}
              />
            ))}
            <InlineStack>
              <Button disabled={drafts.length >= DESK_RULE_LIMITS.rules} onClick={() => setDrafts((current) => [...current, { ...EMPTY_DESK_RULE, name: fill(t.rule.name, { number: formatCount(current.length + 1, language) }) }])}>
                {t.addRule}
              </Button>
            </InlineStack>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
