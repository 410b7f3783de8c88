import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useReducer, useRef, useState } from "react";
import { FormSaveBar, useFormChanged } from "~/components/FormSaveBar";
import { authenticate } from "~/shopify.server";
import { parseEstimateQuery } from "~/storefront/delivery-estimate";
import { deliveryEstimates } from "~/storefront/delivery-estimate.server";
import { formatCutoff, parseStorefrontForm, WEEKDAY_NAMES } from "~/storefront/storefront-form";
import { getShopOverview } from "~/shopify/shop.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { getStorefrontSettings, rememberPrimaryDomain, saveStorefrontSettings } from "~/storefront/storefront-settings.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const settings = await getStorefrontSettings(session.shop);
  // Tracking links on the shop's domain use its primary domain, which only an admin session can read: kept here.
  // Shopify busy or down: the page still opens, with the domain last read.
  const primaryDomain = await getShopOverview(shopAdmin(session.shop, admin)).then(
    (overview) => overview.primaryDomain.host,
    () => null,
  );
  if (primaryDomain && (await rememberPrimaryDomain(session.shop, primaryDomain, settings))) settings.primaryDomainHost = primaryDomain.toLowerCase();
  const pincode = new URL(request.url).searchParams.get("preview");
  let preview = null;
  if (pincode !== null) {
    const parsed = parseEstimateQuery(new URLSearchParams({ pincode }));
    preview = parsed.ok ? { ok: true as const, answer: await deliveryEstimates.estimate(session.shop, parsed.query, { evenWhenOff: true }) } : { ok: false as const, message: parsed.message, pincode: pincode.slice(0, 20) };
  }
  return json({
    shop: session.shop,
    settings: {
      estimateEnabled: settings.estimateEnabled,
      handlingDays: String(settings.handlingDays),
      cutoff: formatCutoff(settings.cutoffMinutes),
      closedWeekdays: settings.closedWeekdays,
      closedDates: settings.closedDates.join(", "),
      showCod: settings.showCod,
      codMaxRupees: settings.codMaxPaise === null ? "" : String(settings.codMaxPaise / 100),
      defaultWeightGrams: String(settings.defaultWeightGrams),
      trackOnShopDomain: settings.trackOnShopDomain,
      proxyPathPrefix: settings.proxyPathPrefix,
      trackingHost: settings.primaryDomainHost ?? session.shop,
    },
    preview,
  });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = parseStorefrontForm(await request.formData());
  if (!parsed.ok) return json(parsed, { status: 422 });
  await saveStorefrontSettings(session.shop, parsed.values);
  deliveryEstimates.forgetShop(session.shop);
  return json({ ok: true as const, errors: {} as Record<string, string> });
};

function Field({ name, label, value, error, helpText, type = "text" }: { name: string; label: string; value: string; error?: string; helpText?: string; type?: "text" | "number" | "time" }) {
  const [current, setCurrent] = useState(value);
  return <TextField name={name} label={label} value={current} onChange={setCurrent} error={error} helpText={helpText} type={type} autoComplete="off" />;
}

function Toggle({ name, label, checked, helpText }: { name: string; label: string; checked: boolean; helpText?: string }) {
  const [current, setCurrent] = useState(checked);
  return (
    <>
      <Checkbox label={label} checked={current} onChange={setCurrent} helpText={helpText} />
      {current ? <input type="hidden" name={name} value="on" /> : null}
    </>
  );
}

function Weekdays({ closed, error }: { closed: number[]; error?: string }) {
  const [current, setCurrent] = useState(closed);
  return (
    <BlockStack gap="100">
      <Text as="p">Days nothing leaves the warehouse</Text>
      <InlineStack gap="300">
        {WEEKDAY_NAMES.map((day, index) => (
          <Checkbox key={day} label={day} checked={current.includes(index)} onChange={(on) => setCurrent(on ? [...current, index] : current.filter((d) => d !== index))} />
        ))}
      </InlineStack>
      {current.map((day) => (
        <input key={day} type="hidden" name="closedWeekdays" value={day} />
      ))}
      {error ? <Text as="p" tone="critical">{error}</Text> : null}
    </BlockStack>
  );
}

export default function StorefrontSettings() {
  // Discard starts the form afresh from what is saved.
  const [generation, discard] = useReducer((count: number) => count + 1, 0);
  return <StorefrontForm key={generation} onDiscard={discard} />;
}

