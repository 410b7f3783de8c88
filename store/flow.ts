import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { StoreFlow, StoreShop } from "./model";

/**
 * Shopify Flow, as far as an app meets it: the app's triggers as its extensions declare them (extensions/flow/*),
 * `flowTriggerReceive` checking each payload against its trigger's fields as Shopify does, the trigger lifecycle
 * callback Flow sends when the merchant turns a workflow on or off, and action runs sent to an action's runtime URL —
 * both signed with the app's secret (X-Shopify-Hmac-SHA256, base64 HMAC-SHA256 of the body).
 */

/** Flow refuses a payload of 50,000 bytes or more. */
export const FLOW_PAYLOAD_LIMIT_BYTES = 50_000;

export interface FlowTriggerDefinition {
  handle: string;
  name: string;
  fields: { type: string; key?: string }[];
}

export interface FlowExtensions {
  triggers: Map<string, FlowTriggerDefinition>;
  /** Action handle → its runtime URL as declared (relative to the app's URL, or absolute). */
  actions: Map<string, string>;
  /** The trigger lifecycle callback's URL as declared. */
  lifecycleUrl: string | null;
}

interface TomlBlock {
  section: string;
  values: Record<string, string>;
}

/** The blocks of an extension's TOML with their string values: the part of TOML these files use. */
function tomlBlocks(text: string): TomlBlock[] {
  const blocks: TomlBlock[] = [{ section: "", values: {} }];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[\[?([\w.]+)\]\]?$/.exec(line);
    if (header) blocks.push({ section: header[1]!, values: {} });
    const pair = /^([\w-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(line);
    if (pair) blocks.at(-1)!.values[pair[1]!] = pair[2]!.replace(/\\"/g, '"');
  }
  return blocks;
}

/** Every directory of the app's extensions: extensions/*, and the Flow ones in extensions/flow/*. */
function extensionDirectories(root: string): string[] {
  const children = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(dir, entry.name)) : []);
  return [...children(root), ...children(path.join(root, "flow"))].filter((dir) => existsSync(path.join(dir, "shopify.extension.toml")));
}

const loaded = new Map<string, FlowExtensions>();

/** The app's Flow extensions, read once per extensions directory. */
export function flowExtensions(root = path.resolve("extensions")): FlowExtensions {
  const known = loaded.get(root);
  if (known) return known;
  const found: FlowExtensions = { triggers: new Map(), actions: new Map(), lifecycleUrl: null };
  for (const dir of extensionDirectories(root)) {
    const blocks = tomlBlocks(readFileSync(path.join(dir, "shopify.extension.toml"), "utf8"));
    const extension = blocks.find((block) => block.section === "extensions");
    if (!extension) continue;
    const { type, handle = "", name = handle } = extension.values;
    if (type === "flow_trigger") {
      const fields = blocks.filter((block) => block.section === "settings.fields").map((block) => ({ type: block.values.type ?? "", ...(block.values.key ? { key: block.values.key } : {}) }));
      found.triggers.set(handle, { handle, name, fields });
    }
    if (type === "flow_action" && extension.values.runtime_url) found.actions.set(handle, extension.values.runtime_url);
    if (type === "flow_trigger_lifecycle_callback" && extension.values.url) found.lifecycleUrl = extension.values.url;
  }
  loaded.set(root, found);
  return found;
}

const flowOf = (shop: StoreShop): StoreFlow => (shop.flow ??= { received: [], workflows: [] });

/** Why a value is not of a field's type; null when it is. */
function fieldProblem(shop: StoreShop, type: string, key: string, value: unknown): string | null {
  switch (type) {
    case "order_reference":
      if (typeof value !== "number" || !Number.isInteger(value)) return `${key} must be the order's id, a number`;
      return shop.orders.some((order) => order.legacyResourceId === String(value)) ? null : `${key} ${value} is not an order of the shop`;
    case "number_decimal":
      return typeof value === "number" && Number.isFinite(value) ? null : `${key} must be a number`;
    case "boolean":
      return typeof value === "boolean" ? null : `${key} must be true or false`;
    case "url":
      return typeof value === "string" && /^https?:\/\/\S+$/.test(value) ? null : `${key} must be a URL`;
    default:
      return typeof value === "string" ? null : `${key} must be text`;
  }
}

/** What is wrong with a payload for the trigger, as Flow would refuse it. */
export function payloadErrors(shop: StoreShop, trigger: FlowTriggerDefinition, payload: unknown): string[] {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return ["payload must be a JSON object"];
  const bytes = Buffer.byteLength(JSON.stringify(payload), "utf8");
  if (bytes >= FLOW_PAYLOAD_LIMIT_BYTES) return [`payload must be under ${FLOW_PAYLOAD_LIMIT_BYTES} bytes (it is ${bytes})`];
  const given = payload as Record<string, unknown>;
  const keys = trigger.fields.map((field) => ({ ...field, key: field.key ?? field.type.replace(/_reference$/, "_id") }));
  const errors = keys.flatMap((field) => (field.key in given ? (fieldProblem(shop, field.type, field.key, given[field.key]) ?? []) : [`${field.key} is missing`]));
  const unknown = Object.keys(given).filter((key) => !keys.some((field) => field.key === key));
  return [...errors, ...unknown.map((key) => `${key} is not a field of the trigger ${trigger.handle}`)];
}

