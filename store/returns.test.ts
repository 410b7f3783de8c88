import { describe, expect, it } from "vitest";
import { validateAdminDocument } from "../graphql/admin-schema";
import { runAdminGraphql } from "./admin-api";
import { createAdminShell } from "./admin-shell";
import type { AppCredentials } from "./auth";
import { SEED_SHOP, seedShop } from "./seed";
import { fulfillmentLines } from "./returns";
import { createStoreSimulator } from "./simulator";

const APP: AppCredentials = { apiKey: "returns-test-key", apiSecret: "returns-test-secret", scopes: "read_orders,read_returns,write_returns" };
const throttle = { maximumAvailable: 20_000, restoreRate: 1_000 };

function world() {
  const shop = seedShop();
  const simulator = createStoreSimulator({ app: APP, appUrl: "http://127.0.0.1:1", shops: [shop], webhookRetryDelaysMs: [] });
  const events: string[] = [];
  const admin = async (query: string, variables: Record<string, unknown> = {}) => {
    expect(validateAdminDocument(query)).toEqual([]);
    const answer = await runAdminGraphql(shop, { query, variables }, { throttle, now: () => new Date(), emit: (event) => events.push(`${event.topic} ${"return" in event ? event.return.name : event.order.name}`) });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data as Record<string, { return?: { id: string; status: string } | null; reverseDelivery?: { id: string } | null; userErrors: { message: string; code: string }[] }>;
  };
  // #1011 was shipped in part: its first line has a fulfillment line the shopper can send back.
  const order = shop.orders.find((each) => each.name === "#1011")!;
  const shipped = fulfillmentLines(order)[0]!;
  return { shop, simulator, events, admin, order, shipped };
}

const RETURN_REQUEST = `mutation R($input: ReturnRequestInput!) { returnRequest(input: $input) { return { id status } userErrors { message code } } }`;
const RETURN_APPROVE = `mutation A($input: ReturnApproveRequestInput!) { returnApproveRequest(input: $input) { return { id status } userErrors { message code } } }`;
const RETURN_DECLINE = `mutation D($input: ReturnDeclineRequestInput!) { returnDeclineRequest(input: $input) { return { id status } userErrors { message code } } }`;
const RETURN_READ = `query Q($id: ID!) { return(id: $id) { name status order { id returnStatus } returnLineItems(first: 5) { nodes { ... on ReturnLineItem { id quantity unprocessedQuantity fulfillmentLineItem { id lineItem { title } } } } }
  reverseFulfillmentOrders(first: 2) { nodes { id status lineItems(first: 5) { nodes { id totalQuantity dispositions { type quantity location { id } } } } reverseDeliveries(first: 2) { nodes { id deliverable { ... on ReverseDeliveryShippingDeliverable { tracking { number url } label { publicFileUrl } } } } } } } } }`;
const DELIVERY_CREATE = `mutation C($rfo: ID!, $lines: [ReverseDeliveryLineItemInput!]!, $tracking: ReverseDeliveryTrackingInput, $label: ReverseDeliveryLabelInput) {
  reverseDeliveryCreateWithShipping(reverseFulfillmentOrderId: $rfo, reverseDeliveryLineItems: $lines, trackingInput: $tracking, labelInput: $label, notifyCustomer: true) { reverseDelivery { id } userErrors { message code } } }`;
const DELIVERY_UPDATE = `mutation U($id: ID!, $tracking: ReverseDeliveryTrackingInput) { reverseDeliveryShippingUpdate(reverseDeliveryId: $id, trackingInput: $tracking) { reverseDelivery { id } userErrors { message code } } }`;
const PROCESS = `mutation P($input: ReturnProcessInput!) { returnProcess(input: $input) { return { id status } userErrors { message code } } }`;

type ReadReturn = {
  return: {
    name: string;
    status: string;
    order: { id: string; returnStatus: string };
    returnLineItems: { nodes: { id: string; quantity: number; unprocessedQuantity: number; fulfillmentLineItem: { id: string; lineItem: { title: string } } }[] };
    reverseFulfillmentOrders: { nodes: { id: string; status: string; lineItems: { nodes: { id: string; totalQuantity: number; dispositions: { type: string; quantity: number; location: { id: string } | null }[] }[] }; reverseDeliveries: { nodes: { id: string; deliverable: { tracking: { number: string; url: string } | null; label: { publicFileUrl: string } | null } }[] } }[] };
  };
};

