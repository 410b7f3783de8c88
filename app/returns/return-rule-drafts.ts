import type { ReturnRuleEntry } from "./return-settings";

/**
 * A return rule as its editor holds it (every field a string as typed), shared by the Returns page in the browser and
 * the server that checks what it sends.
 */
export interface ReturnRuleDraft {
  name: string;
  reasons: string;
  minValueRupees: string;
  maxValueRupees: string;
  pincodePrefixes: string;
  tags: string;
  action: string;
  courierId: string;
}
/** A new rule as "Add rule" puts it on the page: every field empty, holding for review. */
export const EMPTY_RETURN_RULE_DRAFT: ReturnRuleDraft = { name: "", reasons: "", minValueRupees: "", maxValueRupees: "", pincodePrefixes: "", tags: "", action: "hold", courierId: "" };
export const DRAFT_FIELDS = ["name", "reasons", "minValueRupees", "maxValueRupees", "pincodePrefixes", "tags", "action", "courierId"] as const;

export function returnRuleDraftOf(rule: ReturnRuleEntry): ReturnRuleDraft {
  const amount = (value: number | null) => (value === null ? "" : String(value));
  return {
    name: rule.name,
    reasons: rule.reasons.join(", "),
    minValueRupees: amount(rule.minValueRupees),
    maxValueRupees: amount(rule.maxValueRupees),
    pincodePrefixes: rule.pincodePrefixes.join(", "),
    tags: rule.tags.join(", "),
    action: rule.action,
    courierId: rule.courierId === null ? "" : String(rule.courierId),
  };
}

/** The key a rule field's error is filed under: "rules.1.maxValueRupees" for the second rule's maximum value. */
export const returnRuleFieldKey = (index: number, field: keyof ReturnRuleDraft) => `rules.${index}.${field}`;
