import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, DataTable, EmptyState, IndexTable, InlineGrid, InlineStack, Layout, Link, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { formatCount, formatPaise } from "~/components/formatting";
import { ListPages } from "~/components/ListPages";
import { StatementUpload } from "~/components/StatementUpload";
import { downloadFile } from "~/components/downloads";
import { fill, plural } from "~/locales/admin-language";
import { legacyIdOf } from "~/booking/overrides";
import { getReconciliationSettings, ledgerCouriers, ledgerTotals, listLedger, listRefusedShopifyPayments, listStatements } from "~/reconciliation/cod-ledger.server";
import { LEDGER_STATES, readLedgerFilter } from "~/reconciliation/ledger-filter";
import { readReconciliationChoices } from "~/reconciliation/reconciliation-choices";
import { retryShopifyPayment, saveReconciliationChoices } from "~/reconciliation/reconciliation-records.server";
import { shipsWithSandbox } from "~/reconciliation/sandbox-statements.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { rowIdOf } from "~/security/row-id";

const PAGE_SIZE = 50;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const { filter, issues } = readLedgerFilter(params);
  const page = Math.min(2_000, Math.max(1, Math.trunc(Number(params.get("page"))) || 1));
  const [{ ianaTimezone: timeZone }, settings] = await Promise.all([whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify))), getReconciliationSettings(session.shop)]);
  const query = { shop: session.shop, filter: issues.length > 0 ? {} : filter, timeZone, now: new Date(), expectedDays: settings.expectedRemittanceDays };
  const [ledger, totals, couriers, statements, refusedPayments, sandbox] = await Promise.all([
    listLedger(query, { take: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE }),
    ledgerTotals(query),
    ledgerCouriers(session.shop),
    listStatements(session.shop, "remittance"),
    listRefusedShopifyPayments(session.shop),
    shipsWithSandbox(session.shop),
  ]);
  const filtered = Object.keys(query.filter).length > 0;
  return json({ ledger: ledger.rows, more: ledger.more, page, totals, couriers, statements, refusedPayments, sandbox, settings, timeZone, filtered, issues });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  if (form.get("intent") === "retry-payment") {
    const paymentId = rowIdOf(form.get("paymentId"));
    const retried = paymentId !== null && (await retryShopifyPayment(session.shop, paymentId));
    return json({ intent: "retry-payment" as const, ok: retried }, { status: retried ? 200 : 404 });
  }
  const read = readReconciliationChoices(form);
  if (!read.ok) return json({ intent: "settings" as const, ok: false }, { status: 422 });
  await saveReconciliationChoices(session.shop, read.choices);
  return json({ intent: "settings" as const, ok: true });
};

const STATE_TONES = { awaiting: undefined, short: "warning", remitted: "success", over: "attention" } as const;
const PAYMENT_TONES = { pending: "info", recorded: "success", already_paid: "success", refused: "critical" } as const;

