import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  allByText,
  button,
  click,
  deferred,
  fakeBackend,
  hostI18n,
  json,
  ORDER_GID,
  orderShipping,
  pageText,
  shipment,
  unmount,
  type BackendAnswer,
  type BackendCall,
  type Locale,
} from "../../shared/testing";
import en from "../locales/en.default.json";
import hi from "../locales/hi.json";

const extension = getExtension("admin.order-details.block.render");

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = [{ id: ORDER_GID }];
  useLocale("en");
});

afterEach(() => {
  unmount();
  extension.tearDown();
});

function useLocale(locale: Locale) {
  extension.shopify.i18n = hostI18n(locale, { en, hi });
}

async function open(respond: (call: BackendCall) => BackendAnswer | Promise<BackendAnswer>) {
  const backend = fakeBackend(respond);
  extension.fetch = backend.fetch;
  await extension.render();
  return backend;
}

const GET = { method: "GET", path: "/api/orders/5551234", body: undefined };
const SYNC = { method: "POST", path: "/api/orders/5551234/sync", body: {} };

const block = () => document.body.querySelector("s-admin-block")!;
const shipped = orderShipping({ state: "shipment", rates: [], shipment: shipment() });

describe("an order shipped with Dakiya", () => {
  it("shows the courier, awb, tracking link, courier status, latest event and estimated delivery", async () => {
    const backend = await open(() => json(shipped));

    await vi.waitFor(() => expect(pageText()).toContain("XB1234567890"));
    expect(backend.calls).toEqual([GET]);
    expect(block().getAttribute("heading")).toBe("Dakiya shipment");
    expect(block().getAttribute("collapsedSummary")).toBe("In transit");
    expect(document.body.querySelector("s-badge")!.textContent).toBe("In transit");
    const text = pageText();
    expect(text).toContain("Courier Xpressbees");
    expect(text).toContain("AWB XB1234567890");
    expect(button("Print label").getAttribute("href")).toBe("https://dakiya.example.in/documents/label-token");
    expect(button("Print label").getAttribute("target")).toBe("_blank");
    expect(text).toContain("Courier status In transit · 20 Nov 2026, 3:00 pm");
    expect(text).toContain("Latest update In transit: Shipment reached hub, Bhiwandi · 20 Nov 2026, 3:00 pm");
    expect(text).toContain("Estimated delivery Tue, 24 Nov");
    const track = document.body.querySelector("s-link")!;
    expect(track.getAttribute("href")).toBe("https://track.example.in/XB1234567890");
    expect(track.textContent).toBe("Track shipment");
    expect(allByText("s-button", "Ship with Dakiya")).toHaveLength(0);
  });

  it("syncs on Sync now and shows what the courier reported", async () => {
    const synced = deferred<Response>();
    const backend = await open((call) => (call.method === "GET" ? json(shipped) : synced.promise));
    await vi.waitFor(() => expect(button("Sync now")).toBeTruthy());

    click(button("Sync now"));
    await vi.waitFor(() => expect(button("Sync now").hasAttribute("loading")).toBe(true));
    synced.resolve(
      json({
        order: orderShipping({
          state: "shipment",
          rates: [],
          shipment: shipment({
            statusLabel: "Delivered",
            courierStatus: { code: 7, label: "Delivered", at: "2026-11-22T06:15:00.000Z" },
            lastEvent: { label: "Delivered", activity: "Handed to the customer", location: null, at: "2026-11-22T06:15:00.000Z" },
          }),
        }),
      }),
    );

    await vi.waitFor(() => expect(pageText()).toContain("Latest update Delivered: Handed to the customer · 22 Nov 2026, 11:45 am"));
    expect(button("Sync now").hasAttribute("loading")).toBe(false);
    expect(block().getAttribute("collapsedSummary")).toBe("Delivered");
    expect(backend.calls).toEqual([GET, SYNC]);
  });

  it("keeps the shipment on screen when a sync fails, and syncing again works", async () => {
    let syncs = 0;
    const backend = await open((call) => {
      if (call.method === "GET") return json(shipped);
      syncs += 1;
      return syncs === 1 ? json({ error: "Bad gateway" }, 502) : json({ order: shipped });
    });
    await vi.waitFor(() => expect(button("Sync now")).toBeTruthy());

    click(button("Sync now"));
    await vi.waitFor(() => expect(pageText()).toContain("Sync didn't go through"));
    expect(pageText()).toContain("Dakiya couldn't handle the request (error 502). Try again.");
    expect(pageText()).toContain("AWB XB1234567890");

    click(button("Sync now"));
    await vi.waitFor(() => expect(pageText()).not.toContain("Sync didn't go through"));
    expect(backend.calls).toEqual([GET, SYNC, SYNC]);
  });

  it("shows what the merchant must do when the shipment needs attention", async () => {
    await open(() =>
      json(
        orderShipping({
          state: "shipment",
          rates: [],
          shipment: shipment({ statusLabel: "Return to origin", attention: "The parcel is returning: call the customer before reshipping." }),
        }),
      ),
    );

    await vi.waitFor(() => expect(pageText()).toContain("Needs your attention"));
    expect(pageText()).toContain("The parcel is returning: call the customer before reshipping.");
    expect(document.body.querySelector("s-badge")!.getAttribute("tone")).toBe("warning");
  });

  it("shows the auto-booking decision's reason", async () => {
    await open(() =>
      json({ ...shipped, decision: { reason: "Rule 2 'COD under ₹2,000' → cheapest: Delhivery ₹98", at: "2026-11-19T04:30:00.000Z" } }),
    );

    await vi.waitFor(() =>
      expect(pageText()).toContain("Auto-booking: Rule 2 'COD under ₹2,000' → cheapest: Delhivery ₹98 (19 Nov 2026, 10:00 am)"),
    );
  });
});

