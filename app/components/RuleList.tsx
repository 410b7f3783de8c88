import { Banner, Button, InlineStack, Text } from "@shopify/polaris";
import { fill } from "~/locales/admin-language";

/**
 * What the admin's two rule lists share (Auto-booking's booking rules, the failed-delivery desk's rules): each rule a
 * card headed by its number and name with buttons to move it up or down and to remove it, the list reordered the
 * same way, and a save refused with the form's reason or each field's.
 */

/** The words of a rule card's heading, from the page's own strings. */
export interface RuleHeadingWords {
  name: string;
  named: string;
  up: string;
  down: string;
  remove: string;
  moveUp: string;
  moveDown: string;
  removeRule: string;
}

export function RuleCardHeading({ words, number, name, index, count, onMove, onRemove }: { words: RuleHeadingWords; number: string; name: string; index: number; count: number; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  return (
    <InlineStack align="space-between" blockAlign="center">
      <Text as="h2" variant="headingSm">
        {name ? fill(words.named, { number, name }) : fill(words.name, { number })}
      </Text>
      <InlineStack gap="200">
        <Button size="slim" disabled={index === 0} onClick={() => onMove(-1)} accessibilityLabel={fill(words.moveUp, { number })}>
          {words.up}
        </Button>
        <Button size="slim" disabled={index === count - 1} onClick={() => onMove(1)} accessibilityLabel={fill(words.moveDown, { number })}>
          {words.down}
        </Button>
        <Button size="slim" tone="critical" variant="plain" onClick={onRemove} accessibilityLabel={fill(words.removeRule, { number })}>
          {words.remove}
        </Button>
      </InlineStack>
    </InlineStack>
  );
}

/** The list with the rule at `index` moved one place up (-1) or down (1). */
export function movedRule<T>(rules: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...rules];
  const [moved] = next.splice(index, 1);
  next.splice(index + by, 0, moved!);
  return next;
}

/** A save the page refused: the form's reason, or each field's. */
export function RulesNotSaved({ title, formError, fieldErrors }: { title: string; formError: string | null; fieldErrors: Record<string, string> }) {
  return (
    <Banner tone="critical" title={title}>
      {formError ?? (
        <ul>
          {Object.entries(fieldErrors).map(([key, message]) => (
            <li key={key}>{message}</li>
          ))}
        </ul>
      )}
    </Banner>
  );
}
