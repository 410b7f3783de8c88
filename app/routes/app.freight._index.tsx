import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, DataTable, EmptyState, IndexTable, InlineStack, Layout, Link, Page, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { formatCount, formatKg, formatPaise } from "~/components/formatting";
import { downloadFile } from "~/components/downloads";
import { StatementUpload } from "~/components/StatementUpload";
import { ListPages } from "~/components/ListPages";
import { plural } from "~/locales/admin-language";
import { getReconciliationSettings, listStatements } from "~/reconciliation/cod-ledger.server";
import { listFreightCharges, overchargeTotals } from "~/reconciliation/freight-audit.server";
import { FREIGHT_VERDICTS, isFreightVerdict, type FreightVerdict } from "~/reconciliation/freight-verdicts";
import { shipsWithSandbox } from "~/reconciliation/sandbox-statements.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";

const PAGE_SIZE = 50;
const SHOWN = ["overcharged", "billed_again", "unknown_awb", "as_quoted", "all"] as const;
type Shown = (typeof SHOWN)[number];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const asked = params.get("show");
  const show: Shown = (SHOWN as readonly string[]).includes(asked ?? "") ? (asked as Shown) : "overcharged";
  const page = Math.min(2_000, Math.max(1, Math.trunc(Number(params.get("page"))) || 1));
  const { ianaTimezone: timeZone } = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  const [{ charges, more }, totals, statements, settings, sandbox] = await Promise.all([
    listFreightCharges(session.shop, { verdict: show, take: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE }),
    overchargeTotals(session.shop, timeZone),
    listStatements(session.shop, "invoice"),
    getReconciliationSettings(session.shop),
    shipsWithSandbox(session.shop),
  ]);
  return json({ charges, more, page, show, totals, statements, remembered: settings.invoiceColumns, sandbox, timeZone });
};

const VERDICT_TONES: Readonly<Record<FreightVerdict, "success" | "critical" | "warning" | undefined>> = { as_quoted: "success", overcharged: "critical", billed_again: "warning", unknown_awb: "warning", already_imported: undefined };

