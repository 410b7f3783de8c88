import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signSessionToken, type AppCredentials } from "./auth";
import { nextId } from "./model";
import { SEED_SHOP, seedShop } from "./seed";
import { createStoreSimulator } from "./simulator";
import { loadStoreState, saveStoreState } from "./store-state";

const APP: AppCredentials = { apiKey: "state-test-key", apiSecret: "state-test-secret", scopes: "read_orders,write_orders" };
const ADMIN_API = `http://store.test/${SEED_SHOP}/admin/api/2026-10/graphql.json`;

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "dakiya-store-state-"));
  file = path.join(directory, "local-store.json");
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** A simulator that saves itself to `file` after every change, as the demo's store does. */
function savingSimulator(shops = loadStoreState(file) ?? [seedShop()]) {
  const simulator = createStoreSimulator({ app: APP, appUrl: "http://127.0.0.1:1", shops, webhookRetryDelaysMs: [], onChange: () => saveStoreState(file, simulator.shops.values()) });
  return simulator;
}

async function exchangeToken(simulator: ReturnType<typeof savingSimulator>): Promise<string> {
  const body = new URLSearchParams({ client_id: APP.apiKey, client_secret: APP.apiSecret, grant_type: "urn:ietf:params:oauth:grant-type:token-exchange", subject_token: signSessionToken(APP, SEED_SHOP), expiring: "1" });
  const answer = await simulator.handle(new Request(`http://store.test/${SEED_SHOP}/admin/oauth/access_token`, { method: "POST", body }));
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function graphql(simulator: ReturnType<typeof savingSimulator>, token: string, query: string, variables: Record<string, unknown> = {}) {
  const answer = await simulator.handle(new Request(ADMIN_API, { method: "POST", headers: { "X-Shopify-Access-Token": token, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) }));
  return { status: answer.status, body: (await answer.json()) as { data?: Record<string, { tags?: string[] } | null> } };
}

describe("the local store kept in a file", () => {
  it("a store started again from its file answers as the first left off: its tokens, its orders' changes, new ids after the old", async () => {
    const first = savingSimulator();
    const token = await exchangeToken(first);
    const order = first.shop(SEED_SHOP).orders[0]!;
    const tagged = await graphql(first, token, "mutation Tag($id: ID!) { tagsAdd(id: $id, tags: [\"kept\"]) { userErrors { message } } }", { id: order.id });
    expect(tagged.status).toBe(200);
    const placed = first.placeOrder(SEED_SHOP, { lineItems: [{ title: "Tote", quantity: 1 }] });

    const second = savingSimulator();
    const read = await graphql(second, token, "query Tags($id: ID!) { order(id: $id) { tags } }", { id: order.id });
    expect(read.status).toBe(200);
    expect(read.body.data!.order!.tags).toContain("kept");
    expect(second.shop(SEED_SHOP).orders.map((each) => each.name)).toContain(placed.name);
    // Ids handed out after the restore never meet one the first store gave.
    const savedIds = [...JSON.stringify([...second.shops.values()]).matchAll(/gid:\/\/shopify\/\w+\/(\d+)/g)].map((match) => Number(match[1]));
    expect(nextId()).toBeGreaterThan(Math.max(...savedIds));
  });

  it("is written only when something changed: a query leaves the file as it was", async () => {
    const simulator = savingSimulator();
    const token = await exchangeToken(simulator);
    rmSync(file);
    await graphql(simulator, token, "{ shop { name } }");
    expect(existsSync(file)).toBe(false);
    await graphql(simulator, token, "mutation Tag($id: ID!) { tagsAdd(id: $id, tags: [\"x\"]) { userErrors { message } } }", { id: simulator.shop(SEED_SHOP).orders[0]!.id });
    expect(existsSync(file)).toBe(true);
  });

  it("keeps a token that never expires, starts with a full bucket and no injected failures, and leaves no partial file", () => {
    const shop = seedShop();
    shop.accessTokens.set("shpat_forever", { scope: APP.scopes, expiresAt: Number.POSITIVE_INFINITY });
    shop.bucket = { available: 3, updatedAt: 1 };
    shop.faults.set("fulfillmentCreate", { kind: "THROTTLED", times: 2 });
    saveStoreState(file, [shop]);
    const [restored] = loadStoreState(file)!;
    expect(restored!.accessTokens.get("shpat_forever")!.expiresAt).toBe(Number.POSITIVE_INFINITY);
    expect(restored!.orders).toEqual(shop.orders);
    expect(Number.isNaN(restored!.bucket.available)).toBe(true);
    expect(restored!.faults.size).toBe(0);
    expect(readdirSync(directory)).toEqual(["local-store.json"]);
  });

  it("nothing saved is no state; a file of another format is refused with what to do", () => {
    expect(loadStoreState(file)).toBeNull();
    writeFileSync(file, JSON.stringify({ format: 99, lastId: 0, shops: [] }));
    expect(() => loadStoreState(file)).toThrowError(/delete it to start the store afresh/);
  });
});
