import { describe, expect, it } from "vitest";
import { ORDER_INDEX_PRINT_TARGET, ORDER_PRINT_TARGET, servePrintActions } from "./admin-print-actions";
import { productionBuild } from "../test/support/production-build";

const SHOP = "dakiya-demo.myshopify.com";
const orderGid = (id: number) => `gid://shopify/Order/${id}`;

/** The frame of a print action, as the print dialog asks for it: the action, its page's target, the selection. */
function frame(handle: string, target: string, selected: readonly string[]): Response {
  const address = `http://localhost:4000/__shell/extensions/${handle}/frame?shop=${SHOP}&target=${target}&selected=${selected.join(",")}`;
  return servePrintActions(new Request(address), { shop: SHOP, appUrl: "http://localhost:3000" })!;
}

/** The selection the frame hands the extension as `shopify.data.selected`. */
async function selectionIn(answer: Response): Promise<unknown> {
  const config = /const config = (\{.*\});/.exec(await answer.text())?.[1];
  return (JSON.parse(config!) as { selected: unknown }).selected;
}

describe("the local admin's print-action frames", () => {
  it("hands the Orders list's action every selected order", async () => {
    const answer = frame("dakiya-print-labels", ORDER_INDEX_PRINT_TARGET, [orderGid(5000101), orderGid(5000102)]);
    expect(answer.status).toBe(200);
    expect(await selectionIn(answer)).toEqual([{ id: orderGid(5000101) }, { id: orderGid(5000102) }]);
  });

  it("hands an order page's action its one order, and refuses more", async () => {
    const answer = frame("dakiya-print-label", ORDER_PRINT_TARGET, [orderGid(5000101)]);
    expect(answer.status).toBe(200);
    expect(await selectionIn(answer)).toEqual([{ id: orderGid(5000101) }]);
    const two = frame("dakiya-print-label", ORDER_PRINT_TARGET, [orderGid(5000101), orderGid(5000102)]);
    expect(two.status).toBe(400);
    expect(await two.text()).toBe("selected names 2 orders; this page hands its print actions at most 1");
  });

  it("refuses a selection holding anything but an order's gid, naming it", async () => {
    for (const stranger of ["gid://shopify/Product/5000101", "5000101", "gid://shopify/Order/12abc"]) {
      const answer = frame("dakiya-print-labels", ORDER_INDEX_PRINT_TARGET, [orderGid(5000101), stranger]);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toBe(`selected holds "${stranger}", which is not an order's gid`);
    }
  });

  it("takes up to 500 orders from the list, and refuses an empty selection or a larger one", async () => {
    const orders = (count: number) => Array.from({ length: count }, (_, index) => orderGid(5_000_000 + index));
    expect(frame("dakiya-print-labels", ORDER_INDEX_PRINT_TARGET, orders(500)).status).toBe(200);
    const tooMany = frame("dakiya-print-labels", ORDER_INDEX_PRINT_TARGET, orders(501));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toBe("selected names 501 orders; this page hands its print actions at most 500");
    const none = frame("dakiya-print-labels", ORDER_INDEX_PRINT_TARGET, []);
    expect(none.status).toBe(400);
    expect(await none.text()).toBe("selected must name the orders to print, as gids separated by commas");
  });

  it("serves the built bundle each frame loads (npm run build)", async () => {
    await productionBuild();
    for (const [handle, target] of [["dakiya-print-label", ORDER_PRINT_TARGET], ["dakiya-print-labels", ORDER_INDEX_PRINT_TARGET]] as const) {
      const bundle = /<script src="([^"]+\/bundle\.js[^"]*)"/.exec(await frame(handle, target, [orderGid(5000101)]).text())![1]!;
      const answer = servePrintActions(new Request(`http://localhost:4000${bundle}`), { shop: SHOP, appUrl: "http://localhost:3000" })!;
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(answer.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    }
  });

  it("serves only an action declared for the target asked", () => {
    expect(frame("dakiya-print-label", ORDER_INDEX_PRINT_TARGET, [orderGid(5000101)]).status).toBe(404);
    expect(frame("ship-with-dakiya", ORDER_PRINT_TARGET, [orderGid(5000101)]).status).toBe(404);
  });
});
