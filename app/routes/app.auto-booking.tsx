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
import { EXAMPLE_RULES, MAX_RULES, RULE_ACTION_LABELS } from "~/automation/rules";
import { draftOf, EMPTY_DRAFT, fieldKey, RULE_ACTIONS, ZONES, type RuleDraft, type RuleField, type RulePreview } from "~/automation/rules-form";
import { rulesPage, submitRulesForm } from "~/automation/rules-settings.server";
import { FormSaveBar } from "~/components/FormSaveBar";
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

const PAYMENT_OPTIONS = [
  { label: "Any payment", value: "any" },
  { label: "Cash on delivery", value: "cod" },
  { label: "Prepaid", value: "prepaid" },
];

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
  const error = (field: RuleField) => errors[fieldKey(index, field)];
  const set = (field: RuleField) => (value: string) => onChange({ ...draft, [field]: value });
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingSm">
            Rule {index + 1}
            {draft.name ? `: ${draft.name}` : ""}
          </Text>
          <InlineStack gap="200">
            <Button size="slim" disabled={index === 0} onClick={() => onMove(-1)} accessibilityLabel={`Move rule ${index + 1} up`}>
              Up
            </Button>
            <Button size="slim" disabled={index === count - 1} onClick={() => onMove(1)} accessibilityLabel={`Move rule ${index + 1} down`}>
              Down
            </Button>
            <Button size="slim" tone="critical" variant="plain" onClick={onRemove} accessibilityLabel={`Remove rule ${index + 1}`}>
              Remove
            </Button>
          </InlineStack>
        </InlineStack>
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="300">
          <TextField label="Name" value={draft.name} onChange={set("name")} error={error("name")} autoComplete="off" maxLength={60} />
          <Select label="Payment" options={PAYMENT_OPTIONS} value={draft.paymentMode} onChange={set("paymentMode")} error={error("paymentMode")} />
          <TextField
            label="Order tags (any of)"
            value={draft.tags}
            onChange={set("tags")}
            error={error("tags")}
            helpText="Comma-separated; empty: any tags"
            autoComplete="off"
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
          <TextField
            label="Weight from (kg)"
            value={draft.minWeightKg}
            onChange={set("minWeightKg")}
            error={error("minWeightKg")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label="Weight up to (kg)"
            value={draft.maxWeightKg}
            onChange={set("maxWeightKg")}
            error={error("maxWeightKg")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label="Order value from (₹)"
            value={draft.minValueRupees}
            onChange={set("minValueRupees")}
            error={error("minValueRupees")}
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            label="Order value up to (₹)"
            value={draft.maxValueRupees}
            onChange={set("maxValueRupees")}
            error={error("maxValueRupees")}
            inputMode="decimal"
            autoComplete="off"
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            label="Destination PIN codes starting with"
            value={draft.pincodePrefixes}
            onChange={set("pincodePrefixes")}
            error={error("pincodePrefixes")}
            helpText="Comma-separated, e.g. 40, 110; empty: anywhere"
            autoComplete="off"
          />
          <ChoiceList
            allowMultiple
            title="Zones (empty: any)"
            choices={ZONES.map((zone) => ({ label: `Zone ${zone}`, value: zone }))}
            selected={draft.zones}
            onChange={(zones) => onChange({ ...draft, zones })}
            error={error("zones")}
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <Select
            label="Then"
            options={RULE_ACTIONS.map((action) => ({ label: RULE_ACTION_LABELS[action], value: action }))}
            value={draft.action}
            onChange={set("action")}
            error={error("action")}
          />
          {draft.action === "courier" ? (
            <Select
              label="Courier"
              options={[{ label: "Choose a courier", value: "" }, ...courierOptions]}
              value={draft.courierId}
              onChange={set("courierId")}
              error={error("courierId")}
            />
          ) : null}
        </InlineGrid>
        {matched ? (
          <Text as="p" tone="subdued">
            {matched.orders.length === 0
              ? "Would have decided none of the recent orders."
              : `Would have decided ${matched.orders.length === 1 ? "1 recent order" : `${matched.orders.length} recent orders`}: ${matched.orders
                  .slice(0, 8)
                  .map((order) => `${order.orderName} (${order.outcome})`)
                  .join(", ")}${matched.orders.length > 8 ? "…" : ""}`}
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
  useEffect(() => {
    if (result?.kind === "saved") shopify.toast.show("Auto-booking saved");
  }, [result, shopify]);
  const navigation = useNavigation();
  const submit = useSubmit();
  const [drafts, setDrafts] = useState<RuleDraft[]>(loaded.drafts);
  const [autoBooking, setAutoBooking] = useState(loaded.autoBooking);
  const fieldErrors = result?.kind === "invalid" ? result.fieldErrors : {};
  // The preview is of the rules as last previewed or saved (else as stored); once they are edited it is not shown.
  const previewed = result && result.kind !== "invalid" ? result : { preview: loaded.preview, drafts: loaded.drafts };
  useEffect(() => {
    if (result && result.kind !== "invalid") setDrafts(result.drafts);
  }, [result]);
  const preview = JSON.stringify(previewed.drafts) === JSON.stringify(drafts) ? previewed.preview : null;
  const courierOptions = Object.entries(loaded.courierNames).map(([id, name]) => ({ label: name, value: id }));
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // Unsaved: the rules or the switch differ from what is stored (the loader's, fresh after every save).
  const changed = autoBooking !== loaded.autoBooking || JSON.stringify(drafts) !== JSON.stringify(loaded.drafts);
  const discard = () => {
    setDrafts(loaded.drafts);
    setAutoBooking(loaded.autoBooking);
  };

  const send = (intent: "save" | "preview") =>
    submit({ intent, rules: JSON.stringify(drafts), ...(autoBooking ? { autoBooking: "on" } : {}) }, { method: "post" });
  const move = (index: number, by: -1 | 1) =>
    setDrafts((current) => {
      const next = [...current];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved!);
      return next;
    });

  return (
    <Page
      title="Auto-booking"
      subtitle="New orders are checked as they arrive; with auto-booking on, the first rule that matches an order books it or holds it."
      primaryAction={{ content: "Save", onAction: () => send("save"), loading: busy === "save" }}
      secondaryActions={[{ content: "Preview on recent orders", onAction: () => send("preview"), loading: busy === "preview" }]}
    >
      <FormSaveBar id="auto-booking-save-bar" changed={changed} saving={busy === "save"} onSave={() => send("save")} onDiscard={discard} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.kind === "saved" ? (
              <Banner tone="success" title="Rules saved">
                Auto-booking is {result.autoBooking ? "on: new orders are booked by these rules" : "off: new orders are checked and wait for you"}.
              </Banner>
            ) : null}
            {result?.kind === "invalid" ? (
              <Banner tone="critical" title="Rules not saved">
                {result.formError ?? (
                  <ul>
                    {Object.values(result.fieldErrors).map((message) => (
                      <li key={message}>{message}</li>
                    ))}
                  </ul>
                )}
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Checkbox label="Book new orders automatically by these rules" checked={autoBooking} onChange={setAutoBooking} />
                  <Badge tone={loaded.autoBooking ? "success" : undefined}>{loaded.autoBooking ? "On" : "Off"}</Badge>
                </InlineStack>
                <Text as="p" tone="subdued">
                  Rules are tried from the top; the first that matches decides. An order no rule matches is held for review, and an order with problems is never
                  booked automatically. Every decision is recorded on the order with its reason.
                </Text>
              </BlockStack>
            </Card>
            {drafts.length === 0 ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="p">No rules yet: with auto-booking on, every new order would be held for review.</Text>
                  <InlineStack>
                    <Button onClick={() => setDrafts(EXAMPLE_RULES.map(draftOf))}>Start from example rules</Button>
                  </InlineStack>
                </BlockStack>
              </Card>
            ) : null}
            {drafts.map((draft, index) => (
              <RuleCard
                key={index}
                draft={draft}
                index={index}
                count={drafts.length}
                errors={fieldErrors}
                courierOptions={courierOptions}
                matched={preview?.byRule[index]}
                onChange={(changed) => setDrafts((current) => current.map((existing, position) => (position === index ? changed : existing)))}
                onMove={(by) => move(index, by)}
                onRemove={() => setDrafts((current) => current.filter((_, position) => position !== index))}
              />
            ))}
            <InlineStack gap="200">
              <Button
                disabled={drafts.length >= MAX_RULES}
                onClick={() => setDrafts((current) => [...current, { ...EMPTY_DRAFT, name: `Rule ${current.length + 1}` }])}
              >
                Add rule
              </Button>
            </InlineStack>
            {preview ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Recent orders no rule decides
                  </Text>
                  <Text as="p" tone="subdued">
                    {preview.unmatched.length === 0 ? "None." : `Held for review: ${preview.unmatched.map((order) => order.orderName).join(", ")}`}
                  </Text>
                  {preview.withProblems.length > 0 ? (
                    <Text as="p" tone="subdued">
                      Never booked automatically until fixed: {preview.withProblems.map((order) => `${order.orderName} (${order.problems})`).join(", ")}
                    </Text>
                  ) : null}
                </BlockStack>
              </Card>
            ) : (
              <Banner tone="info">The rules have changed: preview them to see which recent orders each would decide.</Banner>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
