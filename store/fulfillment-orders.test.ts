import { describe, expect, it } from "vitest";
import { validateAdminDocument } from "../graphql/admin-schema";
import { runAdminGraphql } from "./admin-api";
import { LOCATION_BHIWANDI, LOCATION_GURUGRAM, seedShop } from "./seed";
import { orderMutations } from "./order-mutations";

const throttle = { maximumAvailable: 20_000, restoreRate: 1_000 };

function world() {
  const shop = seedShop();
  const admin = async <T = Record<string, { userErrors: { message: string; code?: string | null }[] } & Record<string, unknown>>>(query: string, variables: Record<string, unknown> = {}) => {
    expect(validateAdminDocument(query)).toEqual([]);
    const answer = await runAdminGraphql(shop, { query, variables }, { throttle, now: () => new Date() });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data as T;
  };
  const place = (skus: [title: string, sku: string, quantity: number][]) => {
    const created = orderMutations(shop, { now: () => new Date(), emit: () => undefined }).orderCreate({
      order: { lineItems: skus.map(([title, sku, quantity]) => ({ title, sku, quantity, priceSet: { shopMoney: { amount: "100.00" } } })), shippingAddress: { firstName: "Asha", address1: "12 MG Road", city: "Pune", provinceCode: "MH", zip: "411001", countryCode: "IN" } },
    }) as { order: { id: string } };
    return shop.orders.find((order) => order.id === created.order.id)!;
  };
  return { shop, admin, place };
}

const READ = `query R($id: ID!) { order(id: $id) { displayFulfillmentStatus fulfillmentOrders(first: 10, displayable: true) { nodes { id status assignedLocation { location { id } } supportedActions { action }
  lineItems(first: 20) { nodes { id remainingQuantity totalQuantity lineItem { sku } } } } } } }`;
type Read = { order: { displayFulfillmentStatus: string; fulfillmentOrders: { nodes: { id: string; status: string; assignedLocation: { location: { id: string } }; supportedActions: { action: string }[]; lineItems: { nodes: { id: string; remainingQuantity: number; totalQuantity: number; lineItem: { sku: string } }[] } }[] } } };
const MOVE = `mutation M($id: ID!, $to: ID!, $lines: [FulfillmentOrderLineItemInput!]) { fulfillmentOrderMove(id: $id, newLocationId: $to, fulfillmentOrderLineItems: $lines) { movedFulfillmentOrder { id assignedLocation { location { id } } } originalFulfillmentOrder { id status } userErrors { field message code } } }`;
const SPLIT = `mutation S($splits: [FulfillmentOrderSplitInput!]!) { fulfillmentOrderSplit(fulfillmentOrderSplits: $splits) { fulfillmentOrderSplits { fulfillmentOrder { id } remainingFulfillmentOrder { id lineItems(first: 20) { nodes { lineItem { sku } remainingQuantity } } } replacementFulfillmentOrder { id } } userErrors { field message code } } }`;
const MERGE = `mutation G($inputs: [FulfillmentOrderMergeInput!]!) { fulfillmentOrderMerge(fulfillmentOrderMergeInputs: $inputs) { fulfillmentOrderMerges { fulfillmentOrder { id lineItems(first: 20) { nodes { lineItem { sku } remainingQuantity } } } } userErrors { field message code } } }`;
const FOR_MOVE = `query L($id: ID!) { order(id: $id) { fulfillmentOrders(first: 5) { nodes { locationsForMove(first: 5) { nodes { location { id } movable message } } } } } }`;

const skusOf = (fo: Read["order"]["fulfillmentOrders"]["nodes"][number]) => fo.lineItems.nodes.map((line) => line.lineItem.sku).sort();