export default function CodRemittance() {
  const { ledger, more, page, totals, couriers, statements, refusedPayments, sandbox, settings, timeZone, filtered, issues } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const strings = useAdminStrings();
  const t = strings.reconciliation.cod;
  const language = useAdminLanguage();
  const shopify = useAppBridge();
  const navigation = useNavigation();
  const retry = useFetcher<typeof action>();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(searchParams.get("q") ?? "");
  const [days, setDays] = useState(String(settings.expectedRemittanceDays));
  const [markPaid, setMarkPaid] = useState(settings.markPaidInShopify);
  const [trouble, setTrouble] = useState<"export" | "sandbox" | null>(null);
  const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { timeZone, day: "numeric", month: "short", year: "numeric" }) : "—");

  useEffect(() => {
    if (result?.intent === "settings" && result.ok) shopify.toast.show(t.settings.saved);
  }, [result, shopify, t.settings.saved]);
  useEffect(() => {
    if (retry.data?.ok) shopify.toast.show(t.refusedPayments.retried);
  }, [retry.data, shopify, t.refusedPayments.retried]);

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete("page");
    setSearchParams(next);
  };
  const toPage = (to: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(to));
    setSearchParams(next);
  };
  const exportCsv = async () => setTrouble((await downloadFile("/app/cod/export", new URLSearchParams(searchParams), `cod-ledger-${new Date().toISOString().slice(0, 10)}.csv`)) ? null : "export");
  const sampleStatement = async () => setTrouble((await downloadFile("/app/sandbox-statement", new URLSearchParams({ kind: "remittance" }), "sandbox-cod-remittance.csv")) ? null : "sandbox");
  const stateOptions = [{ label: t.filters.all, value: "" }, ...LEDGER_STATES.map((state) => ({ label: t.filters[state], value: state }))];

  return (
    <Page title={strings.pages.cod} secondaryActions={[{ content: t.export, onAction: () => void exportCsv(), disabled: ledger.length === 0 }]}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p" tone="subdued">
              {t.intro}
            </Text>
            {trouble === "export" ? <Banner tone="critical">{t.exportFailed}</Banner> : null}
            {trouble === "sandbox" ? <Banner tone="critical">{t.sandbox.failed}</Banner> : null}
            {issues.length > 0 ? <Banner tone="warning">{issues.map((issue) => t.filters.problems[issue]).join(" ")}</Banner> : null}
            {sandbox ? (
              <Banner tone="info" action={{ content: t.sandbox.action, onAction: () => void sampleStatement() }}>
                {t.sandbox.text}
              </Banner>
            ) : null}
            {refusedPayments.length > 0 ? (
              <Banner tone="critical" title={t.refusedPayments.heading}>
                <BlockStack gap="200">
                  {refusedPayments.map((payment) => (
                    <InlineStack key={payment.id} gap="300" blockAlign="center">
                      <Text as="span">{fill(t.refusedPayments.line, { parcel: payment.parcelName, amount: formatPaise(payment.amountPaise), reference: payment.reference, detail: payment.detail ?? "" })}</Text>
                      <Button onClick={() => retry.submit({ intent: "retry-payment", paymentId: String(payment.id) }, { method: "post" })} loading={retry.state !== "idle"}>
                        {t.refusedPayments.retry}
                      </Button>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Banner>
            ) : null}
            <StatementUpload kind="remittance" uploadUrl="/app/cod/upload" remembered={settings.remittanceColumns} statementUrl={(id) => `/app/cod/statements/${id}`} timeZone={timeZone} />
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.totals.heading}
                </Text>
                <InlineGrid columns={{ xs: 2, md: 5 }} gap="300">
                  {(
                    [
                      [t.totals.expected, totals.all.expectedPaise, plural(language, t.totals.parcels, totals.all.parcels)],
                      [t.totals.remitted, totals.all.remittedPaise, ""],
                      [t.totals.outstanding, totals.all.outstandingPaise, ""],
                      [t.totals.overdue, totals.all.overduePaise, plural(language, t.totals.overdueParcels, totals.all.overdueParcels, { days: settings.expectedRemittanceDays })],
                      [t.totals.over, totals.all.overPaise, ""],
                    ] as const
                  ).map(([label, paise, note]) => (
                    <BlockStack key={label} gap="100">
                      <Text as="h3" variant="headingSm" tone="subdued">
                        {label}
                      </Text>
                      <Text as="p" variant="headingLg">
                        {formatPaise(paise)}
                      </Text>
                      {note ? (
                        <Text as="p" variant="bodySm" tone="subdued">
                          {note}
                        </Text>
                      ) : null}
                    </BlockStack>
                  ))}
                </InlineGrid>
                <Text as="h3" variant="headingSm">
                  {t.totals.byWeek}
                </Text>
                {totals.byWeek.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t.totals.none}
                  </Text>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric", "numeric"]}
                    headings={[t.totals.week, strings.reconciliation.cod.table.resourceName.plural, t.totals.expected, t.totals.remitted, t.totals.outstanding, t.totals.overdue]}
                    rows={totals.byWeek.map((week) => [day(`${week.week}T12:00:00Z`), formatCount(week.parcels, language), formatPaise(week.expectedPaise), formatPaise(week.remittedPaise), formatPaise(week.outstandingPaise), formatPaise(week.overduePaise)])}
                  />
                )}
              </BlockStack>
            </Card>
            <div role="search" aria-label={t.filters.region} onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT" && setParam("q", search.trim())}>
              <InlineStack gap="300" blockAlign="end">
                <Select label={t.filters.state} options={stateOptions} value={searchParams.get("state") ?? ""} onChange={(value) => setParam("state", value)} />
                <Select label={t.filters.courier} options={[{ label: t.filters.anyCourier, value: "" }, ...couriers.map((courier) => ({ label: courier, value: courier }))]} value={searchParams.get("courier") ?? ""} onChange={(value) => setParam("courier", value)} />
                <TextField label={t.filters.from} type="date" value={searchParams.get("from") ?? ""} onChange={(value) => setParam("from", value)} autoComplete="off" />
                <TextField label={t.filters.to} type="date" value={searchParams.get("to") ?? ""} onChange={(value) => setParam("to", value)} autoComplete="off" />
                <TextField label={t.filters.search} value={search} onChange={setSearch} onBlur={() => setParam("q", search.trim())} autoComplete="off" maxLength={64} clearButton onClearButtonClick={() => (setSearch(""), setParam("q", ""))} />
              </InlineStack>
            </div>
            <Card padding="0">
              {ledger.length === 0 ? (
                filtered ? (
                  <EmptyState heading={t.empty.noMatch} image="" action={{ content: t.empty.clear, onAction: () => (setSearch(""), setSearchParams(new URLSearchParams())) }}>
                    <p>{t.empty.text}</p>
                  </EmptyState>
                ) : (
                  <EmptyState heading={t.empty.heading} image="">
                    <p>{t.empty.text}</p>
                  </EmptyState>
                )
              ) : (
                <IndexTable
                  resourceName={t.table.resourceName}
                  itemCount={ledger.length}
                  selectable={false}
                  headings={[
                    { title: t.table.headings.parcel },
                    { title: t.table.headings.awb },
                    { title: t.table.headings.courier },
                    { title: t.table.headings.delivered },
                    { title: t.table.headings.age },
                    { title: t.table.headings.expected, alignment: "end" },
                    { title: t.table.headings.remitted, alignment: "end" },
                    { title: t.table.headings.outstanding, alignment: "end" },
                    { title: t.table.headings.state },
                    { title: t.table.headings.shopify },
                  ]}
                >
                  {ledger.map((row, index) => (
                    <IndexTable.Row id={String(row.shipmentId)} key={row.shipmentId} position={index}>
                      <IndexTable.Cell>
                        <Link url={`/app/orders/${legacyIdOf(row.orderGid)}/ship`} removeUnderline>
                          {row.parcelName}
                        </Link>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{row.awb}</IndexTable.Cell>
                      <IndexTable.Cell>{row.courierName ?? "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{row.standing === "delivered" ? day(row.deliveredAt) : row.standing === "rto" ? <Badge>{t.table.rto}</Badge> : t.table.notDelivered}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span">{row.ageDays === null ? "—" : plural(language, t.table.days, row.ageDays)}</Text>
                          {row.overdue ? <Badge tone="critical">{t.table.overdue}</Badge> : null}
                        </InlineStack>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {formatPaise(row.expectedPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {formatPaise(row.remittedPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric fontWeight={row.outstandingPaise > 0 ? "semibold" : undefined}>
                          {formatPaise(row.outstandingPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Badge tone={STATE_TONES[row.state]}>{t.table.states[row.state]}</Badge>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{row.shopifyPayment && row.shopifyPayment in PAYMENT_TONES ? <Badge tone={PAYMENT_TONES[row.shopifyPayment as keyof typeof PAYMENT_TONES]}>{t.table.payments[row.shopifyPayment as keyof typeof PAYMENT_TONES]}</Badge> : "—"}</IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <ListPages label={t.pagination.label} page={page} more={more} toPage={toPage} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <Form method="post">
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.settings.heading}
                  </Text>
                  <input type="hidden" name="intent" value="settings" />
                  <TextField
                    label={t.settings.days}
                    name="expectedRemittanceDays"
                    type="number"
                    min={1}
                    max={90}
                    value={days}
                    onChange={setDays}
                    autoComplete="off"
                    helpText={t.settings.daysHelp}
                    error={result?.intent === "settings" && !result.ok ? t.settings.daysInvalid : undefined}
                  />
                  <Checkbox label={t.settings.markPaid} helpText={t.settings.markPaidHelp} checked={markPaid} onChange={setMarkPaid} />
                  <input type="hidden" name="markPaidInShopify" value={markPaid ? "true" : "false"} />
                  <div>
                    <Button submit loading={navigation.state === "submitting"}>
                      {t.settings.save}
                    </Button>
                  </div>
                </BlockStack>
              </Form>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.statements.heading}
                </Text>
                {statements.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t.statements.none}
                  </Text>
                ) : (
                  statements.map((statement) => (
                    <BlockStack key={statement.id} gap="050">
                      <Text as="p">{plural(language, t.statements.line, statement.lineCount, { name: statement.fileName, date: day(statement.importedAt) })}</Text>
                      <Link url={`/app/cod/statements/${statement.id}`}>{t.statements.open}</Link>
                    </BlockStack>
                  ))
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
