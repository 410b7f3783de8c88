import * as z from "zod";

/**
 * Dakiya's Shopify Flow actions: what each is called, the properties a workflow sets, and how Flow's request and
 * Dakiya's answer look. Pure: the route parses with it, flow-actions.server.ts acts on it, and a test holds every
 * action's `shopify.extension.toml` (extensions/flow/) to this table.
 *
 * Flow POSTs an action run to its runtime URL, signed with the app's secret (X-Shopify-Hmac-SHA256 over the body):
 * `{ shop_id, shopify_domain, action_run_id, action_definition_id, handle, properties }`. Flow sends a run again
 * when it is unsure it arrived (no answer in time, a 5xx, a 202); the `action_run_id` stays the same. An answer of 200
 * carries the action's return value, `{ "return_value": { "outcome", "message" } }`, typed by the action's
 * `DakiyaOutcome` (extensions/flow/*\/schema.graphql), so later steps of the workflow can read what happened.
 */

export interface ActionDefinition {
  /** The action's name in Flow's action list. */
  name: string;
  description: string;
  /** The property keys it takes besides the order, each optional. */
  properties: readonly string[];
}

export const FLOW_ACTIONS = {
  "dakiya-ship-order": {
    name: "Ship with Dakiya",
    description: "Books the order's parcels with a courier: by the shop's auto-booking rules, or with the recommended, cheapest or fastest courier.",
    properties: ["strategy"],
  },
  "dakiya-confirm-cod": {
    name: "Ask the shopper to confirm COD",
    description: "Asks the shopper of a cash-on-delivery order to confirm it (or correct the address, cancel, or pay online) before it ships; the order is held in Shopify until they answer.",
    properties: [],
  },
  "dakiya-hold-for-review": {
    name: "Hold for review",
    description: "Puts the order's unshipped items on hold in Shopify and keeps Dakiya's auto-booking away from it until the merchant ships it by hand.",
    properties: ["note"],
  },
} as const satisfies Record<string, ActionDefinition>;

export type FlowAction = keyof typeof FLOW_ACTIONS;
export const FLOW_ACTION_HANDLES = Object.keys(FLOW_ACTIONS) as FlowAction[];

export function isFlowAction(value: string): value is FlowAction {
  return Object.hasOwn(FLOW_ACTIONS, value);
}

/** Where Flow sends each action's runs (relative to the app's URL, as its `runtime_url` is). */
export const runtimePathOf = (action: FlowAction) => `/flow/actions/${action}`;

export const SHIP_STRATEGIES = ["rules", "recommended", "cheapest", "fastest"] as const;
export type ShipStrategy = (typeof SHIP_STRATEGIES)[number];

const ORDER_GID = /^gid:\/\/shopify\/Order\/(\d{1,20})$/;

/** An order reference as Flow sends it (the order's GID, or its number, as a number or a string) → the order's GID. */
const OrderReferenceSchema = z.union([z.string().trim(), z.number().int().positive()], { error: "order_id must be the order: its GID or its number" }).transform((value, context) => {
  const text = String(value);
  if (ORDER_GID.test(text)) return text;
  if (/^\d{1,20}$/.test(text)) return `gid://shopify/Order/${text}`;
  context.addIssue({ code: "custom", message: "order_id must be the order: its GID or its number" });
  return z.NEVER;
});

export const FlowActionRequestSchema = z.object({
  shopify_domain: z.string({ error: "shopify_domain is missing" }).min(1).max(255),
  action_run_id: z.string({ error: "action_run_id is missing" }).trim().min(1, { error: "action_run_id is empty" }).max(255),
  action_definition_id: z.string().max(255).optional(),
  handle: z.string().max(255).optional(),
  properties: z.object(
    {
      order_id: OrderReferenceSchema,
      strategy: z.string().trim().max(40).optional(),
      note: z.string().trim().max(200).optional(),
    },
    { error: "properties must be an object with the order's order_id" },
  ),
});

export type FlowActionRequest = z.infer<typeof FlowActionRequestSchema>;

/** The strategy a workflow set: empty means the shop's rules. Null when it names none Dakiya knows. */
export function strategyOf(value: string | undefined): ShipStrategy | null {
  const asked = (value ?? "").trim().toLowerCase();
  if (asked === "") return "rules";
  return (SHIP_STRATEGIES as readonly string[]).includes(asked) ? (asked as ShipStrategy) : null;
}

/** What an action did, in a word a workflow's condition can test. */
export type ActionOutcome = "booked" | "already_booked" | "held" | "not_booked" | "not_held" | "nothing_to_hold" | "not_found" | "asked" | "already_asked" | "not_cod" | "cancelled" | "too_late";

/** The HTTP answer Flow gets: 200 with the return value, or an error it acts on (4xx: failed for good; 5xx, 202: sent again). */
export interface FlowAnswer {
  status: number;
  body: { return_value: { outcome: ActionOutcome; message: string } } | { error: string } | { message: string };
  /** Seconds before Flow should send the run again (with a 503). */
  retryAfterSeconds?: number;
}

export const outcomeAnswer = (outcome: ActionOutcome, message: string): FlowAnswer => ({ status: 200, body: { return_value: { outcome, message } } });
export const refusedAnswer = (error: string): FlowAnswer => ({ status: 400, body: { error } });

/** The run is still being carried out (a first request that outlasted Flow's wait, or a second copy meanwhile). */
export const stillWorkingAnswer = (): FlowAnswer => ({ status: 202, body: { message: "Dakiya is still carrying out this run; it answers when Flow sends it again." } });
/** Shopify (or the courier) is busy: Flow sends the run again, after the wait. */
export const busyAnswer = (retryAfterSeconds: number): FlowAnswer => ({ status: 503, body: { error: "Shopify is busy for this shop; send the run again shortly." }, retryAfterSeconds });
