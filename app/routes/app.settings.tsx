import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useReducer, useRef, useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { adminStrings, fill, formLanguage, plural } from "~/locales/admin-language";
import { FormSaveBar, useFormChanged } from "~/components/FormSaveBar";
import { formatCount } from "~/components/formatting";
import { TrackingPageCard } from "~/components/TrackingPageCard";
import { getDocumentSettings } from "~/documents/documents.server";
import { rememberShopName, saveLabelLayout } from "~/documents/document-changes.server";
import { isLabelLayout, LABEL_LAYOUTS } from "~/documents/label-layout";
import { saveSettingsForm, settingsForBrowser, settingsPageWarehouses, type WarehouseSummary } from "~/settings/settings-form.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { listLocations } from "~/shopify/admin-orders.server";
import { getShopOverview } from "~/shopify/shop.server";
import { readSellerContact } from "~/tracking/seller-contact";
import { getSellerContact, saveSellerContact } from "~/tracking/seller.server";
import { confirmationEmailSnippet, getCodSettings, parseCodSettings, saveCodSettings } from "~/cod/cod-settings.server";
import { CONFIRM_HOURS, SILENCE_ACTIONS } from "~/cod/confirmation-lifecycle";
import { getConfig } from "~/config.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const [settings, locations, { warehouses, sandboxWarehouses }, documents, sellerContact, shopOverview, codSettings] = await Promise.all([
    settingsForBrowser(session.shop),
    whenShopifyAnswers(() => listLocations(admin)),
    settingsPageWarehouses(session.shop),
    getDocumentSettings(session.shop),
    getSellerContact(session.shop),
    whenShopifyAnswers(() => getShopOverview(admin)),
    getCodSettings(session.shop),
  ]);
  // The tracking page names the shop as Shopify does; a rename reaches it when Settings is next opened.
  if (shopOverview.name !== documents.shopName) await rememberShopName(session.shop, shopOverview.name);
  return json({ settings, locations, warehouses, sandboxWarehouses, labelLayout: documents.labelLayout, sellerContact, codSettings, confirmationSnippet: confirmationEmailSnippet(getConfig().SHOPIFY_API_KEY) });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const locations = await whenShopifyAnswers(() => listLocations(admin));
  const form = await request.formData();
  // The label layout is the documents' own setting (app/documents/); a form without it keeps the one chosen.
  const labelLayout = form.get("labelLayout");
  if (labelLayout !== null && !isLabelLayout(labelLayout)) {
    return json({ ok: false as const, errors: {} as Record<string, string>, labelLayoutRefused: true as const }, { status: 422 });
  }
  // The tracking page's fields are checked first, so that nothing is saved while any field is wrong.
  // The page sends its language, so the errors come back in it.
  const language = formLanguage(form);
  const sellerContact = readSellerContact({ logoUrl: form.get("logoUrl")?.toString(), contactEmail: form.get("contactEmail")?.toString(), contactPhone: form.get("contactPhone")?.toString() }, language);
  if (!sellerContact.ok) return json({ ok: false as const, errors: sellerContact.errors }, { status: 422 });
  // Asking shoppers to confirm COD is the COD module's setting; a form without its fields keeps what was chosen.
  const cod = form.has("codConfirmHours") ? parseCodSettings(form) : null;
  if (cod && !cod.ok) {
    const words = adminStrings(language).cod.settings;
    const errors: Record<string, string> = {};
    if (cod.errors.confirmHours) errors.codConfirmHours = fill(words.hoursError, { min: CONFIRM_HOURS.min, max: CONFIRM_HOURS.max });
    if (cod.errors.onSilence) errors.codOnSilence = words.silenceError;
    return json({ ok: false as const, errors }, { status: 422 });
  }
  // The settings, the label layout, the tracking page's contact and asking COD shoppers: saved together in one
  // transaction, or not at all.
  const result = await saveSettingsForm(session.shop, form, locations.map((location) => location.id), {
    language,
    alongside: async (tx) => {
      if (labelLayout !== null) await saveLabelLayout(session.shop, labelLayout, tx);
      if (form.has("contactEmail")) await saveSellerContact(session.shop, sellerContact.value, tx);
      if (cod?.ok) await saveCodSettings(session.shop, cod.settings, tx);
    },
  });
  return json(result, { status: result.ok ? 200 : 422 });
};

