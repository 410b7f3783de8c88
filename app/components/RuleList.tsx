import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { fill } from "~/locales/admin-language";

/**
 * What the admin's two rule lists share (Auto-booking's booking rules, the failed-delivery desk's rules): each rule a
 * card headed by its number and name with buttons to move it up or down and to remove it, the drafts edited, reordered
 * and removed the same way, an empty list offering the examples, and a save refused with the form's reason or each field's.
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
function movedRule<T>(rules: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...rules];
  const [moved] = next.splice(index, 1);
  next.splice(index + by, 0, moved!);
  return next;
}

/** The page's rule drafts, and the edits its cards make to them: one rule changed, moved or removed. */
export function useRuleDrafts<T>(initial: T[]) {
  const [drafts, setDrafts] = useState<T[]>(initial);
  return {
    drafts,
    setDrafts,
    changeRule: (index: number, next: T) => setDrafts((current) => current.map((existing, position) => (position === index ? next : existing))),
    moveRule: (index: number, by: -1 | 1) => setDrafts((current) => movedRule(current, index, by)),
    removeRule: (index: number) => setDrafts((current) => current.filter((_, position) => position !== index)),
  };
}

/** An empty rule list: what it means, and a button that starts from the examples. */
export function NoRulesCard({ text, startWithExamples, onStart }: { text: string; startWithExamples: string; onStart: () => void }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="p">{text}</Text>
        <InlineStack>
          <Button onClick={onStart}>{startWithExamples}</Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
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
