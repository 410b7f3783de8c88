import { describe, expect, it } from "vitest";
import { parse } from "graphql";
import { loadAdminSchema } from "../graphql/admin-schema";
import { requestedCost, runAdminGraphql } from "./admin-api";
import { seedShop } from "./seed";

const SETTINGS = { maximumAvailable: 2_000, restoreRate: 100 };
const at = (iso: string) => () => new Date(iso);

describe("Admin GraphQL on the published schema", () => {
  it("refuses a field Shopify does not have, in Shopify's error shape", async () => {
    const answer = await runAdminGraphql(seedShop(), { query: "{ shop { name courierWallet } }" }, { throttle: SETTINGS, now: () => new Date() });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [{ message: 'Cannot query field "courierWallet" on type "Shop".', locations: [{ line: 1, column: 15 }] }],
    });
  });

  it("says so when a valid field is not implemented, never a silent null", async () => {
    const answer = await runAdminGraphql(seedShop(), { query: "{ shop { name plan { partnerDevelopment } } }" }, { throttle: SETTINGS, now: () => new Date() });
    expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/Shop\.plan is valid in Shopify's schema but not implemented/) });
  });

  it("answers the orders the app lists, filtered by Shopify's search syntax", async () => {
    const answer = await runAdminGraphql(
      seedShop(),
      { query: 'query { orders(first: 50, query: "fulfillment_status:unshipped status:open", sortKey: CREATED_AT) { nodes { name displayFulfillmentStatus } } }' },
      { throttle: SETTINGS, now: () => new Date() },
    );
    const names = (answer.body.data as { orders: { nodes: { name: string; displayFulfillmentStatus: string }[] } }).orders.nodes.map((node) => node.name);
    expect(names).not.toContain("#1011"); // partly fulfilled
    expect(names).not.toContain("#1013"); // cancelled
    expect(names).toContain("#1001");
  });
});

describe("query cost", () => {
  const schema = loadAdminSchema();
  const cost = (query: string, variables = {}) => requestedCost(schema, parse(query), { variables });

  it("follows the published rules", () => {
    expect(cost("{ shop { name } }")).toBe(1);
    expect(cost("{ orders(first: 10) { nodes { id name } } }")).toBe(2 + 10 * 1);
    expect(cost("{ orders(first: 10) { edges { node { id shippingAddress { city } } } } }")).toBe(2 + 10 * 2);
    expect(cost("query ($n: Int = 5) { locations(first: $n) { nodes { id } } }")).toBe(2 + 5);
    expect(cost("query ($n: Int = 5) { locations(first: $n) { nodes { id } } }", { n: 20 })).toBe(2 + 20);
    expect(cost('mutation { tagsAdd(id: "gid://shopify/Order/1", tags: ["x"]) { userErrors { message } } }')).toBe(10);
  });

  it("refuses a single query over 1,000 points", async () => {
    const answer = await runAdminGraphql(seedShop(), { query: "{ orders(first: 250) { nodes { lineItems(first: 50) { nodes { id } } } } }" }, { throttle: SETTINGS, now: () => new Date() });
    expect(answer.body.errors?.[0]).toMatchObject({ extensions: { code: "MAX_COST_EXCEEDED", maxCost: 1000 } });
  });
});

describe("throttling", () => {
  it("throttles at the configured budget and recovers at the restore rate", async () => {
    const shop = seedShop();
    const settings = { maximumAvailable: 50, restoreRate: 10 };
    const query = { query: "{ orders(first: 10) { nodes { id } } }" }; // 12 points
    const run = (clock: string) => runAdminGraphql(shop, query, { throttle: settings, now: at(clock) });

    const first = await run("2026-03-10T00:00:00.000Z");
    expect(first.body.extensions).toEqual({
      cost: { requestedQueryCost: 12, actualQueryCost: 12, throttleStatus: { maximumAvailable: 50, currentlyAvailable: 38, restoreRate: 10 } },
    });
    for (let index = 0; index < 3; index += 1) expect((await run("2026-03-10T00:00:00.000Z")).body.errors).toBeUndefined();
    const throttled = await run("2026-03-10T00:00:00.000Z");
    expect(throttled.body.errors).toEqual([{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }]);
    expect(throttled.body.extensions).toMatchObject({ cost: { requestedQueryCost: 12, actualQueryCost: null, throttleStatus: { currentlyAvailable: 2 } } });

    const recovered = await run("2026-03-10T00:00:01.000Z");
    expect(recovered.body.errors).toBeUndefined();
    expect(recovered.body.extensions).toMatchObject({ cost: { throttleStatus: { currentlyAvailable: 0 } } });
  });
});

describe("fulfillments", () => {
  const fulfill = (shop: ReturnType<typeof seedShop>, fulfillmentOrderId: string) =>
    runAdminGraphql(
      shop,
      {
        query: `mutation ($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id trackingInfo(first: 5) { company number url } } userErrors { field message } } }`,
        variables: { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId }], trackingInfo: { company: "Delhivery", number: "1234", url: "https://www.delhivery.com/track-v2/package/1234" }, notifyCustomer: true } },
      },
      { throttle: SETTINGS, now: () => new Date() },
    );

  it("creates a fulfillment with tracking and closes the fulfillment order; refuses a closed one", async () => {
    const shop = seedShop();
    const order = shop.orders.find((candidate) => candidate.name === "#1001")!;
    const foId = order.fulfillmentOrders[0]!.id;
    const created = await fulfill(shop, foId);
    expect(created.body.data).toMatchObject({
      fulfillmentCreate: { fulfillment: { trackingInfo: [{ company: "Delhivery", number: "1234", url: "https://www.delhivery.com/track-v2/package/1234" }] }, userErrors: [] },
    });
    expect(order.fulfillmentOrders[0]!.status).toBe("CLOSED");
    const again = await fulfill(shop, foId);
    expect(again.body.data).toMatchObject({ fulfillmentCreate: { fulfillment: null, userErrors: [{ message: expect.stringMatching(/closed/) }] } });
    expect(order.fulfillments).toHaveLength(1);
  });
});