/** A warehouse by name and address from `choices`, or by its number when there are none to choose from. */
function WarehouseField({ choices, unset, ...field }: { name: string; label: string; value: string; error?: string; helpText?: string; choices: readonly WarehouseSummary[] | null; unset: string }) {
  const t = useAdminStrings().settings.warehouses;
  const [current, setCurrent] = useState(field.value);
  if (!choices) return <Field {...field} />;
  const options = [
    { label: unset, value: "" },
    ...choices.map((warehouse) => ({ label: warehouse.description ? fill(t.choice, { id: warehouse.id, description: warehouse.description }) : fill(t.numbered, { id: warehouse.id }), value: String(warehouse.id) })),
  ];
  if (current && !options.some((option) => option.value === current)) options.push({ label: fill(t.numbered, { id: current }), value: current });
  return <Select name={field.name} label={field.label} options={options} value={current} onChange={setCurrent} error={field.error} helpText={field.helpText} />;
}

function Field({ name, label, value, error, type = "text", helpText, autoComplete = "off" }: { name: string; label: string; value: string; error?: string; type?: "text" | "password" | "number"; helpText?: string; autoComplete?: string }) {
  const [current, setCurrent] = useState(value);
  return <TextField name={name} label={label} value={current} onChange={setCurrent} error={error} type={type} helpText={helpText} autoComplete={autoComplete} />;
}

export default function Settings() {
  const result = useActionData<typeof action>();
  const shopify = useAppBridge();
  const saved = useAdminStrings().settings.saved;
  useEffect(() => {
    if (result?.ok) shopify.toast.show(saved);
  }, [result, shopify, saved]);
  // Discard starts the form afresh from what is saved.
  const [generation, discard] = useReducer((count: number) => count + 1, 0);
  return <SettingsForm key={generation} onDiscard={discard} />;
}

