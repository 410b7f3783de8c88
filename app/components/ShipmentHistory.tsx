import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatDate } from "./formatting";
import { sayStored, type AdminLanguage } from "~/locales/admin-language";
import { actorInWords, eventInWords, type HistoryActor, type HistoryEvent } from "~/shipments/history-words";
import { returnEventInWords } from "~/returns/return-words";
import { deskEventInWords } from "~/failed-deliveries/desk-words";

export interface HistoryEntry extends HistoryEvent {
  at: string;
  actor: HistoryActor;
  /** Why, as it was stored. */
  reason: string | null;
  /** The same, as words to say in the admin's language; none (or null) says the stored English. */
  reasonWords?: unknown;
}

/** What happened to a shipment and who did it, oldest first: the answer to "why is it like this?". */
export function ShipmentHistory({ entries, timeZone }: { entries: HistoryEntry[]; timeZone: string }) {
  const t = useAdminStrings().ship.history;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t.heading}
        </Text>
        <HistoryList entries={entries} timeZone={timeZone} what={eventInWords} />
      </BlockStack>
    </Card>
  );
}

/** What happened to a return (its steps from the shopper's request to the warehouse) or a failed delivery, and who did it, oldest first. */
export function ReturnHistory({ entries, timeZone, heading, what = "return" }: { entries: HistoryEntry[]; timeZone?: string; heading: string; what?: "return" | "failedDelivery" }) {
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {heading}
      </Text>
      <HistoryList entries={entries} timeZone={timeZone} what={what === "return" ? returnEventInWords : deskEventInWords} />
    </BlockStack>
  );
}

/** A history's steps, oldest first: each step in words, when and by whom, and why. */
function HistoryList({ entries, timeZone, what }: { entries: HistoryEntry[]; timeZone?: string; what: (entry: HistoryEntry, language: AdminLanguage) => string }) {
  const language = useAdminLanguage();
  return (
    <BlockStack gap="200" as="ol">
      {entries.map((entry, index) => (
        <BlockStack gap="050" as="li" key={`${entry.at}-${index}`}>
          <InlineStack gap="200" blockAlign="baseline" wrap>
            <Text as="span" variant="bodyMd" fontWeight="semibold">
              {what(entry, language)}
            </Text>
            <Text as="span" tone="subdued">
              {formatDate(entry.at, timeZone, language)} · {actorInWords(entry.actor, language)}
            </Text>
          </InlineStack>
          {entry.reason ? (
            <Text as="p" tone="subdued">
              {sayStored(language, entry.reasonWords, entry.reason)}
            </Text>
          ) : null}
        </BlockStack>
      ))}
    </BlockStack>
  );
}