/** `flowTriggerReceive` as the 2026-10 schema has it: `handle` and `payload` (the deprecated `body` is refused here). */
export function flowMutations(shop: StoreShop, { now, extensions = flowExtensions }: { now: () => Date; extensions?: () => FlowExtensions }) {
  return {
    flowTriggerReceive: (args: Record<string, unknown>) => {
      const handle = typeof args.handle === "string" ? args.handle : null;
      const trigger = handle ? extensions().triggers.get(handle) : undefined;
      const errors =
        args.body !== undefined && args.body !== null ? ["body is deprecated: send the trigger's handle and payload"]
        : !handle ? ["handle must name the trigger"]
        : !trigger ? [`No trigger ${handle} in the app's extensions`]
        : payloadErrors(shop, trigger, args.payload);
      flowOf(shop).received.push({ handle, payload: args.payload ?? null, receivedAt: now().toISOString(), errors });
      return { userErrors: errors.map((message) => ({ field: ["payload"], message })) };
    },
  };
}

/** The triggers Flow took from the app for a shop (optionally of one trigger), in the order received. */
export function receivedTriggers(shop: StoreShop, handle?: string) {
  return (shop.flow?.received ?? []).filter((receipt) => receipt.errors.length === 0 && (handle === undefined || receipt.handle === handle));
}

/** A request as Flow sends one to the app: JSON, signed with the app's secret. */
export function signedFlowRequest(url: string, body: unknown, apiSecret: string): Request {
  const text = JSON.stringify(body);
  return new Request(url, {
    method: "POST",
    body: text,
    headers: { "Content-Type": "application/json", "X-Shopify-Hmac-SHA256": createHmac("sha256", apiSecret).update(text, "utf8").digest("base64") },
  });
}

const resolveOn = (appUrl: string, declared: string) => new URL(new URL(declared, "https://app.invalid").pathname, appUrl).toString();

export interface FlowCaller {
  appUrl: string;
  apiSecret: string;
  now: () => Date;
  extensions?: () => FlowExtensions;
}

/**
 * The merchant turns a workflow that starts with `trigger` on (or off): Flow tells the app through the trigger
 * lifecycle callback, and the merchant's workflow is on only once the app answered 2xx (as at Shopify).
 */
export async function setWorkflow(shop: StoreShop, trigger: string, enabled: boolean, caller: FlowCaller): Promise<Response> {
  const extensions = (caller.extensions ?? flowExtensions)();
  if (!extensions.triggers.has(trigger)) throw new Error(`No trigger ${trigger} in the app's extensions`);
  if (!extensions.lifecycleUrl) throw new Error("The app declares no trigger lifecycle callback");
  const notice = { flow_trigger_definition_id: trigger, has_enabled_flow: enabled, shop_id: 1, shopify_domain: shop.domain, timestamp: caller.now().toISOString() };
  const answer = await fetch(signedFlowRequest(resolveOn(caller.appUrl, extensions.lifecycleUrl), notice, caller.apiSecret));
  const flow = flowOf(shop);
  if (answer.ok) flow.workflows = enabled ? [...new Set([...flow.workflows, trigger])] : flow.workflows.filter((handle) => handle !== trigger);
  return answer;
}

/** A workflow reaches one of the app's actions: Flow sends the run to the action's runtime URL. */
export async function runAction(shop: StoreShop, action: string, properties: Record<string, unknown>, caller: FlowCaller & { actionRunId?: string }): Promise<Response> {
  const runtimeUrl = (caller.extensions ?? flowExtensions)().actions.get(action);
  if (!runtimeUrl) throw new Error(`No action ${action} in the app's extensions`);
  const run = { shop_id: "1", shopify_domain: shop.domain, action_run_id: caller.actionRunId ?? randomUUID(), action_definition_id: action, handle: action, properties };
  return fetch(signedFlowRequest(resolveOn(caller.appUrl, runtimeUrl), run, caller.apiSecret));
}

/** The workflows the demo's merchant turns on from Dakiya's templates: a failed delivery, a delivery, an RTO. */
export const DEMO_WORKFLOW_TRIGGERS = ["dakiya-delivery-failed", "dakiya-parcel-delivered", "dakiya-rto-started", "dakiya-rto-delivered"] as const;

/**
 * The demo's merchant turns on Flow workflows that start with Dakiya's triggers (unless they are on already): Flow
 * tells the app which triggers they use, and the app fires those, and only those, for the day's parcels.
 */
export async function turnOnDemoWorkflows(simulator: { shop(domain: string): StoreShop; setFlowWorkflow(domain: string, trigger: string): Promise<Response> }, shop: string): Promise<string> {
  const on = simulator.shop(shop).flow?.workflows ?? [];
  const missing = DEMO_WORKFLOW_TRIGGERS.filter((trigger) => !on.includes(trigger));
  for (const trigger of missing) {
    const answer = await simulator.setFlowWorkflow(shop, trigger);
    if (!answer.ok) throw new Error(`Turning on a Flow workflow on ${trigger}: the app answered ${answer.status}`);
  }
  return missing.length === 0
    ? "✓ Shopify Flow: the workflows on failed deliveries, deliveries and RTOs were on already"
    : "✓ Shopify Flow: workflows on a failed delivery, a delivery and an RTO are turned on; Flow tells Dakiya which triggers they use";
}
