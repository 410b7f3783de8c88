import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { NDR_EMAIL_FIELDS, SMTP_SECURITIES, USUAL_PORTS, type NdrEmailField, type SmtpSecurity } from "~/failed-deliveries/ndr-email-form";
import { getNdrEmail, saveNdrEmailSettings, stopNdrEmail, type NdrEmailDispatchView } from "~/failed-deliveries/ndr-email.server";
import type { SmtpFailureKind } from "~/failed-deliveries/smtp.server";
import { adminStrings, fill, plural, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { authenticate } from "~/shopify.server";

/**
 * The failed-delivery desk's e-mail hand-off: where the day's NDR instructions go, at which hour, and the merchant's
 * SMTP server, checked with a sign-in on save. The password is never sent to the browser: the page knows only that
 * one is saved.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session } = await authenticate.admin(request);
  const [shop, email] = await Promise.all([whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, admin))), getNdrEmail(session.shop)]);
  return json({ ...email, shopTimeZone: shop.ianaTimezone });
};

type Notice =
  | { id: "saved"; hour: number }
  | { id: "stopped" | "fields" | "password" | "unknownIntent" }
  | { id: "smtp"; failure: SmtpFailureKind; host: string; port: string };

interface ActionData {
  ok: boolean;
  notice: Notice;
  problems: NdrEmailField[];
  /** The same in English, for whoever reads the answer bare. */
  message: string;
}

const answer = (ok: boolean, notice: Notice, { problems = [], status = 200, message }: { problems?: NdrEmailField[]; status?: number; message?: string } = {}) =>
  json<ActionData>({ ok, notice, problems, message: message ?? noticeInWords(adminStrings("en").ndrEmail, notice) }, { status });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin, session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "stop") return answer(true, { id: "stopped" }, { status: (await stopNdrEmail(session.shop)) ? 200 : 404 });
  if (intent !== "save") return answer(false, { id: "unknownIntent" }, { status: 400 });
  const fields = Object.fromEntries(NDR_EMAIL_FIELDS.map((name) => [name, typeof form.get(name) === "string" ? String(form.get(name)) : undefined]));
  const shop = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, admin)));
  const saved = await saveNdrEmailSettings(session.shop, fields, shop.ianaTimezone);
  if (saved.ok) return answer(true, { id: "saved", hour: Number(fields.sendHour) });
  if (saved.kind === "fields") return answer(false, { id: "fields" }, { problems: saved.problems, status: 422 });
  if (saved.kind === "password") return answer(false, { id: "password" }, { problems: ["smtpPassword"], status: 422 });
  return answer(false, { id: "smtp", failure: saved.failure, host: String(fields.smtpHost ?? "").trim(), port: String(fields.smtpPort ?? "").trim() }, { status: 422, message: saved.message });
};

type Strings = AdminStrings["ndrEmail"];

function noticeInWords(t: Strings, notice: Notice): string {
  if (notice.id === "saved") return fill(t.notices.saved, { hour: notice.hour });
  if (notice.id === "smtp") return `${fill(t.smtp[notice.failure], { host: notice.host, port: notice.port })} ${t.notices.notSaved}`;
  return t.notices[notice.id];
}

