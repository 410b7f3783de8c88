import { DECISION, READINESS } from "./readiness";

/**
 * Where an order still to ship stands, in the merchant's words: ready to book, held (by the rules, or an automatic
 * booking that failed), waiting for its shopper to confirm cash on delivery, or needing a fix in Shopify first. Home's counts and the Orders to ship tabs both read this
 * table. Pure. A new tab is one more entry here and in `ORDER_STAGE_ORDER`.
 */
export type OrderStage = "ready" | "held" | "confirming" | "needs_fixing";

export interface OrderStageDefinition {
  label: string;
  /** Readiness values (app/orders/readiness.ts) this stage takes. */
  readiness: readonly string[];
  /** Automatic decisions it takes (null: none yet), or refuses when `decisionsExcluded`. */
  decisions: readonly (string | null)[];
  decisionsExcluded: boolean;
}

const HELD_DECISIONS = [DECISION.HELD, DECISION.FAILED] as const;

export const ORDER_STAGES: Readonly<Record<OrderStage, OrderStageDefinition>> = {
  ready: { label: "Ready to ship", readiness: [READINESS.READY], decisions: [...HELD_DECISIONS, DECISION.CONFIRMING], decisionsExcluded: true },
  held: { label: "Held", readiness: [READINESS.READY], decisions: HELD_DECISIONS, decisionsExcluded: false },
  confirming: { label: "Waiting for the shopper", readiness: [READINESS.READY, READINESS.PROBLEMS], decisions: [DECISION.CONFIRMING], decisionsExcluded: false },
  needs_fixing: { label: "Needs fixing", readiness: [READINESS.PROBLEMS], decisions: [DECISION.CONFIRMING], decisionsExcluded: true },
};

export const ORDER_STAGE_ORDER: readonly OrderStage[] = ["ready", "held", "confirming", "needs_fixing"];

export function isOrderStage(value: string): value is OrderStage {
  return Object.hasOwn(ORDER_STAGES, value);
}

/** The stage of one stored order, or null when it is not waiting to ship (booked, cancelled, fulfilled elsewhere). */
export function orderStageOf(order: { readiness: string; decision: string | null }): OrderStage | null {
  return (
    ORDER_STAGE_ORDER.find((stage) => {
      const definition = ORDER_STAGES[stage];
      const decided = definition.decisions.includes(order.decision);
      return definition.readiness.includes(order.readiness) && decided !== definition.decisionsExcluded;
    }) ?? null
  );
}
