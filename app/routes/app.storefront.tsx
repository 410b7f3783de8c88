import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useReducer, useRef, useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { fill } from "~/locales/admin-language";
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
  const query = new URL(request.url).searchParams;
  const pincode = query.get("preview");
  let preview = null;
  if (pincode !== null) {
    // The preview answers as the storefront would in the admin's language, which the preview form sends as `locale`.
    const parsed = parseEstimateQuery(new URLSearchParams({ pincode, locale: query.get("locale") ?? "" }));
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

const weekdayKey = (day: (typeof WEEKDAY_NAMES)[number]) => day.toLowerCase() as Lowercase<typeof day>;

function Weekdays({ closed, error }: { closed: number[]; error?: string }) {
  const [current, setCurrent] = useState(closed);
  const t = useAdminStrings().storefront.estimate;
  return (
    <BlockStack gap="100">
      <Text as="p">{t.closedDays}</Text>
      <InlineStack gap="300">
        {WEEKDAY_NAMES.map((day, index) => (
          <Checkbox key={day} label={t.weekdays[weekdayKey(day)]} checked={current.includes(index)} onChange={(on) => setCurrent(on ? [...current, index] : current.filter((d) => d !== index))} />
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
  const strings = useAdminStrings();
  const t = strings.storefront;
  const language = useAdminLanguage();

  return (
    <Page title={strings.pages.storefront} subtitle={t.subtitle}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.ok ? <Banner tone="success" title={t.saved} /> : null}
            {result && !result.ok ? <Banner tone="critical" title={t.notSaved}>{t.fixFields}</Banner> : null}
            <FormSaveBar id="storefront-save-bar" changed={changed} saving={saving} onSave={() => form.current?.requestSubmit()} onDiscard={onDiscard} />
            <Form method="post" ref={form} onChange={onChange}>
              <input type="hidden" name="locale" value={language} />
              <BlockStack gap="400">
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      {t.estimate.heading}
                    </Text>
                    <Text as="p" tone="subdued">
                      {t.estimate.intro}
                    </Text>
                    <FormLayout>
                      <Toggle name="estimateEnabled" label={t.estimate.enabled} checked={settings.estimateEnabled} />
                      <FormLayout.Group>
                        <Field name="handlingDays" label={t.estimate.handlingDays} type="number" value={settings.handlingDays} error={errors.handlingDays} helpText={t.estimate.handlingDaysHelp} />
                        <Field name="cutoff" label={t.estimate.cutoff} type="time" value={settings.cutoff} error={errors.cutoff} helpText={t.estimate.cutoffHelp} />
                      </FormLayout.Group>
                      <Weekdays closed={settings.closedWeekdays} error={errors.closedWeekdays} />
                      <Field name="closedDates" label={t.estimate.holidays} value={settings.closedDates} error={errors.closedDates} helpText={t.estimate.holidaysHelp} />
                      <Toggle name="showCod" label={t.estimate.showCod} checked={settings.showCod} />
                      <FormLayout.Group>
                        <Field name="codMaxRupees" label={t.estimate.codMax} value={settings.codMaxRupees} error={errors.codMaxRupees} helpText={t.estimate.codMaxHelp} />
                        <Field name="defaultWeightGrams" label={t.estimate.defaultWeight} type="number" value={settings.defaultWeightGrams} error={errors.defaultWeightGrams} />
                      </FormLayout.Group>
                    </FormLayout>
                  </BlockStack>
                </Card>
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      {t.tracking.heading}
                    </Text>
                    <Toggle
                      name="trackOnShopDomain"
                      label={t.tracking.label}
                      checked={settings.trackOnShopDomain}
                      helpText={trackingBase ? fill(t.tracking.links, { base: trackingBase }) : t.tracking.unknownProxy}
                    />
                  </BlockStack>
                </Card>
                <InlineStack align="end">
                  <Button submit variant="primary" loading={busy}>
                    {t.save}
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
                  {t.preview.heading}
                </Text>
                <TextField name="preview" label={t.preview.pincode} value={pincode} onChange={setPincode} autoComplete="off" inputMode="numeric" maxLength={6} error={preview && !preview.ok ? preview.message : undefined} />
                <input type="hidden" name="locale" value={language} />
                <Button submit>{t.preview.check}</Button>
                {preview?.ok ? (
                  <BlockStack gap="100">
                    <InlineStack gap="200">
                      <Badge tone={preview.answer.status === "deliverable" ? "success" : preview.answer.status === "unserviceable" ? "critical" : "attention"}>{t.preview.status[preview.answer.status]}</Badge>
                      {settings.estimateEnabled ? null : <Badge>{t.preview.notShown}</Badge>}
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
