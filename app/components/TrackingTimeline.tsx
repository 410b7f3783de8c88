import { Badge, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { Form } from "@remix-run/react";
import { STAGES, stageLabel, stageTone } from "~/tracking/courier-progress";
import { isServiceStatusCode } from "~/shipping/status";
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
  courierStatusCode: number | null;
  courierStatusLabel: string | null;
  estimatedDeliveryAt: string | null;
  deliveredAt: string | null;
  syncedAt: string | null;
  nextSyncAt: string | null;
}

/** Codes of a parcel still on its way to the shopper: only then is a delivery estimate worth showing. */
const ON_ITS_WAY: readonly number[] = [2, 3, 5, 6, 7];

/** The courier's progress on a shipment, newest first, as the shopper is told it; with "Sync now". */
export function TrackingTimeline({ progress, entries, syncing, timeZone }: { progress: CourierProgress; entries: TimelineEntry[]; syncing: boolean; timeZone: string }) {
  const code = progress.courierStatusCode;
  const exception = code !== null && isServiceStatusCode(code) ? STAGES[code].exception : null;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Tracking
            </Text>
            <Badge tone={stageTone(code)}>{progress.courierStatusLabel ?? (code === null ? "Not read yet" : stageLabel(code))}</Badge>
          </InlineStack>
          <Form method="post">
            <input type="hidden" name="intent" value="sync" />
            <Button submit size="slim" loading={syncing}>
              Sync now
            </Button>
          </Form>
        </InlineStack>
        {exception ? <Text as="p" tone="critical">{exception}</Text> : null}
        <Text as="p" tone="subdued">
          {progress.deliveredAt
            ? `Delivered ${formatDate(progress.deliveredAt, timeZone)}`
            : progress.estimatedDeliveryAt && (code === null || ON_ITS_WAY.includes(code))
              ? `Estimated delivery ${formatDate(progress.estimatedDeliveryAt, timeZone)}`
              : code === null || ON_ITS_WAY.includes(code)
                ? "No delivery estimate yet"
                : "No delivery estimate: the parcel is held up or going back"}
          {progress.syncedAt ? ` · read from the courier ${formatDate(progress.syncedAt, timeZone)}` : ""}
          {progress.nextSyncAt ? ` · next read ${formatDate(progress.nextSyncAt, timeZone)}` : progress.syncedAt ? " · no longer read (final stage)" : ""}
        </Text>
        {entries.length === 0 ? (
          <Text as="p" tone="subdued">
            No tracking entries yet.
          </Text>
        ) : (
          <BlockStack gap="200">
            {[...entries].reverse().map((entry) => (
              <InlineStack key={`${entry.happenedAt}-${entry.code}-${entry.activity}`} gap="300" wrap={false} blockAlign="start">
                <div style={{ minWidth: "9rem" }}>
                  <Text as="span" tone="subdued">
                    {formatDate(entry.happenedAt, timeZone)}
                  </Text>
                </div>
                <BlockStack gap="050">
                  <Text as="span" fontWeight="semibold">
                    {entry.label}
                    {entry.location ? ` · ${entry.location}` : ""}
                  </Text>
                  <Text as="span">{entry.activity}</Text>
                  {entry.postedAt ? null : (
                    <Text as="span" tone="subdued">
                      Not yet on the Shopify order
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