export default function FreightAndWeight() {
  const { charges, more, page, show, totals, statements, remembered, sandbox, timeZone } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const language = useAdminLanguage();
  const t = strings.reconciliation.freight;
  const verdicts = strings.reconciliation.verdicts.freight;
  const [searchParams, setSearchParams] = useSearchParams();
  const [trouble, setTrouble] = useState(false);
  const kg = (grams: number | null) => (grams === null ? "—" : formatKg(grams / 1000, language));
  const rupees = (paise: number | null) => (paise === null ? "—" : formatPaise(paise));
  const day = (iso: string) => new Date(iso).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { timeZone, day: "numeric", month: "short", year: "numeric" });
  const month = (key: string) => new Date(`${key}-15T00:00:00Z`).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { timeZone: "UTC", month: "long", year: "numeric" });
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(key, value);
    if (key !== "page") next.delete("page");
    setSearchParams(next);
  };
  const sampleInvoice = async () => setTrouble(!(await downloadFile("/app/sandbox-statement", new URLSearchParams({ kind: "invoice" }), "sandbox-freight-invoice.csv")));
  /** A figure of the table, right-aligned; an over-charge stands out. */
  const figureCell = (key: string, figure: string, overCharged = false) => (
    <IndexTable.Cell key={key}>
      <Text as="span" alignment="end" numeric tone={overCharged ? "critical" : undefined} fontWeight={overCharged ? "semibold" : undefined}>
        {figure}
      </Text>
    </IndexTable.Cell>
  );
  const totalsTable = (rows: typeof totals.byCourier, label: string, name: (key: string) => string) => (
    <DataTable
      columnContentTypes={["text", "numeric", "numeric", "numeric"]}
      headings={[label, t.totals.parcels, t.totals.extraWeight, t.totals.extraAmount]}
      rows={rows.map((row) => [name(row.key), formatCount(row.parcels, language), kg(row.extraWeightGrams), formatPaise(row.extraPaise)])}
    />
  );
  return (
    <Page title={strings.pages.freight}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p" tone="subdued">
              {t.intro}
            </Text>
            {trouble ? <Banner tone="critical">{t.sandbox.failed}</Banner> : null}
            {sandbox ? (
              <Banner tone="info" action={{ content: t.sandbox.action, onAction: () => void sampleInvoice() }}>
                {t.sandbox.text}
              </Banner>
            ) : null}
            <StatementUpload kind="invoice" uploadUrl="/app/freight/upload" remembered={remembered} timeZone={timeZone} />
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.totals.byCourier}
                </Text>
                {totals.byCourier.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t.totals.none}
                  </Text>
                ) : (
                  totalsTable(totals.byCourier, t.totals.courier, (key) => key || "—")
                )}
                <Text as="h2" variant="headingMd">
                  {t.totals.byMonth}
                </Text>
                {totals.byMonth.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t.totals.none}
                  </Text>
                ) : (
                  totalsTable(totals.byMonth, t.totals.month, month)
                )}
              </BlockStack>
            </Card>
            <Select label={t.filter} options={SHOWN.map((value) => ({ label: t.filters[value], value }))} value={show} onChange={(value) => setParam("show", value)} />
            <Card padding="0">
              {charges.length === 0 ? (
                <EmptyState heading={t.empty.heading} image="">
                  <p>{t.empty.text}</p>
                </EmptyState>
              ) : (
                <IndexTable
                  resourceName={t.table.resourceName}
                  itemCount={charges.length}
                  selectable={false}
                  headings={[
                    { title: t.table.headings.parcel },
                    { title: t.table.headings.awb },
                    { title: t.table.headings.courier },
                    { title: t.table.headings.declared, alignment: "end" },
                    { title: t.table.headings.volumetric, alignment: "end" },
                    { title: t.table.headings.quoted, alignment: "end" },
                    { title: t.table.headings.charged, alignment: "end" },
                    { title: t.table.headings.extraWeight, alignment: "end" },
                    { title: t.table.headings.quotedAmount, alignment: "end" },
                    { title: t.table.headings.chargedAmount, alignment: "end" },
                    { title: t.table.headings.extraAmount, alignment: "end" },
                    { title: t.table.headings.verdict },
                    { title: t.table.headings.dispute },
                  ]}
                >
                  {charges.map((charge, index) => (
                    <IndexTable.Row id={String(charge.id)} key={charge.id} position={index}>
                      <IndexTable.Cell>{charge.parcelName ?? "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{charge.awb}</IndexTable.Cell>
                      <IndexTable.Cell>{charge.courierName ?? "—"}</IndexTable.Cell>
                      {[charge.declaredWeightGrams, charge.volumetricWeightGrams, charge.quotedWeightGrams, charge.chargedWeightGrams].map((grams, column) => figureCell(`weight-${column}`, kg(grams)))}
                      {figureCell("extra-weight", charge.extraWeightGrams ? `+${kg(charge.extraWeightGrams)}` : "—", Boolean(charge.extraWeightGrams))}
                      {[charge.quotedPaise, charge.chargedPaise].map((paise, column) => figureCell(`amount-${column}`, rupees(paise)))}
                      {figureCell("extra-amount", charge.extraPaise ? `+${rupees(charge.extraPaise)}` : "—", Boolean(charge.extraPaise))}
                      <IndexTable.Cell>
                        <Badge tone={VERDICT_TONES[isFreightVerdict(charge.verdict) ? charge.verdict : "as_quoted"]}>{verdicts[charge.verdict]}</Badge>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        {charge.shipmentId !== null && charge.verdict !== "as_quoted" ? (
                          <InlineStack gap="100" blockAlign="center">
                            <Link url={`/app/freight/disputes/${charge.shipmentId}`}>{t.table.disputePack}</Link>
                            {charge.hasPhoto ? <Badge tone="info">{t.table.photo}</Badge> : null}
                          </InlineStack>
                        ) : (
                          "—"
                        )}
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <ListPages label={t.table.resourceName.plural} page={page} more={more} toPage={(to) => setParam("page", String(to))} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
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
                    <Text as="p">{plural(language, strings.reconciliation.cod.statements.line, statement.lineCount, { name: statement.fileName, date: day(statement.importedAt) })}</Text>
                    <InlineStack gap="100">
                      {FREIGHT_VERDICTS.filter((name) => (statement.summary[name] ?? 0) > 0).map((name) => (
                        <Badge key={name} tone={VERDICT_TONES[name]}>{`${verdicts[name]}: ${formatCount(statement.summary[name] ?? 0, language)}`}</Badge>
                      ))}
                    </InlineStack>
                  </BlockStack>
                ))
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