describe("a cash-on-delivery order's risk and confirmation", () => {
  const risky = orderShipping({
    cod: {
      riskLevel: "high",
      riskScore: 78,
      reasons: ["PIN code 854105: 3 of 3 parcels came back (RTO) in the last year (100 %) (+40)", "Parcels of this shopper's earlier orders that came back (RTO): 3 (matched by phone or e-mail) (+45)", "First order from this phone and e-mail (+5)", "The address is very short (9 letters and digits) (+8)", "The phone number looks made up (+10)"],
      confirmation: { state: "asked", label: "Waiting for the shopper", deadlineAt: "2026-11-21T06:30:00.000Z", open: true },
    },
  });

  it("shows the level, the score and the weightiest reasons, and where the shopper's confirmation stands", async () => {
    await open(() => json(risky));
    await vi.waitFor(() => expect(pageText()).toContain("RTO risk"));
    expect(pageText()).toContain("High");
    expect(pageText()).toContain("78/100");
    expect(pageText()).toContain("PIN code 854105: 3 of 3 parcels came back");
    expect(pageText()).not.toContain("The phone number looks made up");
    expect(pageText()).toContain("Waiting for the shopper");
    expect(pageText()).toContain("until 21 Nov 2026, 12:00 pm");
  });

  it("says it in Hindi for a Hindi admin", async () => {
    useLocale("hi");
    await open(() => json(risky));
    await vi.waitFor(() => expect(pageText()).toContain("RTO जोखिम"));
    expect(pageText()).toContain("ऊँचा");
  });
});

describe("an order with returns", () => {
  const pickup = { returnName: "#1014-R1", status: "OPEN", pickupLabel: "Return in transit", courierName: "Delhivery", awb: "DL55500011", trackingUrl: "https://track.example.in/DL55500011", note: null, receivedAt: null };
  const waiting = { returnName: "#1014-R2", status: "OPEN", pickupLabel: null, courierName: null, awb: null, trackingUrl: null, note: "Return rule 1 'Valuable' → hold for review: book the pickup yourself.", receivedAt: null };

  it("shows each return's state, courier and awb apart from the shipment, and a waiting pickup's reason with Book pickup", async () => {
    await open(() => json({ ...shipped, returns: [pickup, waiting] }));

    await vi.waitFor(() => expect(pageText()).toContain("Return #1014-R1"));
    const text = pageText();
    expect(text).toContain("AWB XB1234567890");
    expect(text).toContain("Pickup Delhivery");
    expect(text).toContain("AWB DL55500011");
    expect(allByText("s-badge", "Return in transit")).toHaveLength(1);
    expect(text).toContain("Return #1014-R2");
    expect(text).toContain("Return rule 1 'Valuable' → hold for review");
    expect(button("Book pickup").getAttribute("href")).toBe(`app:app/orders/${ORDER_GID.split("/").pop()}/ship`);
    expect([...document.body.querySelectorAll("s-link")].map((link) => link.getAttribute("href"))).toContain("https://track.example.in/DL55500011");
  });

  it("says a pickup is back at the warehouse, in Hindi too", async () => {
    useLocale("hi");
    await open(() => json({ ...shipped, returns: [{ ...pickup, status: "CLOSED", receivedAt: "2026-11-25T06:00:00.000Z" }] }));

    await vi.waitFor(() => expect(pageText()).toContain("रिटर्न #1014-R1"));
    expect(allByText("s-badge", "वेयरहाउस पहुँच गया")).toHaveLength(1);
    expect(allByText("s-button", "पिकअप बुक करें")).toHaveLength(0);
  });
});

