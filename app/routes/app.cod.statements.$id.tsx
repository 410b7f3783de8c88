import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Card, EmptyState, IndexTable, InlineStack, Layout, Page, Select, Text } from "@shopify/polaris";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { formatPaise } from "~/components/formatting";
import { ListPages } from "~/components/ListPages";
import { fill } from "~/locales/admin-language";
import { getStatement, listRemittanceLines } from "~/reconciliation/cod-ledger.server";
import { isRemittanceVerdict, REMITTANCE_PROBLEMS, REMITTANCE_VERDICTS, type RemittanceVerdict } from "~/reconciliation/remittance-verdicts";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { rowIdOf } from "~/security/row-id";

const PAGE_SIZE = 100;

/** One remittance statement as imported: every line with its verdict, those of one verdict when asked. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const id = rowIdOf(params.id);
  const statement = id === null ? null : await getStatement(session.shop, id);
  // Another shop's statement and one that does not exist answer alike.
  if (!statement || statement.kind !== "remittance") throw new Response("There is no such remittance statement in this shop.", { status: 404 });
  const search = new URL(request.url).searchParams;
  const verdict = search.get("verdict");
  const page = Math.min(2_000, Math.max(1, Math.trunc(Number(search.get("page"))) || 1));
  const [{ ianaTimezone: timeZone }, { lines, more }] = await Promise.all([
    whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify))),
    listRemittanceLines(session.shop, statement.id, { verdict: isRemittanceVerdict(verdict) ? verdict : undefined, take: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE }),
  ]);
  return json({ statement, lines, more, page, verdict: isRemittanceVerdict(verdict) ? verdict : null, timeZone });
};

const TONES: Readonly<Record<RemittanceVerdict, "success" | "critical" | "warning" | "attention" | "info" | undefined>> = {
  paid_in_full: "success",
  short: "critical",
  over: "warning",
  paid_twice: "critical",
  unknown_awb: "critical",
  not_delivered: "attention",
  rto: "warning",
  not_cod: "attention",
  already_imported: undefined,
};

export default function RemittanceStatement() {
  const { statement, lines, more, page, verdict, timeZone } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const language = useAdminLanguage();
  const t = strings.reconciliation.statement;
  const verdicts = strings.reconciliation.verdicts.remittance;
  const [searchParams, setSearchParams] = useSearchParams();
  const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { timeZone: iso.endsWith("T00:00:00.000Z") ? "UTC" : timeZone, day: "numeric", month: "short", year: "numeric" }) : "—");
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    setSearchParams(next);
  };
  const counted = REMITTANCE_VERDICTS.filter((name) => (statement.summary[name] ?? 0) > 0);
  return (
    <Page title={strings.pages.codStatement} subtitle={fill(t.summary, { name: statement.fileName, date: day(statement.importedAt) })} backAction={{ content: t.back, url: "/app/cod" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <InlineStack gap="200">
              {counted.map((name) => (
                <Badge key={name} tone={REMITTANCE_PROBLEMS.includes(name) ? TONES[name] : "success"}>{`${verdicts[name]}: ${(statement.summary[name] ?? 0).toLocaleString(language === "hi" ? "hi-IN" : "en-IN")}`}</Badge>
              ))}
            </InlineStack>
            <Select
              label={t.filter}
              options={[{ label: t.all, value: "" }, ...counted.map((name) => ({ label: verdicts[name], value: name }))]}
              value={verdict ?? ""}
              onChange={(value) => setParam("verdict", value)}
            />
            <Card padding="0">
              {lines.length === 0 ? (
                <EmptyState heading={t.none} image="" />
              ) : (
                <IndexTable
                  resourceName={t.resourceName}
                  itemCount={lines.length}
                  selectable={false}
                  headings={[
                    { title: t.headings.row },
                    { title: t.headings.awb },
                    { title: t.headings.order },
                    { title: t.headings.parcel },
                    { title: t.headings.amount, alignment: "end" },
                    { title: t.headings.reference },
                    { title: t.headings.date },
                    { title: t.headings.verdict },
                    { title: t.headings.expected, alignment: "end" },
                    { title: t.headings.difference, alignment: "end" },
                  ]}
                >
                  {lines.map((line, index) => (
                    <IndexTable.Row id={String(line.row)} key={line.row} position={index}>
                      <IndexTable.Cell>{line.row}</IndexTable.Cell>
                      <IndexTable.Cell>{line.awb || "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{line.orderRef || "—"}</IndexTable.Cell>
                      <IndexTable.Cell>{line.parcelName ?? "—"}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {formatPaise(line.amountPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{line.reference}</IndexTable.Cell>
                      <IndexTable.Cell>{day(line.remittedOn)}</IndexTable.Cell>
                      <IndexTable.Cell>{isRemittanceVerdict(line.verdict) ? <Badge tone={TONES[line.verdict]}>{verdicts[line.verdict]}</Badge> : line.verdict}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric>
                          {line.expectedPaise === null ? "—" : formatPaise(line.expectedPaise)}
                        </Text>
                      </IndexTable.Cell>
                      <IndexTable.Cell>
                        <Text as="span" alignment="end" numeric tone={line.differencePaise !== null && line.differencePaise < 0 ? "critical" : undefined}>
                          {line.differencePaise === null || line.differencePaise === 0 ? "—" : `${line.differencePaise > 0 ? "+" : "−"}${formatPaise(Math.abs(line.differencePaise))}`}
                        </Text>
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
            <ListPages label={t.resourceName.plural} page={page} more={more} toPage={(to) => setParam("page", String(to))} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