function dayInWords(t: Strings, language: AdminLanguage, day: NdrEmailDispatchView, server: { host: string; port: number } | null): string {
  if (day.sentAt) return plural(language, t.days.sent, day.handedOff, { day: day.day });
  if (day.lastErrorKind) return plural(language, t.days.failing, day.attempts, { day: day.day, reason: fill(t.smtp[day.lastErrorKind], { host: server?.host ?? "", port: server?.port ?? "" }) });
  return fill(t.days.waiting, { day: day.day });
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export default function NdrEmailSettingsPage() {
  const { settings, dispatches, shopTimeZone } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.ndrEmail;
  const language = useAdminLanguage();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [values, setValues] = useState<Record<Exclude<NdrEmailField, "sendHour" | "smtpPort" | "smtpSecurity">, string> & { sendHour: string; smtpPort: string; smtpSecurity: SmtpSecurity }>({
    recipient: settings?.recipient ?? "",
    sendHour: String(settings?.sendHour ?? 18),
    smtpHost: settings?.smtpHost ?? "",
    smtpPort: String(settings?.smtpPort ?? USUAL_PORTS.starttls),
    smtpSecurity: settings?.smtpSecurity ?? "starttls",
    smtpUser: settings?.smtpUser ?? "",
    smtpPassword: "",
    fromAddress: settings?.fromAddress ?? "",
  });
  const set = (name: NdrEmailField) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const problem = (name: NdrEmailField) => (result && !result.ok && result.problems.includes(name) ? t.problems[name] : undefined);
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const save = () => submit({ intent: "save", locale: language, ...values }, { method: "post" });
  const chooseSecurity = (security: string) =>
    setValues((current) => {
      const next = security as SmtpSecurity;
      // The port follows the security while it is the usual one of the security before.
      const usual = Object.values(USUAL_PORTS).map(String).includes(current.smtpPort);
      return { ...current, smtpSecurity: next, smtpPort: usual ? String(USUAL_PORTS[next]) : current.smtpPort };
    });

  return (
    <Page title={t.page.title} subtitle={t.page.subtitle} backAction={{ content: t.page.back, url: "/app/failed-deliveries" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? (
              <Banner tone={result.ok ? "success" : "critical"}>
                <p role="status">{noticeInWords(t, result.notice)}</p>
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.form.where}
                </Text>
                <FormLayout>
                  <TextField label={t.form.recipient} type="email" value={values.recipient} onChange={set("recipient")} helpText={t.form.recipientHelp} error={problem("recipient")} autoComplete="email" maxLength={254} />
                  <Select
                    label={t.form.sendHour}
                    options={HOURS.map((hour) => ({ label: fill(t.form.hour, { hour: String(hour).padStart(2, "0") }), value: String(hour) }))}
                    value={values.sendHour}
                    onChange={set("sendHour")}
                    helpText={fill(t.form.sendHourHelp, { zone: settings?.timeZone ?? shopTimeZone })}
                    error={problem("sendHour")}
                  />
                </FormLayout>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.form.server}
                </Text>
                <Text as="p" tone="subdued">
                  {t.form.serverHelp}
                </Text>
                <FormLayout>
                  <FormLayout.Group>
                    <TextField label={t.form.smtpHost} value={values.smtpHost} onChange={set("smtpHost")} error={problem("smtpHost")} autoComplete="off" maxLength={253} />
                    <TextField label={t.form.smtpPort} type="number" min={1} max={65535} value={values.smtpPort} onChange={set("smtpPort")} error={problem("smtpPort")} autoComplete="off" />
                  </FormLayout.Group>
                  <Select label={t.form.smtpSecurity} options={SMTP_SECURITIES.map((security) => ({ label: t.form.securities[security], value: security }))} value={values.smtpSecurity} onChange={chooseSecurity} error={problem("smtpSecurity")} />
                  <TextField label={t.form.smtpUser} value={values.smtpUser} onChange={set("smtpUser")} error={problem("smtpUser")} autoComplete="username" maxLength={254} />
                  <TextField
                    label={t.form.smtpPassword}
                    type="password"
                    value={values.smtpPassword}
                    onChange={set("smtpPassword")}
                    helpText={settings?.hasPassword ? t.form.passwordKept : undefined}
                    error={problem("smtpPassword")}
                    autoComplete="new-password"
                    maxLength={256}
                  />
                  <TextField label={t.form.fromAddress} type="email" value={values.fromAddress} onChange={set("fromAddress")} error={problem("fromAddress")} autoComplete="email" maxLength={254} />
                </FormLayout>
                <InlineStack gap="300">
                  <Button variant="primary" loading={busy("save")} onClick={save}>
                    {t.form.save}
                  </Button>
                  {settings ? (
                    <Button tone="critical" loading={busy("stop")} onClick={() => submit({ intent: "stop", locale: language }, { method: "post" })}>
                      {t.form.stop}
                    </Button>
                  ) : null}
                </InlineStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t.days.heading}
              </Text>
              {dispatches.length === 0 ? (
                <Text as="p" tone="subdued">
                  {t.days.none}
                </Text>
              ) : (
                <BlockStack gap="100" as="ul">
                  {dispatches.map((day) => (
                    <li key={day.day}>
                      <Text as="span" tone={day.sentAt || !day.lastErrorKind ? undefined : "critical"}>
                        {dayInWords(t, language, day, settings && { host: settings.smtpHost, port: settings.smtpPort })}
                      </Text>
                    </li>
                  ))}
                </BlockStack>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
