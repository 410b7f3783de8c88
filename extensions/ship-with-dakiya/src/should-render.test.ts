import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ORDER_GID } from "../../shared/testing";
import shouldRender, { SHOULD_RENDER_QUERY, type ShouldRenderOrder } from "./should-render";

// The CLI declares the condition under `[extensions.targeting.should_render]`, which the tester does not read
// (it finds modules by `target =` lines only). The action target's mock carries everything the should-render
// API has (`data`, `query`, `i18n`, …), so it stands in for the host here and the module is called directly,
// as the CLI's generated entry calls it.
const extension = getExtension("admin.order-details.action.render");

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = [{ id: ORDER_GID }];
});

afterEach(() => extension.tearDown());

function orderReads(order: ShouldRenderOrder | null) {
  const query = vi.fn(async () => ({ data: { order } }));
  extension.shopify.query = query as typeof extension.shopify.query;
  return query;
}

describe("the Ship with Dakiya menu item", () => {
  it("shows on an unfulfilled order with items to ship, after one small query for that order", async () => {
    const query = orderReads({ displayFulfillmentStatus: "UNFULFILLED", requiresShipping: true });

    await expect(shouldRender()).resolves.toEqual({ display: true });
    expect(query).toHaveBeenCalledExactlyOnceWith(SHOULD_RENDER_QUERY, { variables: { id: ORDER_GID } });
    expect(SHOULD_RENDER_QUERY.replace(/\s+/g, " ").trim()).toBe(
      "#graphql query ShipWithDakiyaShouldRender($id: ID!) { order(id: $id) { displayFulfillmentStatus requiresShipping } }",
    );
  });

  it("shows on a partly fulfilled order", async () => {
    orderReads({ displayFulfillmentStatus: "PARTIALLY_FULFILLED", requiresShipping: true });
    await expect(shouldRender()).resolves.toEqual({ display: true });
  });

  it("hides on an order that is already fulfilled", async () => {
    orderReads({ displayFulfillmentStatus: "FULFILLED", requiresShipping: true });
    await expect(shouldRender()).resolves.toEqual({ display: false });
  });

  it("hides on an order where no line item requires shipping", async () => {
    orderReads({ displayFulfillmentStatus: "UNFULFILLED", requiresShipping: false });
    await expect(shouldRender()).resolves.toEqual({ display: false });
  });

  it("shows when the order cannot be read, so the action can say what stands in the way", async () => {
    orderReads(null);
    await expect(shouldRender()).resolves.toEqual({ display: true });

    extension.shopify.query = vi.fn(async () => {
      throw new Error("Network error");
    });
    await expect(shouldRender()).resolves.toEqual({ display: true });
  });

  it("hides without asking when no order is selected", async () => {
    const query = orderReads({ displayFulfillmentStatus: "UNFULFILLED", requiresShipping: true });
    extension.shopify.data.selected = [];

    await expect(shouldRender()).resolves.toEqual({ display: false });
    expect(query).not.toHaveBeenCalled();
  });
});
