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
import { FormSaveBar, useFormChanged } from "~/components/FormSaveBar";
import { TrackingPageCard } from "~/components/TrackingPageCard";
import { getDocumentSettings, rememberShopName, saveLabelLayout } from "~/documents/documents.server";
import { isLabelLayout, LABEL_LAYOUT_NAMES, LABEL_LAYOUTS } from "~/documents/label-layout";
import { describeWarehouses, saveSettingsForm, settingsForBrowser } from "~/settings/settings-form.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { listLocations } from "~/shopify/admin-orders.server";
import { getShopOverview } from "~/shopify/shop.server";
import { readSellerContact } from "~/tracking/seller-contact";
import { getSellerContact, saveSellerContact } from "~/tracking/seller.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const [settings, locations, warehouses, documents, sellerContact, shopOverview] = await Promise.all([
    settingsForBrowser(session.shop),
    whenShopifyAnswers(() => listLocations(admin)),
    describeWarehouses(session.shop),
    getDocumentSettings(session.shop),
    getSellerContact(session.shop),
    whenShopifyAnswers(() => getShopOverview(admin)),
  ]);
  // The tracking page names the shop as Shopify does; a rename reaches it when Settings is next opened.
  if (shopOverview.name !== documents.shopName) await rememberShopName(session.shop, shopOverview.name);
  return json({ settings, locations, warehouses, labelLayout: documents.labelLayout, sellerContact });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const locations = await whenShopifyAnswers(() => listLocations(admin));
  const form = await request.formData();
  // The label layout is the documents' own setting (app/documents/); a form without it keeps the one chosen.
  const labelLayout = form.get("labelLayout");
  if (labelLayout !== null && !isLabelLayout(labelLayout)) {
    return json({ ok: false as const, errors: { labelLayout: `Choose a label layout: ${Object.values(LABEL_LAYOUTS).join(" or ")}.` } }, { status: 422 });
  }
  // The tracking page's fields are checked first, so that nothing is saved while any field is wrong.
  const sellerContact = readSellerContact({ logoUrl: form.get("logoUrl")?.toString(), contactEmail: form.get("contactEmail")?.toString(), contactPhone: form.get("contactPhone")?.toString() });
  if (!sellerContact.ok) return json({ ok: false as const, errors: sellerContact.errors }, { status: 422 });
  const result = await saveSettingsForm(session.shop, form, locations.map((location) => location.id));
  if (result.ok && labelLayout !== null) await saveLabelLayout(session.shop, labelLayout);
  if (result.ok && form.has("contactEmail")) await saveSellerContact(session.shop, sellerContact.value);
  return json(result, { status: result.ok ? 200 : 422 });
};

function Field({ name, label, value, error, type = "text", helpText, autoComplete = "off" }: { name: string; label: string; value: string; error?: string; type?: "text" | "password" | "number"; helpText?: string; autoComplete?: string }) {
  const [current, setCurrent] = useState(value);
  return <TextField name={name} label={label} value={current} onChange={setCurrent} error={error} type={type} helpText={helpText} autoComplete={autoComplete} />;
}

export default function Settings() {
  const result = useActionData<typeof action>();
  const shopify = useAppBridge();
  useEffect(() => {
    if (result?.ok) shopify.toast.show("Settings saved");
  }, [result, shopify]);
  // Discard starts the form afresh from what is saved.
  const [generation, discard] = useReducer((count: number) => count + 1, 0);
  return <SettingsForm key={generation} onDiscard={discard} />;
}

