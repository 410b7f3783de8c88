import { describe, expect, it } from "vitest";
import { validateAdminDocument } from "../graphql/admin-schema";
import { FLOW_ACTION_HANDLES, runtimePathOf } from "~/orders/flow-actions";
import { FLOW_TRIGGERS, FLOW_TRIGGER_HANDLES, payloadKeyOf } from "../app/flow/flow-triggers";
import { runAdminGraphql } from "./admin-api";
import { flowExtensions, receivedTriggers } from "./flow";
import { seedShop } from "./seed";

const throttle = { maximumAvailable: 20_000, restoreRate: 1_000 };

describe("the app's Flow extensions, as the store (and Shopify) reads them", () => {
  const extensions = flowExtensions();

  it("declares every trigger Dakiya fires, each with exactly the fields its payload carries", () => {
    expect([...extensions.triggers.keys()].sort()).toEqual([...FLOW_TRIGGER_HANDLES].sort());
    for (const handle of FLOW_TRIGGER_HANDLES) {
      const declared = extensions.triggers.get(handle)!;
      expect(declared.name, handle).toBe(FLOW_TRIGGERS[handle].name);
      expect(declared.fields, handle).toEqual(FLOW_TRIGGERS[handle].fields.map((field) => ({ type: field.type, ...("key" in field && field.key ? { key: field.key } : {}) })));
      // Shopify's rules on deploy: a handle of at most 30 characters; a custom field's key of letters and spaces.
      expect(handle.length, handle).toBeLessThanOrEqual(30);
      for (const field of declared.fields) if (field.key) expect(field.key, handle).toMatch(/^[a-zA-Z ]+$/);
      expect(FLOW_TRIGGERS[handle].fields.map(payloadKeyOf)).toContain("order_id");
    }
  });

  it("sends each action's runs to the app's route for it, and the lifecycle callback to its route", () => {
    expect(Object.fromEntries(extensions.actions)).toEqual(Object.fromEntries(FLOW_ACTION_HANDLES.map((handle) => [handle, runtimePathOf(handle)])));
    expect(new URL(extensions.lifecycleUrl!).pathname).toBe("/flow/trigger-lifecycle");
  });
});

describe("flowTriggerReceive, as the 2026-10 schema defines it", () => {
  const RECEIVE = "mutation Receive($handle: String!, $payload: JSON!) { flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } } }";

  async function receive(shop: ReturnType<typeof seedShop>, handle: string, payload: unknown) {
    expect(validateAdminDocument(RECEIVE)).toEqual([]);
    const answer = await runAdminGraphql(shop, { query: RECEIVE, variables: { handle, payload } }, { throttle, now: () => new Date() });
    expect(answer.body.errors).toBeUndefined();
    return (answer.body.data as { flowTriggerReceive: { userErrors: { message: string }[] } }).flowTriggerReceive.userErrors.map((error) => error.message);
  }

  const delivered = (shop: ReturnType<typeof seedShop>) => ({ order_id: Number(shop.orders[0]!.legacyResourceId), Parcel: "#1001", AWB: "15616928599560", Courier: "Delhivery", Status: "Delivered", "Tracking URL": "https://dakiya.example.com/track/15616928599560" });

  it("takes a payload of the trigger's fields and records it", async () => {
    const shop = seedShop();
    expect(await receive(shop, "dakiya-parcel-delivered", delivered(shop))).toEqual([]);
    expect(receivedTriggers(shop, "dakiya-parcel-delivered").map((receipt) => receipt.payload)).toEqual([delivered(shop)]);
  });

  it("refuses, as Shopify would, an unknown trigger, a missing or extra field, a field of the wrong type, an order not the shop's, and 50,000 bytes", async () => {
    const shop = seedShop();
    const { AWB: _awb, ...withoutAwb } = delivered(shop);
    expect(await receive(shop, "dakiya-no-such-trigger", delivered(shop))).toEqual(["No trigger dakiya-no-such-trigger in the app's extensions"]);
    expect(await receive(shop, "dakiya-parcel-delivered", withoutAwb)).toEqual(["AWB is missing"]);
    expect(await receive(shop, "dakiya-parcel-delivered", { ...delivered(shop), Shopper: "Asha" })).toEqual(["Shopper is not a field of the trigger dakiya-parcel-delivered"]);
    expect(await receive(shop, "dakiya-delivery-failed", { ...delivered(shop), Attempt: "2", Reason: "Door locked" })).toEqual(["Attempt must be a number"]);
    expect(await receive(shop, "dakiya-parcel-delivered", { ...delivered(shop), order_id: 123 })).toEqual(["order_id 123 is not an order of the shop"]);
    expect(await receive(shop, "dakiya-parcel-delivered", { ...delivered(shop), Status: "x".repeat(50_000) })).toEqual([expect.stringMatching(/^payload must be under 50000 bytes/)]);
    expect(receivedTriggers(shop)).toEqual([]);
    expect(shop.flow!.received).toHaveLength(6);
  });
});

describe("fulfillment holds", () => {
  const HOLD = "mutation H($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: OTHER, handle: \"review\", reasonNotes: \"Check it\" }) { fulfillmentHold { id handle } fulfillmentOrder { status } userErrors { code message } } }";
  const RELEASE = "mutation R($id: ID!) { fulfillmentOrderReleaseHold(id: $id) { fulfillmentOrder { status } userErrors { message } } }";

  it("holds a fulfillment order, one hold per handle, until released", async () => {
    const shop = seedShop();
    const fo = shop.orders.find((order) => order.name === "#1001")!.fulfillmentOrders[0]!;
    const run = async (query: string) => {
      expect(validateAdminDocument(query)).toEqual([]);
      return (await runAdminGraphql(shop, { query, variables: { id: fo.id } }, { throttle, now: () => new Date() })).body.data as Record<string, { userErrors: { code?: string }[]; fulfillmentOrder: { status: string } | null }>;
    };
    expect((await run(HOLD)).fulfillmentOrderHold).toMatchObject({ fulfillmentHold: { handle: "review" }, fulfillmentOrder: { status: "ON_HOLD" }, userErrors: [] });
    expect((await run(HOLD)).fulfillmentOrderHold!.userErrors).toEqual([expect.objectContaining({ code: "DUPLICATE_FULFILLMENT_HOLD_HANDLE" })]);
    expect((await run(RELEASE)).fulfillmentOrderReleaseHold).toMatchObject({ fulfillmentOrder: { status: "OPEN" }, userErrors: [] });
  });
});