describe("the local store's fulfillment orders, as Shopify routes and changes them", () => {
  it("routes a new order to one location that stocks everything, else each item to the first location that stocks it", async () => {
    const { admin, place } = world();
    const together = await admin<Read>(READ, { id: place([["Kurta", "KUR-1", 1], ["Diya", "DIY-210", 1]]).id });
    expect(together.order.fulfillmentOrders.nodes.map((fo) => fo.assignedLocation.location.id)).toEqual([LOCATION_BHIWANDI]);

    const apart = await admin<Read>(READ, { id: place([["Diya", "DIY-210", 1], ["Stole", "PSH-220", 2]]).id });
    const [bhiwandi, gurugram] = apart.order.fulfillmentOrders.nodes;
    expect([bhiwandi!.assignedLocation.location.id, gurugram!.assignedLocation.location.id]).toEqual([LOCATION_BHIWANDI, LOCATION_GURUGRAM]);
    expect(skusOf(bhiwandi!)).toEqual(["DIY-210"]);
    expect(gurugram!.lineItems.nodes[0]).toMatchObject({ lineItem: { sku: "PSH-220" }, remainingQuantity: 2 });
    expect(gurugram!.supportedActions.map((action) => action.action)).toEqual(expect.arrayContaining(["CREATE_FULFILLMENT", "SPLIT", "MOVE"]));
  });

  it("moves a whole fulfillment order in place, and a part of one into a new fulfillment order; refuses a location that lacks the stock", async () => {
    const { admin, place } = world();
    const order = place([["Kurta", "KUR-1", 1], ["Dupatta", "DUP-1", 2], ["Diya", "DIY-210", 1]]);
    const [fo] = (await admin<Read>(READ, { id: order.id })).order.fulfillmentOrders.nodes;
    const lines = fo!.lineItems.nodes;
    const refused = await admin<{ fulfillmentOrderMove: { userErrors: { message: string }[] } }>(MOVE, { id: fo!.id, to: LOCATION_GURUGRAM });
    expect(refused.fulfillmentOrderMove.userErrors[0]!.message).toMatch(/doesn't stock Diya/);
    const forMove = await admin<{ order: { fulfillmentOrders: { nodes: { locationsForMove: { nodes: { location: { id: string }; movable: boolean; message: string | null }[] } }[] } } }>(FOR_MOVE, { id: order.id });
    expect(forMove.order.fulfillmentOrders.nodes[0]!.locationsForMove.nodes).toEqual([{ location: { id: LOCATION_GURUGRAM }, movable: false, message: "Gurugram Warehouse doesn't stock Diya." }]);

    const dupatta = lines.find((line) => line.lineItem.sku === "DUP-1")!;
    const part = await admin<{ fulfillmentOrderMove: { movedFulfillmentOrder: { id: string; assignedLocation: { location: { id: string } } }; userErrors: unknown[] } }>(MOVE, { id: fo!.id, to: LOCATION_GURUGRAM, lines: [{ id: dupatta.id, quantity: 1 }] });
    expect(part.fulfillmentOrderMove.userErrors).toEqual([]);
    expect(part.fulfillmentOrderMove.movedFulfillmentOrder.id).not.toBe(fo!.id);
    const after = (await admin<Read>(READ, { id: order.id })).order.fulfillmentOrders.nodes;
    expect(after.map((each) => [each.assignedLocation.location.id, skusOf(each), each.lineItems.nodes.reduce((sum, line) => sum + line.remainingQuantity, 0)])).toEqual([
      [LOCATION_BHIWANDI, ["DIY-210", "DUP-1", "KUR-1"], 3],
      [LOCATION_GURUGRAM, ["DUP-1"], 1],
    ]);

    const whole = place([["Kurta", "KUR-2", 1]]);
    const [single] = (await admin<Read>(READ, { id: whole.id })).order.fulfillmentOrders.nodes;
    const moved = await admin<{ fulfillmentOrderMove: { movedFulfillmentOrder: { id: string; assignedLocation: { location: { id: string } } } } }>(MOVE, { id: single!.id, to: LOCATION_GURUGRAM });
    expect(moved.fulfillmentOrderMove.movedFulfillmentOrder).toEqual({ id: single!.id, assignedLocation: { location: { id: LOCATION_GURUGRAM } } });
  });

  it("splits items out into a new fulfillment order at the same location, and merges them back; the order stays unfulfilled throughout", async () => {
    const { admin, place } = world();
    const order = place(Array.from({ length: 12 }, (_, index): [string, string, number] => [`Sampler ${index}`, `SPI-${index}`, 1]));
    const [fo] = (await admin<Read>(READ, { id: order.id })).order.fulfillmentOrders.nodes;
    const everything = fo!.lineItems.nodes.map((line) => ({ id: line.id, quantity: line.remainingQuantity }));
    const none = await admin<{ fulfillmentOrderSplit: { userErrors: { code: string }[] } }>(SPLIT, { splits: [{ fulfillmentOrderId: fo!.id, fulfillmentOrderLineItems: [] }] });
    expect(none.fulfillmentOrderSplit.userErrors[0]!.code).toBe("NO_LINE_ITEMS_PROVIDED_TO_SPLIT");
    const all = await admin<{ fulfillmentOrderSplit: { userErrors: { code: string }[] } }>(SPLIT, { splits: [{ fulfillmentOrderId: fo!.id, fulfillmentOrderLineItems: everything }] });
    expect(all.fulfillmentOrderSplit.userErrors[0]!.code).toBe("INVALID_LINE_ITEM_QUANTITY");

    const split = await admin<{ fulfillmentOrderSplit: { fulfillmentOrderSplits: { fulfillmentOrder: { id: string }; remainingFulfillmentOrder: { id: string; lineItems: { nodes: { lineItem: { sku: string } }[] } } }[] } }>(SPLIT, { splits: [{ fulfillmentOrderId: fo!.id, fulfillmentOrderLineItems: everything.slice(10) }] });
    const [result] = split.fulfillmentOrderSplit.fulfillmentOrderSplits;
    expect(result!.fulfillmentOrder.id).toBe(fo!.id);
    expect(result!.remainingFulfillmentOrder.lineItems.nodes.map((line) => line.lineItem.sku)).toEqual(["SPI-10", "SPI-11"]);
    const parts = (await admin<Read>(READ, { id: order.id })).order;
    expect(parts.fulfillmentOrders.nodes.map((each) => each.lineItems.nodes.length)).toEqual([10, 2]);
    expect(parts.displayFulfillmentStatus).toBe("UNFULFILLED");
    expect(parts.fulfillmentOrders.nodes[0]!.supportedActions.map((action) => action.action)).toContain("MERGE");

    const merged = await admin<{ fulfillmentOrderMerge: { fulfillmentOrderMerges: { fulfillmentOrder: { lineItems: { nodes: unknown[] } } }[] } }>(MERGE, { inputs: [{ mergeIntents: parts.fulfillmentOrders.nodes.map((each) => ({ fulfillmentOrderId: each.id })) }] });
    expect(merged.fulfillmentOrderMerge.fulfillmentOrderMerges[0]!.fulfillmentOrder.lineItems.nodes).toHaveLength(12);
    const again = (await admin<Read>(READ, { id: order.id })).order;
    // The two merged away are closed and hidden from the displayable list, as Shopify hides them.
    expect(again.fulfillmentOrders.nodes.map((each) => [each.status, each.lineItems.nodes.length])).toEqual([["OPEN", 12]]);
    expect(again.displayFulfillmentStatus).toBe("UNFULFILLED");
  });
});
