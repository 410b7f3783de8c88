import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/app.storefront";
import prisma from "~/db.server";
import type { EstimateQuery } from "~/storefront/delivery-estimate";
import { createDeliveryEstimates } from "~/storefront/delivery-estimate.server";
import { listenForStorefrontChanges, type StorefrontChangeListener } from "~/settings/settings-changes.server";
import { getStorefrontSettings } from "~/storefront/storefront-settings.server";
import { startShippingWorld } from "../support/store";
import { responseOf } from "../support/webhooks";

/* The Storefront settings page through its loader and action, with session tokens as App Bridge sends them. */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
beforeAll(async () => {
  world = await startShippingWorld();
  await world.store.install();
});
afterAll(() => world.close());

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(key, item);
  return data;
};

const save = (fields: Record<string, string | string[]>) =>
  responseOf(() => action({ request: world.store.adminRequest("/app/storefront", { method: "POST", body: form(fields) }), params: {}, context: {} }) as Promise<Response>);
const load = (query = "") => responseOf(() => loader({ request: world.store.adminRequest(`/app/storefront${query}`), params: {}, context: {} }) as Promise<Response>);

describe("storefront settings", () => {
  it("previews a PIN code before the estimate is on, then saves the settings and previews with them", async () => {
    const before = await (await load("?preview=560038")).json();
    expect(before.settings.estimateEnabled).toBe(false);
    expect(before.preview).toMatchObject({ ok: true, answer: { status: "deliverable", pincode: "560038" } });

    const saved = await save({ estimateEnabled: "on", handlingDays: "3", cutoff: "11:00", closedWeekdays: ["0"], closedDates: "", showCod: "on", codMaxRupees: "", defaultWeightGrams: "500" });
    expect(saved.status).toBe(200);
    expect(await getStorefrontSettings(world.store.domain)).toMatchObject({ estimateEnabled: true, handlingDays: 3, cutoffMinutes: 660, closedWeekdays: [0] });
    const after = await (await load("?preview=560038")).json();
    // Two more handling days move the date on by at least two days.
    expect(Date.parse(after.preview.answer.deliverBy) - Date.parse(before.preview.answer.deliverBy)).toBeGreaterThanOrEqual(2 * 86_400_000);
  });

  it("refuses a mistake on its field and keeps what was saved", async () => {
    const refused = await save({ handlingDays: "99", cutoff: "9am", defaultWeightGrams: "500" });
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).errors).sort()).toEqual(["cutoff", "handlingDays"]);
    expect((await getStorefrontSettings(world.store.domain)).handlingDays).toBe(3);
  });

  it("names a malformed preview PIN code", async () => {
    expect((await (await load("?preview=12")).json()).preview).toMatchObject({ ok: false, message: expect.stringContaining("6 digits") });
  });

  it("reaches every app instance the moment the merchant saves: two instances, each on its own connection, forget the shop's copy at once", async () => {
    // Two app processes, as behind a load balancer: their own caches, their own listening connections.
    const listeners: StorefrontChangeListener[] = [];
    const listen = (onChange: (shop: string | null) => void) => {
      const listener = listenForStorefrontChanges(onChange, { reconnectMs: 50 });
      listeners.push(listener);
      return listener;
    };
    const instances = [0, 1].map(() => createDeliveryEstimates({ clientFor: () => world.courier.client(), listen }));
    try {
      const shop = world.store.domain;
      for (const instance of instances) expect((await instance.estimate(shop, query("560038"))).status).toBe("deliverable");
      expect(listeners).toHaveLength(2);
      await Promise.all(listeners.map((listener) => listener.ready));
      const listening = () => prisma.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = 'dakiya-storefront-settings' AND datname = current_database()`;

      // The merchant turns the estimate off on the Storefront page (the request reached some third process).
      expect((await save({ handlingDays: "3", cutoff: "11:00", closedWeekdays: ["0"], closedDates: "", showCod: "on", codMaxRupees: "", defaultWeightGrams: "500" })).status).toBe(200);
      for (const instance of instances) await until(async () => (await instance.estimate(shop, query("560038"))).status === "off");

      // An instance whose connection was cut misses what is saved meanwhile: it forgets every shop once it listens again.
      for (const { pid } of await listening()) await prisma.$queryRaw`SELECT pg_terminate_backend(${pid})`;
      await prisma.storefrontSettings.update({ where: { shop }, data: { estimateEnabled: true } });
      for (const instance of instances) await until(async () => (await instance.estimate(shop, query("560038"))).status === "deliverable");
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});

const query = (pincode: string): EstimateQuery => ({ pincode, grams: 500, amountPaise: null, language: "en" });

/** Waits up to five seconds (far less than the half minute a copy is otherwise kept) for `condition`. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("not within five seconds");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
