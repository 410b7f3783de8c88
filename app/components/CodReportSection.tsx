import { Banner, BlockStack, Button, Card, DataTable, InlineGrid, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { ADMIN_LOCALES, fill } from "~/locales/admin-language";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatCount } from "./formatting";

interface Rate {
  ended: number;
  returned: number;
  rate: number | null;
}

export interface CodReportProps {
  report: {
    days: number;
    byPayment: { cod: Rate; prepaid: Rate };
    byConfirmation: { confirmed: Rate; unconfirmed: Rate };
    funnel: Record<"asked" | "waiting" | "confirmed" | "corrected" | "paidOnline" | "cancelled" | "expired" | "withdrawn", number>;
    topPincodes: ({ pincode: string } & Rate)[];
  };
}

const FUNNEL_ORDER = ["asked", "confirmed", "corrected", "paidOnline", "cancelled", "expired", "waiting", "withdrawn"] as const;

/**
 * Home's cash-on-delivery figures (app/cod/cod-report.server.ts): how often parcels come back by payment mode and by
 * the shopper's confirmation, how asking shoppers went, and the PIN codes sending most back; with the CSV.
 */
export function CodReportSection({ report }: CodReportProps) {
  const strings = useAdminStrings();
  const t = strings.cod.home;
  const language = useAdminLanguage();
  const [exportFailed, setExportFailed] = useState(false);
  const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toLocaleString(ADMIN_LOCALES[language], { maximumFractionDigits: 1 })} %`);
  const rateCard = (label: string, rate: Rate) => (
    <Card key={label}>
      <BlockStack gap="100">
        <Text as="span" tone="subdued">
          {label}
        </Text>
        <Text as="span" variant="headingLg">
          {rate.ended === 0 ? "—" : fill(t.rate, { rate: percent(rate.rate) })}
        </Text>
        <Text as="span" tone="subdued">
          {rate.ended === 0 ? t.noneEnded : fill(t.rateOf, { returned: formatCount(rate.returned, language), ended: formatCount(rate.ended, language) })}
        </Text>
      </BlockStack>
    </Card>
  );
  // The page's fetch carries the admin's session token; the browser saves what arrives as a file.
  const exportCsv = async () => {
    setExportFailed(false);
    try {
      const response = await fetch("/app/cod-report/export");
      if (!response.ok) throw new Error(String(response.status));
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = `cash-on-delivery-${new Date().toISOString().slice(0, 10)}.csv`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setExportFailed(true);
    }
  };
  return (
    <BlockStack gap="300">
      <InlineStack align="space-between" blockAlign="center">
        <Text as="h2" variant="headingMd">
          {t.heading}
        </Text>
        <Button onClick={exportCsv}>{t.export}</Button>
      </InlineStack>
      {exportFailed ? <Banner tone="critical">{t.exportFailed}</Banner> : null}
      <Text as="p" tone="subdued">
        {fill(t.window, { days: report.days })}
      </Text>
      <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
        {rateCard(t.cod, report.byPayment.cod)}
        {rateCard(t.prepaid, report.byPayment.prepaid)}
        {rateCard(t.confirmed, report.byConfirmation.confirmed)}
        {rateCard(t.unconfirmed, report.byConfirmation.unconfirmed)}
      </InlineGrid>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
        <Card>
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t.funnelHeading}
            </Text>
            <DataTable columnContentTypes={["text", "numeric"]} headings={[]} rows={FUNNEL_ORDER.map((key) => [t.funnel[key], formatCount(report.funnel[key], language)])} />
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t.pincodesHeading}
            </Text>
            {report.topPincodes.length === 0 ? (
              <Text as="p" tone="subdued">
                {t.noPincodes}
              </Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={[t.pincodeColumns.pincode, t.pincodeColumns.returned, t.pincodeColumns.ended, t.pincodeColumns.rate]}
                rows={report.topPincodes.map((row) => [row.pincode, formatCount(row.returned, language), formatCount(row.ended, language), percent(row.rate)])}
              />
            )}
          </BlockStack>
        </Card>
      </InlineGrid>
    </BlockStack>
  );
}