function SettingsForm({ onDiscard }: { onDiscard: () => void }) {
  const { settings, locations, warehouses, sandboxWarehouses, labelLayout, sellerContact, codSettings, confirmationSnippet } = useLoaderData<typeof loader>();
  const [onSilence, setOnSilence] = useState<string[]>([codSettings.onSilence]);
  const [layout, setLayout] = useState<string>(labelLayout);
  const result = useActionData<typeof action>();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const saving = useNavigation().state === "submitting";
  const form = useRef<HTMLFormElement>(null);
  const { changed, onChange } = useFormChanged(form, result);
  const [mode, setMode] = useState<string[]>([settings.usesSandbox ? "sandbox" : "account"]);
  const [environment, setEnvironment] = useState(settings.environment);
  const [notify, setNotify] = useState(settings.notifyCustomer);
  const strings = useAdminStrings();
  const t = strings.settings;
  const language = useAdminLanguage();
  const layoutRefused = result !== undefined && "labelLayoutRefused" in result;

  return (
    <Page title={strings.pages.settings}>
      <FormSaveBar id="settings-save-bar" changed={changed} saving={saving} onSave={() => form.current?.requestSubmit()} onDiscard={onDiscard} />
      <Form method="post" ref={form} onChange={onChange}>
        <input type="hidden" name="locale" value={language} />
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              {result?.ok ? (
                <Banner tone="success" title={t.saved}>
                  {result.warehouses.map((warehouse) => (
                    <p key={warehouse.id}>
                      {fill(t.savedWarehouse, { id: warehouse.id, name: warehouse.warehouse_name, address: warehouse.address_line_1, city: warehouse.city, pincode: warehouse.pincode })}
                    </p>
                  ))}
                </Banner>
              ) : null}
              {errors.form ? <Banner tone="critical" title={t.notSaved}>{errors.form}</Banner> : null}
              {result && !result.ok && !errors.form ? (
                <Banner tone="critical" title={t.notSaved}>
                  {t.fixFields}
                </Banner>
              ) : null}

              <Card>
                <InlineStack align="space-between" blockAlign="center" gap="300">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      {settings.autoBooking ? t.autoBooking.on : t.autoBooking.off}
                    </Text>
                    <Text as="p" tone="subdued">
                      {settings.bookingRuleCount === 0 ? t.autoBooking.noRules : plural(language, t.autoBooking.rules, settings.bookingRuleCount)}
                    </Text>
                  </BlockStack>
                  <Button url="/app/auto-booking">{t.autoBooking.edit}</Button>
                </InlineStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.courier.heading}
                  </Text>
                  {mode[0] === "sandbox" ? <Banner tone="info">{t.courier.sandboxNote}</Banner> : null}
                  <ChoiceList
                    title={t.courier.shipWith}
                    name="mode"
                    choices={[
                      { label: t.courier.sandbox, value: "sandbox" },
                      { label: t.courier.account, value: "account" },
                    ]}
                    selected={mode}
                    onChange={setMode}
                  />
                  {mode[0] === "account" ? (
                    <FormLayout>
                      <Field name="apiKey" label={t.courier.apiKey} value="" error={errors.apiKey} helpText={settings.apiKeyHint ? fill(t.courier.apiKeySaved, { hint: settings.apiKeyHint }) : undefined} />
                      <Field name="secretKey" label={t.courier.secretKey} type="password" value="" error={errors.secretKey} helpText={settings.hasSecret ? t.courier.secretKeySaved : undefined} />
                      <Select
                        name="environment"
                        label={t.courier.environment}
                        options={[
                          { label: t.courier.test, value: "test" },
                          { label: t.courier.live, value: "live" },
                        ]}
                        value={environment}
                        onChange={setEnvironment}
                      />
                    </FormLayout>
                  ) : (
                    <input type="hidden" name="environment" value="test" />
                  )}
                  <Text as="h3" variant="headingSm">
                    {t.courier.limitsHeading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t.courier.limitsNote}
                  </Text>
                  <FormLayout>
                    <FormLayout.Group>
                      <Field name="courierCallsAtOnce" label={t.courier.callsAtOnce} type="number" value={settings.courierCallsAtOnce?.toString() ?? ""} error={errors.courierCallsAtOnce} helpText={fill(t.courier.declared, { value: settings.declaredCallLimits.atOnce })} />
                      <Field name="courierCallsPerSecond" label={t.courier.callsPerSecond} type="number" value={settings.courierCallsPerSecond?.toString() ?? ""} error={errors.courierCallsPerSecond} helpText={fill(t.courier.declared, { value: settings.declaredCallLimits.perSecond })} />
                    </FormLayout.Group>
                  </FormLayout>
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.warehouses.heading}
                  </Text>
                  {warehouses.map((warehouse) =>
                    warehouse.description ? (
                      <Text as="p" key={warehouse.id}>
                        {fill(t.warehouses.warehouse, { id: warehouse.id, description: warehouse.description })}
                      </Text>
                    ) : (
                      <Banner key={warehouse.id} tone="warning">
                        {fill(warehouse.problem === "not_found" ? t.warehouses.notFound : t.warehouses.unreachable, { id: warehouse.id })}
                      </Banner>
                    ),
                  )}
                  {/* On the sandbox its warehouses are known and picked by name; an own account's are entered by number, as the courier service lists none. */}
                  <WarehouseField
                    name="defaultWarehouseId"
                    label={mode[0] === "sandbox" ? t.warehouses.defaultChoice : t.warehouses.defaultId}
                    value={settings.defaultWarehouseId?.toString() ?? ""}
                    error={errors.defaultWarehouseId}
                    helpText={mode[0] === "sandbox" ? undefined : t.warehouses.accountHelp}
                    choices={mode[0] === "sandbox" ? sandboxWarehouses : null}
                    unset={t.warehouses.sandboxPrimary}
                  />
                  {locations.map((location) => (
                    <WarehouseField
                      key={location.id}
                      name={`location:${location.id}`}
                      label={fill(t.warehouses.forLocation, { location: location.name })}
                      value={settings.locationWarehouses[location.id]?.toString() ?? ""}
                      error={errors[`location:${location.id}`]}
                      helpText={[location.city, location.zip].filter(Boolean).join(" ")}
                      choices={mode[0] === "sandbox" ? sandboxWarehouses : null}
                      unset={t.warehouses.asDefault}
                    />
                  ))}
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.packages.heading}
                  </Text>
                  <InlineGrid columns={4} gap="300">
                    <Field name="packageLength" label={t.packages.length} value={String(settings.packageLength)} error={errors.packageLength} />
                    <Field name="packageBreadth" label={t.packages.breadth} value={String(settings.packageBreadth)} error={errors.packageBreadth} />
                    <Field name="packageHeight" label={t.packages.height} value={String(settings.packageHeight)} error={errors.packageHeight} />
                    <Field name="defaultWeightKg" label={t.packages.defaultWeight} value={String(settings.defaultWeightKg)} error={errors.defaultWeightKg} />
                  </InlineGrid>
                  <Text as="p" tone="subdued">
                    {t.packages.boxesNote}
                  </Text>
                  {[0, 1, 2].map((index) => {
                    const preset = settings.presets[index];
                    return (
                      <BlockStack key={index} gap="100">
                        <InlineGrid columns={5} gap="200">
                          <Field name={`preset${index}Name`} label={fill(t.packages.boxName, { number: formatCount(index + 1, language) })} value={preset?.name ?? ""} />
                          <Field name={`preset${index}Length`} label={t.packages.length} value={preset?.length.toString() ?? ""} />
                          <Field name={`preset${index}Breadth`} label={t.packages.breadth} value={preset?.breadth.toString() ?? ""} />
                          <Field name={`preset${index}Height`} label={t.packages.height} value={preset?.height.toString() ?? ""} />
                          <Field name={`preset${index}MaxWeightKg`} label={t.packages.upTo} value={preset?.maxWeightKg.toString() ?? ""} />
                        </InlineGrid>
                        {errors[`preset${index}`] ? <Text as="p" tone="critical">{errors[`preset${index}`]}</Text> : null}
                      </BlockStack>
                    );
                  })}
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.orders.heading}
                  </Text>
                  <InlineGrid columns={2} gap="300">
                    <Field name="codTag" label={t.orders.codTag} value={settings.codTag} error={errors.codTag} />
                    <Field name="prepaidTag" label={t.orders.prepaidTag} value={settings.prepaidTag} error={errors.prepaidTag} />
                  </InlineGrid>
                  <Checkbox label={t.orders.notify} checked={notify} onChange={setNotify} />
                  <input type="hidden" name="notifyCustomer" value={notify ? "on" : "off"} />
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.labels.heading}
                  </Text>
                  <Select
                    name="labelLayout"
                    label={t.labels.layout}
                    options={Object.values(LABEL_LAYOUTS).map((value) => ({ value, label: t.labels.layouts[value] }))}
                    value={layout}
                    onChange={setLayout}
                    error={layoutRefused ? fill(t.labels.chooseLayout, { first: LABEL_LAYOUTS.THERMAL_4X6, second: LABEL_LAYOUTS.A4_FOUR_UP }) : undefined}
                    helpText={t.labels.layoutHelp}
                  />
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {strings.cod.settings.heading}
                  </Text>
                  <Text as="p" tone="subdued">
                    {strings.cod.settings.explain}
                  </Text>
                  <Field
                    name="codConfirmHours"
                    label={strings.cod.settings.hours}
                    type="number"
                    value={String(codSettings.confirmHours)}
                    error={errors.codConfirmHours}
                    helpText={fill(strings.cod.settings.hoursHelp, { min: CONFIRM_HOURS.min, max: CONFIRM_HOURS.max })}
                  />
                  <ChoiceList
                    title={strings.cod.settings.silence}
                    name="codOnSilence"
                    choices={SILENCE_ACTIONS.map((value) => ({ label: strings.cod.settings.silenceChoices[value], value }))}
                    selected={onSilence}
                    onChange={setOnSilence}
                    error={errors.codOnSilence}
                  />
                  <TextField label={strings.cod.settings.snippet} value={confirmationSnippet} readOnly multiline={6} autoComplete="off" monospaced helpText={strings.cod.settings.snippetHelp} />
                </BlockStack>
              </Card>

              <TrackingPageCard contact={sellerContact} errors={errors} />

              <InlineStack align="end">
                <Button variant="primary" submit loading={saving}>
                  {t.save}
                </Button>
              </InlineStack>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Form>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
