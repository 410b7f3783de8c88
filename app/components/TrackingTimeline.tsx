import { Badge, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { Form } from "@remix-run/react";
import { STAGES } from "~/tracking/courier-progress";
import { isServiceStatusCode } from "~/shipping/status";
import { isShipmentOutcome, SHIPMENT_OUTCOME_TONES } from "~/shipments/lifecycle";
import { outcomeInWords } from "~/shipments/outcome-words";
import { courierStatusName, fill, sayStored } from "~/locales/admin-language";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatDate } from "./formatting";

export interface TimelineEntry {
  code: number;
  label: string;
  activity: string;
  location: string | null;
  happenedAt: string;
  postedAt: string | null;
}

export interface CourierProgress {
  /** Where the courier has the parcel (`Shipment.outcome`), and its attempts to deliver. */
  outcome: string;
  deliveryAttempts: number;
  courierStatusCode: number | null;
  courierStatusLabel: string | null;
  estimatedDeliveryAt: string | null;
  deliveredAt: string | null;
  syncedAt: string | null;
  nextSyncAt: string | null;
  /** Why tracking backs off, is paused or stopped, as stored; its words say it in the admin's language. */
  trackingError?: string | null;
  trackingErrorWords?: unknown;
}

/** Codes of a parcel still on its way to the shopper: only then is a delivery estimate worth showing. */
const ON_ITS_WAY: readonly number[] = [2, 3, 5, 6, 7];

/** A status code's words in a table keyed by the courier service's codes; undefined for a code the table lacks. */
const byCode = (table: Readonly<Record<string, string>>, code: number): string | undefined => (Object.hasOwn(table, code) ? table[code] : undefined);

/** The courier's progress on a shipment, newest first, as the shopper is told it; with "Sync now". */
export function TrackingTimeline({ progress, entries, syncing, timeZone }: { progress: CourierProgress; entries: TimelineEntry[]; syncing: boolean; timeZone: string }) {
  const strings = useAdminStrings();
  const t = strings.ship.timeline;
  const language = useAdminLanguage();
  const at = (iso: string) => formatDate(iso, timeZone, language);
  const code = progress.courierStatusCode;
  // The stage in the admin's language; the courier's own label only for a code the service does not define.
  const stage = code === null ? (progress.courierStatusLabel ?? t.notReadYet) : (courierStatusName(strings, code) ?? progress.courierStatusLabel ?? fill(t.statusCode, { code }));
  const exception = code !== null && isServiceStatusCode(code) && STAGES[code].exception ? byCode(t.exceptions, code) : undefined;
  const onItsWay = code === null || ON_ITS_WAY.includes(code);
  const estimate = progress.deliveredAt
    ? fill(t.delivered, { date: at(progress.deliveredAt) })
    : progress.estimatedDeliveryAt && onItsWay
      ? fill(t.estimated, { date: at(progress.estimatedDeliveryAt) })
      : onItsWay
        ? t.noEstimate
        : t.noEstimateHeldUp;
  const reads = progress.nextSyncAt ? fill(t.nextRead, { date: at(progress.nextSyncAt) }) : progress.syncedAt ? t.noLongerRead : null;
  const summary = [estimate, progress.syncedAt ? fill(t.readAt, { date: at(progress.syncedAt) }) : null, reads].filter(Boolean).join(" · ");
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {t.heading}
            </Text>
            <Badge tone={isShipmentOutcome(progress.outcome) ? SHIPMENT_OUTCOME_TONES[progress.outcome] : undefined}>{outcomeInWords(progress, language)}</Badge>
            {/* The courier's own word for its stage, where it says more than the outcome ("Reached at Destination"). */}
            {stage !== outcomeInWords({ outcome: progress.outcome, deliveryAttempts: 0 }, language) ? (
              <Text as="span" tone="subdued">
                {stage}
              </Text>
            ) : null}
          </InlineStack>
          <Form method="post">
            <input type="hidden" name="intent" value="sync" />
            <Button submit size="slim" loading={syncing}>
              {t.syncNow}
            </Button>
          </Form>
        </InlineStack>
        {exception ? <Text as="p" tone="critical">{exception}</Text> : null}
        {progress.trackingError ? <Text as="p" tone="caution">{sayStored(language, progress.trackingErrorWords, progress.trackingError)}</Text> : null}
        <Text as="p" tone="subdued">
          {summary}
        </Text>
        {entries.length === 0 ? (
          <Text as="p" tone="subdued">
            {t.empty}
          </Text>
        ) : (
          <BlockStack gap="200">
            {[...entries].reverse().map((entry) => (
              <InlineStack key={`${entry.happenedAt}-${entry.code}-${entry.activity}`} gap="300" wrap={false} blockAlign="start">
                <div style={{ minWidth: "9rem" }}>
                  <Text as="span" tone="subdued">
                    {at(entry.happenedAt)}
                  </Text>
                </div>
                <BlockStack gap="050">
                  <Text as="span" fontWeight="semibold">
                    {courierStatusName(strings, entry.code) ?? entry.label}
                    {entry.location ? ` · ${entry.location}` : ""}
                  </Text>
                  <Text as="span">{entry.activity}</Text>
                  {entry.postedAt ? null : (
                    <Text as="span" tone="subdued">
                      {t.notOnShopify}
                    </Text>
                  )}
                </BlockStack>
              </InlineStack>
            ))}
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}