describe("an order without a shipment", () => {
  it("says so in one line and opens the Ship with Dakiya action", async () => {
    const navigate = vi.fn();
    extension.shopify.navigation.navigate = navigate;
    const backend = await open(() => json(orderShipping()));

    await vi.waitFor(() => expect(pageText()).toContain("Not shipped with Dakiya yet."));
    expect(block().getAttribute("collapsedSummary")).toBe("Not shipped yet");
    expect(allByText("s-button", "Sync now")).toHaveLength(0);

    click(button("Ship with Dakiya"));
    expect(navigate).toHaveBeenCalledExactlyOnceWith("extension:ship-with-dakiya");
    expect(backend.calls).toEqual([GET]);
  });

  it("lists the problems that stop it shipping, with their fixes, and no Ship button", async () => {
    const backend = await open(() =>
      json(
        orderShipping({
          state: "problems",
          rates: [],
          problems: [{ code: "no_weight", message: "Two items have no weight.", fix: "Set a weight on each product variant." }],
        }),
      ),
    );

    await vi.waitFor(() => expect(pageText()).toContain("This order can't be shipped yet"));
    expect(document.body.querySelector("s-list-item")!.textContent).toBe(
      "Two items have no weight. What to do: Set a weight on each product variant.",
    );
    expect(block().getAttribute("collapsedSummary")).toBe("1 problem to fix");
    expect(allByText("s-button", "Ship with Dakiya")).toHaveLength(0);

    click(button("Check again"));
    await vi.waitFor(() => expect(backend.calls).toEqual([GET, GET]));
  });

  it("says when the order is cancelled", async () => {
    await open(() => json(orderShipping({ state: "cancelled", rates: [] })));
    await vi.waitFor(() => expect(pageText()).toContain("This order is cancelled, so there is nothing to ship."));
    expect(block().getAttribute("collapsedSummary")).toBe("Order cancelled");
  });

  it("shows the courier service's message when it is down, with a retry", async () => {
    const backend = await open(() => json(orderShipping({ state: "unavailable", rates: [], message: "Courier service is down for maintenance." })));
    await vi.waitFor(() => expect(pageText()).toContain("Courier service unavailable Courier service is down for maintenance."));
    click(button("Try again"));
    await vi.waitFor(() => expect(backend.calls).toEqual([GET, GET]));
  });
});

describe("loading", () => {
  it("shows a spinner until the backend answers", async () => {
    const answer = deferred<Response>();
    await open(() => answer.promise);

    expect(document.body.querySelector("s-spinner")!.getAttribute("accessibilityLabel")).toBe("Loading shipment");
    answer.resolve(json(shipped));
    await vi.waitFor(() => expect(document.body.querySelector("s-spinner")).toBeNull());
  });

  it("shows a failed load as an error with a retry, never a blank card", async () => {
    let calls = 0;
    const backend = await open(() => (++calls === 1 ? "network-error" : json(shipped)));

    await vi.waitFor(() => expect(pageText()).toContain("Couldn't load this order's shipment"));
    expect(pageText()).toContain("Couldn't reach Dakiya. Check your connection and try again.");
    click(button("Try again"));
    await vi.waitFor(() => expect(pageText()).toContain("AWB XB1234567890"));
    expect(backend.calls).toEqual([GET, GET]);
  });
});

describe("in Hindi", () => {
  it("shows the shipment and its buttons in Hindi", async () => {
    useLocale("hi");
    await open(() => json(shipped));

    await vi.waitFor(() => expect(button("अभी सिंक करें")).toBeTruthy());
    expect(block().getAttribute("heading")).toBe("डाकिया शिपमेंट");
    expect(pageText()).toContain("कूरियर Xpressbees");
    expect(pageText()).toContain("ताज़ा अपडेट In transit: Shipment reached hub, Bhiwandi");
    expect(document.body.querySelector("s-link")!.textContent).toBe("शिपमेंट ट्रैक करें");
  });

  it("offers to ship an unshipped order in Hindi", async () => {
    useLocale("hi");
    await open(() => json(orderShipping()));

    await vi.waitFor(() => expect(pageText()).toContain("अभी डाकिया से नहीं भेजा गया है।"));
    expect(button("डाकिया से भेजें")).toBeTruthy();
  });
});

describe("an order that ships as parcels", () => {
  it("shows each parcel's booking under where it ships from, and what is still to book", async () => {
    const order = orderShipping({
      state: "ready",
      parcels: [
        { number: 1, of: 2, location: "Gurugram Warehouse", items: ["2 × Pashmina stole"], shipment: shipment({ name: "#1042", awb: "DL222" }) },
        { number: 2, of: 2, location: "Bhiwandi Warehouse", items: ["1 × Brass diya set"], shipment: null },
      ],
    });
    await open(() => json(order));
    await vi.waitFor(() => expect(pageText()).toContain("Parcel 1 of 2 · from Gurugram Warehouse"));
    const text = pageText();
    expect(text).toContain("AWB DL222");
    expect(text).toContain("Parcel 2 of 2 · from Bhiwandi Warehouse");
    expect(text).toContain("Not booked yet. In it:");
    expect(text).toContain("1 × Brass diya set");
    expect(text).toContain("Not every parcel is shipped with Dakiya yet.");
    expect(button("Ship with Dakiya")).toBeTruthy();
  });

  it("sums up a booked order of several parcels as how many it ships as", async () => {
    const order = orderShipping({ state: "shipment", rates: [], shipment: shipment(), parcels: [1, 2].map((number) => ({ number, of: 2, location: null, items: [], shipment: shipment({ awb: `XB${number}` }) })) });
    await open(() => json(order));
    await vi.waitFor(() => expect(block().getAttribute("collapsedSummary")).toBe("2 parcels"));
    expect(pageText()).toContain("Parcel 2 of 2");
    expect(pageText()).toContain("AWB XB2");
  });
});