describe("the local store's returns, on Shopify's 2026-10 schema", () => {
  it("takes a return from the shopper's request through approval, a reverse delivery with tracking, and processing, with each webhook", async () => {
    const { admin, events, order, shipped, shop } = world();
    const over = await admin(RETURN_REQUEST, { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: shipped.quantity + 1 }] } });
    expect(over.returnRequest!.userErrors[0]!.message).toMatch(/exceeds/);
    const requested = await admin(RETURN_REQUEST, { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: 1, customerNote: "Too small" }] } });
    const returnId = requested.returnRequest!.return!.id;
    expect(requested.returnRequest!.return!.status).toBe("REQUESTED");
    // Nothing can come back twice: the request holds the item.
    expect((await admin(RETURN_REQUEST, { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: shipped.quantity }] } })).returnRequest!.userErrors[0]!.message).toMatch(/exceeds/);

    expect((await admin(RETURN_APPROVE, { input: { id: returnId } })).returnApproveRequest!.return!.status).toBe("OPEN");
    expect((await admin(RETURN_APPROVE, { input: { id: returnId } })).returnApproveRequest!.userErrors[0]!.code).toBe("INVALID_STATE");
    let read = (await admin(RETURN_READ, { id: returnId })) as unknown as ReadReturn;
    expect(read.return).toMatchObject({ name: "#1011-R1", status: "OPEN", order: { id: order.id, returnStatus: "IN_PROGRESS" } });
    const rfo = read.return.reverseFulfillmentOrders.nodes[0]!;
    expect(rfo).toMatchObject({ status: "OPEN", lineItems: { nodes: [{ totalQuantity: 1, dispositions: [] }] }, reverseDeliveries: { nodes: [] } });

    const lines = [{ reverseFulfillmentOrderLineItemId: rfo.lineItems.nodes[0]!.id, quantity: 1 }];
    expect((await admin(DELIVERY_CREATE, { rfo: rfo.id, lines, tracking: { url: "https://dakiya.example.com/t/X" } })).reverseDeliveryCreateWithShipping!.userErrors[0]!.message).toMatch(/requires a tracking number/);
    const created = await admin(DELIVERY_CREATE, { rfo: rfo.id, lines, tracking: { number: "DKY1", url: "https://dakiya.example.com/t/DKY1" }, label: { fileUrl: "https://dakiya.example.com/l/DKY1.pdf" } });
    const deliveryId = created.reverseDeliveryCreateWithShipping!.reverseDelivery!.id;
    // Every item already travels: a second delivery for the same line is refused.
    expect((await admin(DELIVERY_CREATE, { rfo: rfo.id, lines, tracking: { number: "DKY2" } })).reverseDeliveryCreateWithShipping!.userErrors[0]!.message).toMatch(/between 1 and the 0/);
    await admin(DELIVERY_UPDATE, { id: deliveryId, tracking: { url: "https://dakiya.example.com/t/DKY1?lang=hi" } });
    read = (await admin(RETURN_READ, { id: returnId })) as unknown as ReadReturn;
    expect(read.return.reverseFulfillmentOrders.nodes[0]!.reverseDeliveries.nodes).toEqual([
      { id: deliveryId, deliverable: { tracking: { number: "DKY1", url: "https://dakiya.example.com/t/DKY1?lang=hi" }, label: { publicFileUrl: "https://dakiya.example.com/l/DKY1.pdf" } } },
    ]);

    const returnLine = read.return.returnLineItems.nodes[0]!;
    const location = shop.locations[0]!.id;
    const restock = { reverseFulfillmentOrderLineItemId: lines[0]!.reverseFulfillmentOrderLineItemId, quantity: 1, dispositionType: "RESTOCKED" };
    expect((await admin(PROCESS, { input: { returnId, returnLineItems: [{ id: returnLine.id, quantity: 1, dispositions: [restock] }] } })).returnProcess!.userErrors[0]!.message).toMatch(/location is required/);
    const processed = await admin(PROCESS, { input: { returnId, returnLineItems: [{ id: returnLine.id, quantity: 1, dispositions: [{ ...restock, locationId: location }] }] } });
    expect(processed.returnProcess!.return!.status).toBe("CLOSED");
    read = (await admin(RETURN_READ, { id: returnId })) as unknown as ReadReturn;
    expect(read.return.returnLineItems.nodes[0]!.unprocessedQuantity).toBe(0);
    expect(read.return.reverseFulfillmentOrders.nodes[0]!.lineItems.nodes[0]!.dispositions).toEqual([{ type: "RESTOCKED", quantity: 1, location: { id: location } }]);
    expect(events).toEqual(["returns/request #1011-R1", "returns/approve #1011-R1", "returns/process #1011-R1"]);
  });

  it("declines a requested return, and opens a merchant's return at once with no webhook", async () => {
    const { admin, events, order, shipped } = world();
    const requested = await admin(RETURN_REQUEST, { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: 1 }] } });
    const declined = await admin(RETURN_DECLINE, { input: { id: requested.returnRequest!.return!.id, declineReason: "FINAL_SALE", declineNote: "Sale items are final" } });
    expect(declined.returnDeclineRequest!.return!.status).toBe("DECLINED");
    const created = await admin(`mutation C($input: ReturnInput!) { returnCreate(returnInput: $input) { return { id status } userErrors { message code } } }`, {
      input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: 1 }] },
    });
    expect(created.returnCreate!.return!.status).toBe("OPEN");
    const listed = (await admin(`query O($id: ID!) { order(id: $id) { returns(first: 5, query: "status:open") { nodes { id status } } } }`, { id: order.id })) as unknown as { order: { returns: { nodes: { id: string }[] } } };
    expect(listed.order.returns.nodes.map((ret) => ret.id)).toEqual([created.returnCreate!.return!.id]);
    expect(events).toEqual(["returns/request #1011-R1", "returns/decline #1011-R1"]);
  });

  it("disposes of returned items by reverse fulfillment order line, refusing more than came back", async () => {
    const { admin, order, shipped, shop } = world();
    const created = await admin(`mutation C($input: ReturnInput!) { returnCreate(returnInput: $input) { return { id status } userErrors { message code } } }`, {
      input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: shipped.id, quantity: 1 }] },
    });
    const read = (await admin(RETURN_READ, { id: created.returnCreate!.return!.id })) as unknown as ReadReturn;
    const line = read.return.reverseFulfillmentOrders.nodes[0]!.lineItems.nodes[0]!;
    const DISPOSE = `mutation X($inputs: [ReverseFulfillmentOrderDisposeInput!]!) { reverseFulfillmentOrderDispose(dispositionInputs: $inputs) { reverseFulfillmentOrderLineItems { id dispositions { type quantity } } userErrors { message code } } }`;
    const answer = (await admin(DISPOSE, { inputs: [{ reverseFulfillmentOrderLineItemId: line.id, quantity: 2, dispositionType: "NOT_RESTOCKED" }] })) as unknown as { reverseFulfillmentOrderDispose: { userErrors: { message: string }[] } };
    expect(answer.reverseFulfillmentOrderDispose.userErrors[0]!.message).toMatch(/between 1 and the 1/);
    const done = (await admin(DISPOSE, { inputs: [{ reverseFulfillmentOrderLineItemId: line.id, quantity: 1, dispositionType: "RESTOCKED", locationId: shop.locations[1]!.id }] })) as unknown as {
      reverseFulfillmentOrderDispose: { reverseFulfillmentOrderLineItems: { id: string; dispositions: { type: string; quantity: number }[] }[] };
    };
    expect(done.reverseFulfillmentOrderDispose.reverseFulfillmentOrderLineItems).toEqual([{ id: line.id, dispositions: [{ type: "RESTOCKED", quantity: 1 }] }]);
  });

  it("the local admin's order page shows the returns and their reverse deliveries, and approves a request", async () => {
    const { simulator, order, shipped, shop } = world();
    const handle = createAdminShell({ app: APP, appUrl: "http://127.0.0.1:1", defaultShop: SEED_SHOP, shopName: () => shop.name, simulator });
    const open = async (path: string, init?: RequestInit) => (await handle(new Request(`http://localhost:4000${path}`, init)))!;
    const page = `/admin/orders/${order.legacyResourceId}`;
    expect(await (await open(page)).text()).toContain("Request return (as the shopper)");

    const requested = await open(`${page}/returns/request?shop=${SEED_SHOP}`, { method: "POST", body: new URLSearchParams({ returnId: "" }) });
    expect(requested.status).toBe(303);
    const ret = order.returns![0]!;
    expect(ret).toMatchObject({ status: "REQUESTED", lines: [{ fulfillmentLineItemId: shipped.id }] });
    expect(await (await open(requested.headers.get("Location")!)).text()).toMatch(/returns\/request.*#1011-R1.*Return requested.*Approve return/s);

    expect((await open(`${page}/returns/approve?shop=${SEED_SHOP}`, { method: "POST", body: new URLSearchParams({ returnId: ret.id }) })).status).toBe(303);
    expect(ret.status).toBe("OPEN");
    ret.reverseFulfillmentOrders[0]!.deliveries.push({ id: "gid://shopify/ReverseDelivery/1", lines: [], tracking: { number: "DKY9", url: "https://dakiya.example.com/t/DKY9" }, label: null, notifyCustomer: true });
    const html = await (await open(page)).text();
    expect(html).toContain('Reverse delivery · tracking number <strong>DKY9</strong> · <a href="https://dakiya.example.com/t/DKY9">');
    expect(html).not.toContain("Return label");
    const stamp = new Date().toISOString();
    ret.reverseFulfillmentOrders[0]!.deliveries[0]!.label = { fileUrl: "https://dakiya.example.com/documents/abc.def", createdAt: stamp, updatedAt: stamp };
    expect(await (await open(page)).text()).toContain('<a href="https://dakiya.example.com/documents/abc.def">Return label</a>');
    expect(html).toMatch(/Return in progress.*Cancel return/s);
    // Approving twice is Shopify's refusal, shown on the page, not a crash.
    expect((await open(`${page}/returns/approve?shop=${SEED_SHOP}`, { method: "POST", body: new URLSearchParams({ returnId: ret.id }) })).status).toBe(409);
  });
});
