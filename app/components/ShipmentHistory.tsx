import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatDate } from "./formatting";
import { sayStored } from "~/locales/admin-language";
import { actorInWords, eventInWords, type HistoryActor, type HistoryEvent } from "~/shipments/history-words";

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
  const language = useAdminLanguage();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t.heading}
        </Text>
        <BlockStack gap="200" as="ol">
          {entries.map((entry, index) => (
            <BlockStack gap="050" as="li" key={`${entry.at}-${index}`}>
              <InlineStack gap="200" blockAlign="baseline" wrap>
                <Text as="span" variant="bodyMd" fontWeight="semibold">
                  {eventInWords(entry, language)}
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
      </BlockStack>
    </Card>
  );
}