function SettingsForm({ onDiscard }: { onDiscard: () => void }) {
  const { settings, locations, warehouses, labelLayout, sellerContact } = useLoaderData<typeof loader>();
  const [layout, setLayout] = useState<string>(labelLayout);
  const result = useActionData<typeof action>();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const saving = useNavigation().state === "submitting";
  const form = useRef<HTMLFormElement>(null);
  const { changed, onChange } = useFormChanged(form, result);
  const [mode, setMode] = useState<string[]>([settings.usesSandbox ? "sandbox" : "account"]);
  const [environment, setEnvironment] = useState(settings.environment);
  const [notify, setNotify] = useState(settings.notifyCustomer);

  return (
    <Page title="Settings">
      <FormSaveBar id="settings-save-bar" changed={changed} saving={saving} onSave={() => form.current?.requestSubmit()} onDiscard={onDiscard} />
      <Form method="post" ref={form} onChange={onChange}>
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              {result?.ok ? (
                <Banner tone="success" title="Settings saved">
                  {result.warehouses.map((warehouse) => (
                    <p key={warehouse.id}>
                      Warehouse {warehouse.id}: {warehouse.warehouse_name}, {warehouse.address_line_1}, {warehouse.city} {warehouse.pincode}
                    </p>
                  ))}
                </Banner>
              ) : null}
              {errors.form ? <Banner tone="critical" title="Settings not saved">{errors.form}</Banner> : null}
              {result && !result.ok && !errors.form ? (
                <Banner tone="critical" title="Settings not saved">
                  Fix the fields marked below; nothing was saved.
                </Banner>
              ) : null}

              <Card>
                <InlineStack align="space-between" blockAlign="center" gap="300">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      Auto-booking {settings.autoBooking ? "is on" : "is off"}
                    </Text>
                    <Text as="p" tone="subdued">
                      {settings.bookingRuleCount === 0 ? "No rules yet." : `${settings.bookingRuleCount === 1 ? "1 rule decides" : `${settings.bookingRuleCount} rules decide`} which new orders book themselves and with which courier.`}
                    </Text>
                  </BlockStack>
                  <Button url="/app/auto-booking">Edit rules</Button>
                </InlineStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Courier account
                  </Text>
                  {mode[0] === "sandbox" ? (
                    <Banner tone="info">
                      You are using Dakiya&apos;s sandbox courier service: rates, awbs and tracking are simulated and no parcel is picked up.
                      Enter your courier aggregator&apos;s API keys to ship for real.
                    </Banner>
                  ) : null}
                  <ChoiceList
                    title="Ship with"
                    name="mode"
                    choices={[
                      { label: "Dakiya sandbox (no account needed)", value: "sandbox" },
                      { label: "My courier aggregator account", value: "account" },
                    ]}
                    selected={mode}
                    onChange={setMode}
                  />
                  {mode[0] === "account" ? (
                    <FormLayout>
                      <Field name="apiKey" label="API key" value="" error={errors.apiKey} helpText={settings.apiKeyHint ? `Saved key ${settings.apiKeyHint}; leave empty to keep it.` : undefined} />
                      <Field name="secretKey" label="Secret key" type="password" value="" error={errors.secretKey} helpText={settings.hasSecret ? "A secret key is saved (encrypted); leave empty to keep it." : undefined} />
                      <Select
                        name="environment"
                        label="Environment"
                        options={[
                          { label: "Test (the aggregator's sandbox)", value: "test" },
                          { label: "Live", value: "live" },
                        ]}
                        value={environment}
                        onChange={setEnvironment}
                      />
                    </FormLayout>
                  ) : (
                    <input type="hidden" name="environment" value="test" />
                  )}
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Pickup warehouses
                  </Text>
                  {warehouses.map((warehouse) =>
                    warehouse.description ? (
                      <Text as="p" key={warehouse.id}>
                        Warehouse {warehouse.id}: {warehouse.description}
                      </Text>
                    ) : (
                      <Banner key={warehouse.id} tone="warning">
                        {warehouse.problem}
                      </Banner>
                    ),
                  )}
                  <Field
                    name="defaultWarehouseId"
                    label="Default pickup warehouse id"
                    value={settings.defaultWarehouseId?.toString() ?? ""}
                    error={errors.defaultWarehouseId}
                    helpText={mode[0] === "sandbox" ? "Empty uses the sandbox's primary warehouse (1, Bhiwandi). The sandbox also has 2 (Gurugram)." : "The warehouse id from your courier account."}
                  />
                  {locations.map((location) => (
                    <Field
                      key={location.id}
                      name={`location:${location.id}`}
                      label={`Warehouse for ${location.name}`}
                      value={settings.locationWarehouses[location.id]?.toString() ?? ""}
                      error={errors[`location:${location.id}`]}
                      helpText={[location.city, location.zip].filter(Boolean).join(" ")}
                    />
                  ))}
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Packages
                  </Text>
                  <InlineGrid columns={4} gap="300">
                    <Field name="packageLength" label="Length (cm)" value={String(settings.packageLength)} error={errors.packageLength} />
                    <Field name="packageBreadth" label="Breadth (cm)" value={String(settings.packageBreadth)} error={errors.packageBreadth} />
                    <Field name="packageHeight" label="Height (cm)" value={String(settings.packageHeight)} error={errors.packageHeight} />
                    <Field name="defaultWeightKg" label="Weight when unknown (kg)" value={String(settings.defaultWeightKg)} error={errors.defaultWeightKg} />
                  </InlineGrid>
                  <Text as="p" tone="subdued">
                    Boxes: the lightest box whose maximum weight fits the parcel is used; otherwise the package above.
                  </Text>
                  {[0, 1, 2].map((index) => {
                    const preset = settings.presets[index];
                    return (
                      <BlockStack key={index} gap="100">
                        <InlineGrid columns={5} gap="200">
                          <Field name={`preset${index}Name`} label={`Box ${index + 1} name`} value={preset?.name ?? ""} />
                          <Field name={`preset${index}Length`} label="Length (cm)" value={preset?.length.toString() ?? ""} />
                          <Field name={`preset${index}Breadth`} label="Breadth (cm)" value={preset?.breadth.toString() ?? ""} />
                          <Field name={`preset${index}Height`} label="Height (cm)" value={preset?.height.toString() ?? ""} />
                          <Field name={`preset${index}MaxWeightKg`} label="Up to (kg)" value={preset?.maxWeightKg.toString() ?? ""} />
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
                    Orders and notifications
                  </Text>
                  <InlineGrid columns={2} gap="300">
                    <Field name="codTag" label="Tag for cash-on-delivery orders" value={settings.codTag} error={errors.codTag} />
                    <Field name="prepaidTag" label="Tag for prepaid orders" value={settings.prepaidTag} error={errors.prepaidTag} />
                  </InlineGrid>
                  <Checkbox label="Email the customer Shopify's shipping confirmation with the tracking link" checked={notify} onChange={setNotify} />
                  <input type="hidden" name="notifyCustomer" value={notify ? "on" : "off"} />
                </BlockStack>
              </Card>

              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Shipping labels
                  </Text>
                  <Select
                    name="labelLayout"
                    label="Label layout"
                    options={Object.entries(LABEL_LAYOUT_NAMES).map(([value, label]) => ({ value, label }))}
                    value={layout}
                    onChange={setLayout}
                    error={errors.labelLayout}
                    helpText="4 × 6 in suits thermal label printers; A4 prints four labels a sheet on an office printer."
                  />
                </BlockStack>
              </Card>

              <TrackingPageCard contact={sellerContact} errors={errors} />

              <InlineStack align="end">
                <Button variant="primary" submit loading={saving}>
                  Save
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
