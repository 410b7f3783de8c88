import { EMPTY_RETURN_RULE_DRAFT, type ReturnRuleDraft } from "~/returns/return-rule-drafts";

/** The Returns view's `returnRules` field as its page sends it: each draft over a new, empty rule. */
export const returnRulesField = (...drafts: Partial<ReturnRuleDraft>[]) => JSON.stringify(drafts.map((draft) => ({ ...EMPTY_RETURN_RULE_DRAFT, ...draft })));