function StorefrontForm({ onDiscard }: { onDiscard: () => void }) {
  const { settings, preview } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const saving = navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post";
  const form = useRef<HTMLFormElement>(null);
  const { changed, onChange } = useFormChanged(form, result);
  const [pincode, setPincode] = useState(preview?.ok ? preview.answer.pincode : (preview?.pincode ?? ""));
  const trackingBase = settings.proxyPathPrefix ? `https://${settings.trackingHost}${settings.proxyPathPrefix}/track/` : null;

  return (
    <Page title="Storefront" subtitle="What shoppers see before they buy and after they ship">
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.ok ? <Banner tone="success" title="Storefront settings saved" /> : null}
            {result && !result.ok ? <Banner tone="critical" title="Storefront settings not saved">Fix the fields marked below; nothing was saved.</Banner> : null}
            <FormSaveBar id="storefront-save-bar" changed={changed} saving={saving} onSave={() => form.current?.requestSubmit()} onDiscard={onDiscard} />
            <Form method="post" ref={form} onChange={onChange}>
              <BlockStack gap="400">
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      Delivery estimate
                    </Text>
                    <Text as="p" tone="subdued">
                      Add the Delivery estimate block to the product page in the theme editor. Shoppers type their PIN code and see when it arrives and whether cash on delivery is available.
                    </Text>
                    <FormLayout>
                      <Toggle name="estimateEnabled" label="Show delivery estimates on the storefront" checked={settings.estimateEnabled} />
                      <FormLayout.Group>
                        <Field name="handlingDays" label="Handling days" type="number" value={settings.handlingDays} error={errors.handlingDays} helpText="Working days from the order to dispatch" />
                        <Field name="cutoff" label="Daily cut-off (India time)" type="time" value={settings.cutoff} error={errors.cutoff} helpText="Orders after it count from the next working day" />
                      </FormLayout.Group>
                      <Weekdays closed={settings.closedWeekdays} error={errors.closedWeekdays} />
                      <Field name="closedDates" label="Holidays" value={settings.closedDates} error={errors.closedDates} helpText="Dates as YYYY-MM-DD, separated by commas" />
                      <Toggle name="showCod" label="Say whether cash on delivery is available" checked={settings.showCod} />
                      <FormLayout.Group>
                        <Field name="codMaxRupees" label="No cash on delivery above (₹)" value={settings.codMaxRupees} error={errors.codMaxRupees} helpText="Empty: no limit" />
                        <Field name="defaultWeightGrams" label="Weight to quote when a product has none (g)" type="number" value={settings.defaultWeightGrams} error={errors.defaultWeightGrams} />
                      </FormLayout.Group>
                    </FormLayout>
                  </BlockStack>
                </Card>
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      Tracking on your shop's domain
                    </Text>
                    <Toggle
                      name="trackOnShopDomain"
                      label="Link new fulfillments to the tracking page on your shop's domain"
                      checked={settings.trackOnShopDomain}
                      helpText={
                        trackingBase
                          ? `New tracking links: ${trackingBase}{awb}. Links already sent keep working.`
                          : "Your store's proxy path is not known yet: it is learnt from the first shopper's visit through it. Until then links point at Dakiya's own tracking page."
                      }
                    />
                  </BlockStack>
                </Card>
                <InlineStack align="end">
                  <Button submit variant="primary" loading={busy}>
                    Save
                  </Button>
                </InlineStack>
              </BlockStack>
            </Form>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <Form method="get">
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Preview
                </Text>
                <TextField name="preview" label="PIN code" value={pincode} onChange={setPincode} autoComplete="off" inputMode="numeric" maxLength={6} error={preview && !preview.ok ? preview.message : undefined} />
                <Button submit>Check</Button>
                {preview?.ok ? (
                  <BlockStack gap="100">
                    <InlineStack gap="200">
                      <Badge tone={preview.answer.status === "deliverable" ? "success" : preview.answer.status === "unserviceable" ? "critical" : "attention"}>{preview.answer.status}</Badge>
                      {settings.estimateEnabled ? null : <Badge>Not shown to shoppers yet</Badge>}
                    </InlineStack>
                    <Text as="p" variant="headingSm">
                      {preview.answer.message}
                    </Text>
                    {preview.answer.codMessage ? <Text as="p">{preview.answer.codMessage}</Text> : null}
                  </BlockStack>
                ) : null}
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
