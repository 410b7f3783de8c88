import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRevalidator, useSearchParams, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, EmptyState, InlineGrid, InlineStack, Layout, Link, Page, Select, Tabs, Text, TextField } from "@shopify/polaris";
import { useEffect, useState, type KeyboardEvent } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { ReturnHistory } from "~/components/ShipmentHistory";
import { formatCount, formatDate, formatPaise } from "~/components/formatting";
import { listFailedDeliveries, readDeskFilter, type DeskRow } from "~/failed-deliveries/desk.server";
import { deskFigures, type WindowFigures } from "~/failed-deliveries/desk-figures.server";
import { getDeskRules } from "~/failed-deliveries/desk-rules.server";
import { DESK_VIEWS } from "~/failed-deliveries/desk-views";
import { decideOnDesk, saveDeskHours, UNKNOWN_DESK_INTENT, type DeskNotice } from "~/failed-deliveries/desk-actions.server";
import { FAILED_DELIVERY_STATE_TONES, type DeskDecision } from "~/failed-deliveries/failed-delivery-lifecycle";
import { whatsappChatUrl } from "~/failed-deliveries/whatsapp";
import { ADMIN_LOCALES, fill, plural, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import { authenticate } from "~/shopify.server";
import { getPublicSeller } from "~/tracking/seller.server";

/**
 * The failed-delivery desk: every parcel the courier could not deliver, oldest attempt first, with the shopper's
 * answer and the merchant's decision — per parcel or for the parcels selected — and what the courier did after it.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const filter = readDeskFilter(new URL(request.url).searchParams);
  const [desk, seller, figures, rules] = await Promise.all([listFailedDeliveries(session.shop, filter), getPublicSeller(session.shop), deskFigures(session.shop), getDeskRules(session.shop)]);
  // The search itself is not sent back: the page reads it from its own address.
  return json({ ...desk, view: filter.view, payment: filter.payment, shopName: seller.name, figures, ruleCount: rules.length });
};

type ActionData = { ok: boolean; notice: DeskNotice; message: string };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const answer = intent === "decide" ? await decideOnDesk(session.shop, form) : intent === "settings" ? await saveDeskHours(session.shop, form) : UNKNOWN_DESK_INTENT;
  return json<ActionData>(answer, { status: answer.ok ? 200 : intent === "decide" || intent === "settings" ? 422 : 400 });
};

type DeskStrings = AdminStrings["failedDeliveries"];

function noticeInWords(t: DeskStrings, language: AdminLanguage, notice: DeskNotice): string {
  if (notice.id === "decided") return [plural(language, t.notices.decided, notice.decided), notice.refused > 0 ? plural(language, t.notices.refused, notice.refused) : ""].filter(Boolean).join(" ");
  return t.notices[notice.id];
}

const DECISIONS: readonly DeskDecision[] = ["reattempt", "rto", "call"];

export default function FailedDeliveriesDesk() {
  const { rows, waiting, counts, view, payment, returnAfterHours, shopName, figures, ruleCount } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const t = strings.failedDeliveries;
  const language = useAdminLanguage();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(searchParams.get("q") ?? "");
  const [selected, setSelected] = useState<number[]>([]);
  const [remarks, setRemarks] = useState("");
  const [hours, setHours] = useState(String(returnAfterHours));
  const revalidator = useRevalidator();
  const [downloading, setDownloading] = useState<"idle" | "running" | "failed">("idle");
  // The file is made by the server (each row marked handed off as it goes in); the browser saves what arrives.
  const downloadInstructions = async () => {
    setDownloading("running");
    try {
      const response = await fetch("/app/failed-deliveries/instructions", { method: "POST" });
      if (!response.ok) throw new Error(String(response.status));
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = `ndr-instructions-${new Date().toISOString().slice(0, 10)}.csv`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDownloading("idle");
      revalidator.revalidate();
    } catch {
      setDownloading("failed");
    }
  };
  useEffect(() => setSelected((current) => current.filter((id) => rows.some((row) => row.shipmentId === id) || waiting.some((row) => row.shipmentId === id))), [rows, waiting]);
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearchParams(next);
  };
  const searchNow = (event?: KeyboardEvent) => {
    event?.preventDefault();
    setParam("q", search.trim());
  };
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const decide = (shipmentIds: readonly number[], decision: DeskDecision) => submit({ intent: "decide", locale: language, decision, remarks, shipmentIds: shipmentIds.join(",") }, { method: "post" });
  const tabs = DESK_VIEWS.map((id) => ({ id, content: `${t.views[id]} (${counts[id]})` }));
  const toggle = (id: number, on: boolean) => setSelected((current) => (on ? [...current, id] : current.filter((other) => other !== id)));

  return (
    <Page title={t.page.title} subtitle={t.page.subtitle} primaryAction={{ content: t.page.downloadInstructions, onAction: downloadInstructions, loading: downloading === "running", helpText: t.page.instructionsHelp }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result ? <Banner tone={result.ok ? "success" : "warning"}>{noticeInWords(t, language, result.notice)}</Banner> : null}
            {downloading === "failed" ? <Banner tone="critical">{t.page.instructionsFailed}</Banner> : null}
            <DeskFigures current={figures.current} previous={figures.previous} />
            <Tabs tabs={tabs} selected={Math.max(0, DESK_VIEWS.indexOf(view))} onSelect={(index) => setParam("view", DESK_VIEWS[index]!)} />
            <div role="search" aria-label={t.filters.search} onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT" && searchNow(event)}>
              <InlineStack gap="300" blockAlign="end">
                <TextField label={t.filters.search} placeholder={t.filters.searchPlaceholder} value={search} onChange={setSearch} onBlur={() => searchNow()} autoComplete="off" maxLength={64} clearButton onClearButtonClick={() => { setSearch(""); setParam("q", ""); }} />
                <Select
                  label={t.filters.payment}
                  options={[
                    { label: t.filters.anyPayment, value: "" },
                    { label: t.filters.cod, value: "cod" },
                    { label: t.filters.prepaid, value: "prepaid" },
                  ]}
                  value={payment ?? ""}
                  onChange={(value) => setParam("payment", value)}
                />
              </InlineStack>
            </div>
            {rows.length === 0 && waiting.length === 0 ? (
              <Card>
                <EmptyState heading={t.empty.heading} image="" action={searchParams.get("q") || payment ? { content: t.filters.clear, onAction: () => { setSearch(""); setSearchParams(new URLSearchParams(view === "decide" ? {} : { view })); } } : undefined}>
                  <p>{t.empty.text}</p>
                </EmptyState>
              </Card>
            ) : (
              <>
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      {t.decide.heading}
                    </Text>
                    <Text as="p" tone="subdued" id="desk-selected">
                      {plural(language, t.decide.selected, selected.length)}
                    </Text>
                    <TextField label={t.decide.remarks} helpText={t.decide.remarksHelp} value={remarks} onChange={setRemarks} autoComplete="off" maxLength={200} />
                    <InlineStack gap="200">
                      {DECISIONS.map((decision) => (
                        <Button key={decision} disabled={selected.length === 0} loading={busy("decide")} onClick={() => decide(selected, decision)} variant={decision === "reattempt" ? "primary" : undefined}>
                          {t.decisions[decision]}
                        </Button>
                      ))}
                    </InlineStack>
                  </BlockStack>
                </Card>
                {rows.length > 0 ? (
                  <Card>
                    <BlockStack gap="500" as="ul">
                      {rows.map((row) => (
                        <DeskParcel key={row.shipmentId} row={row} shopName={shopName} selected={selected.includes(row.shipmentId)} onSelect={(on) => toggle(row.shipmentId, on)} onDecide={(decision) => decide([row.shipmentId], decision)} />
                      ))}
                    </BlockStack>
                  </Card>
                ) : null}
                {waiting.length > 0 ? (
                  <Card>
                    <BlockStack gap="400">
                      <BlockStack gap="100">
                        <Text as="h2" variant="headingMd">
                          {`${t.waiting.heading} (${formatCount(waiting.length, language)})`}
                        </Text>
                        <Text as="p" tone="subdued">
                          {t.waiting.help}
                        </Text>
                      </BlockStack>
                      <BlockStack gap="500" as="ul">
                        {waiting.map((row) => (
                          <DeskParcel key={row.shipmentId} row={row} shopName={shopName} selected={selected.includes(row.shipmentId)} onSelect={(on) => toggle(row.shipmentId, on)} onDecide={(decision) => decide([row.shipmentId], decision)} />
                        ))}
                      </BlockStack>
                    </BlockStack>
                  </Card>
                ) : null}
              </>
            )}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.settings.heading}
              </Text>
              <TextField label={t.settings.returnAfterHours} type="number" min={1} max={168} value={hours} onChange={setHours} helpText={t.settings.help} autoComplete="off" />
              <InlineStack>
                <Button loading={busy("settings")} onClick={() => submit({ intent: "settings", locale: language, returnAfterHours: hours }, { method: "post" })}>
                  {t.settings.save}
                </Button>
              </InlineStack>
              <Text as="h3" variant="headingSm">
                {t.settings.rulesHeading}
              </Text>
              <Text as="p" tone="subdued">
                {ruleCount === 0 ? t.settings.rulesNone : plural(language, t.settings.rulesSome, ruleCount)}
              </Text>
              <InlineStack>
                <Button url="/app/failed-deliveries/rules">{t.settings.editRules}</Button>
              </InlineStack>
              <Link url="/app/failed-deliveries/email">{strings.ndrEmail.deskLink}</Link>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function DeskParcel({ row, shopName, selected, onSelect, onDecide }: { row: DeskRow; shopName: string; selected: boolean; onSelect: (on: boolean) => void; onDecide: (decision: DeskDecision) => void }) {
  const strings = useAdminStrings();
  const t = strings.failedDeliveries;
  const language = useAdminLanguage();
  const amount = row.amountPaise === null ? "" : formatPaise(row.amountPaise);
  const chat = whatsappChatUrl({ phone: row.answer?.phone ?? row.mobile, language: row.answer?.language ?? "en", shopName, orderName: row.name, reason: row.reason ?? "", templates: t.whatsapp });
  const named = { name: row.name };
  return (
    <BlockStack gap="200" as="li">
      <InlineStack gap="300" blockAlign="center" wrap>
        {row.awaitingAction ? <Checkbox label={fill(t.row.select, named)} labelHidden checked={selected} onChange={onSelect} /> : null}
        <Text as="h3" variant="headingSm">
          {row.name}
        </Text>
        <Badge tone={FAILED_DELIVERY_STATE_TONES[row.state]}>{row.state === "waiting" ? t.waiting.badge : t.views[row.state === "open" || row.state === "answered" ? "decide" : row.state === "decided" ? "handoff" : "handed_off"]}</Badge>
        <Text as="span">{plural(language, t.row.attempts, row.attempts)}</Text>
        {row.courierName ? <Text as="span" tone="subdued">{`${row.courierName} · ${row.awb ?? ""}`}</Text> : null}
      </InlineStack>
      {row.reason ? <Text as="p">{fill(t.row.reason, { reason: row.reason })}</Text> : null}
      <Text as="p" tone="subdued">
        {[
          row.hoursSince !== null ? fill(t.row.since, { hours: row.hoursSince }) : null,
          row.hoursLeft !== null ? (row.hoursLeft >= 0 ? fill(t.row.left, { hours: row.hoursLeft }) : fill(t.row.overdue, { hours: -row.hoursLeft })) : null,
          fill(row.paymentMode === "cod" ? t.row.cod : t.row.prepaid, { amount }),
          row.pincode ? fill(t.row.pincode, { pincode: row.pincode }) : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </Text>
      <ShopperAnswer row={row} />
      {row.decision ? <Text as="p">{fill(t.row.decision, { decision: t.decisions[row.decision] })}{row.remarks ? ` — ${row.remarks}` : ""}</Text> : null}
      {row.decision && row.rule ? <Text as="p" tone="subdued">{fill(t.row.decidedByRule, { rule: row.rule })}</Text> : null}
      {row.state === "waiting" && row.rule && row.waitOtherwise ? <RuleWait rule={row.rule} hoursLeft={row.waitHoursLeft} otherwise={row.waitOtherwise} /> : null}
      {row.orderUpdatedAt ? <Text as="p" tone="subdued">{t.row.orderNoted}</Text> : null}
      {row.handedOffAt ? <Text as="p">{fill(t.row.handedOff, { date: formatDate(row.handedOffAt, undefined, language) })} {t.row.courierActions[row.courierAction]}</Text> : null}
      {row.raisedAgain ? <Text as="p" tone="critical">{t.row.raisedAgain}</Text> : null}
      {!row.handedOffAt && !row.awaitingAction ? <Text as="p">{t.row.courierActions[row.courierAction === "none" ? "reattempting" : row.courierAction]}</Text> : null}
      {row.awaitingAction ? (
        <InlineStack gap="200">
          <Button size="slim" onClick={() => onDecide("reattempt")} accessibilityLabel={fill(t.decide.reattemptLabel, named)}>
            {t.decisions.reattempt}
          </Button>
          <Button size="slim" onClick={() => onDecide("rto")} accessibilityLabel={fill(t.decide.rtoLabel, named)}>
            {t.decisions.rto}
          </Button>
          <Button size="slim" onClick={() => onDecide("call")} accessibilityLabel={fill(t.decide.callLabel, named)}>
            {t.decisions.call}
          </Button>
          {chat ? (
            <Link url={chat} target="_blank" accessibilityLabel={fill(t.row.whatsappLabel, named)}>
              {t.row.whatsapp}
            </Link>
          ) : null}
        </InlineStack>
      ) : null}
      {row.history.length > 0 ? <ReturnHistory entries={row.history} heading={t.row.history} what="failedDelivery" /> : null}
    </BlockStack>
  );
}

function ShopperAnswer({ row }: { row: DeskRow }) {
  const t = useAdminStrings().failedDeliveries;
  const language = useAdminLanguage();
  const answer = row.answer;
  if (!answer) return <Text as="p" tone="subdued">{t.row.noAnswer}</Text>;
  if (answer.kind === "cancel") return <Text as="p">{t.row.answerCancel}</Text>;
  const slot = answer.preferredSlot === "morning" || answer.preferredSlot === "afternoon" || answer.preferredSlot === "evening" ? t.slots[answer.preferredSlot] : "";
  const day = answer.preferredDate ? new Date(`${answer.preferredDate}T12:00:00+05:30`).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { weekday: "short", day: "numeric", month: "short", timeZone: "Asia/Kolkata" }) : "";
  return (
    <BlockStack gap="050">
      <Text as="p">{fill(t.row.answerAgain, { date: day, slot })}</Text>
      {answer.phone ? <Text as="p">{fill(t.row.phone, { phone: answer.phone })}</Text> : null}
      {answer.alternatePhone ? <Text as="p">{fill(t.row.alternatePhone, { phone: answer.alternatePhone })}</Text> : null}
      {answer.addressLine ? <Text as="p">{fill(t.row.addressLine, { address: answer.addressLine })}</Text> : null}
      {answer.landmark ? <Text as="p">{fill(t.row.landmark, { landmark: answer.landmark })}</Text> : null}
    </BlockStack>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";

/** A rule's wait for the shopper's answer: the hours left, and what it decides if they run out. */
function RuleWait({ rule, hoursLeft, otherwise }: { rule: string; hoursLeft: number | null; otherwise: "reattempt" | "rto" }) {
  const t = useAdminStrings().failedDeliveries;
  const language = useAdminLanguage();
  const values = { rule, hours: formatCount(hoursLeft ?? 0, language), otherwise: t.decisions[otherwise] };
  return <Text as="p">{hoursLeft ? fill(t.row.waiting, values) : fill(t.row.waitingOver, values)}</Text>;
}

/** The desk's headline: how failed deliveries end, and how soon they are decided, beside the 30 days before. */
function DeskFigures({ current, previous }: { current: WindowFigures; previous: WindowFigures }) {
  const t = useAdminStrings().failedDeliveries.figures;
  const language = useAdminLanguage();
  const share = (figures: WindowFigures) =>
    figures.deliveredShare === null ? t.none : fill(t.deliveredValue, { share: figures.deliveredShare.toLocaleString(ADMIN_LOCALES[language], { style: "percent", maximumFractionDigits: 0 }), settled: formatCount(figures.settled, language) });
  const median = (figures: WindowFigures) => (figures.medianHours === null ? t.noneDecided : fill(t.medianValue, { hours: figures.medianHours.toLocaleString(ADMIN_LOCALES[language], { maximumFractionDigits: 1 }) }));
  const figure = (label: string, value: string, before: string, help: string) => (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      <Text as="p" variant="headingLg">
        {value}
      </Text>
      <Text as="p" tone="subdued">
        {fill(t.previous, { value: before })}
      </Text>
      <Text as="p" tone="subdued" variant="bodySm">
        {help}
      </Text>
    </BlockStack>
  );
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="baseline">
          <Text as="h2" variant="headingMd">
            {t.heading}
          </Text>
          <Text as="span" tone="subdued">
            {t.window}
          </Text>
        </InlineStack>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
          {figure(t.delivered, share(current), share(previous), fill(t.deliveredHelp, { open: formatCount(current.parcels - current.settled, language) }))}
          {figure(t.median, median(current), median(previous), fill(t.medianHelp, { decided: formatCount(current.decided, language) }))}
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}
