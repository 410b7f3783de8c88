import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CustomerParcel } from "../../shared/customer-parcel";
import { button, click, fakeBackend, hostI18n, json, pageText, unmount, type BackendAnswer, type BackendCall, type Locale } from "../../shared/testing";
import en from "../locales/en.default.json";
import hi from "../locales/hi.json";

const extension = getExtension("customer-account.order-status.fulfillment-details.render-after");
const FULFILLMENT_GID = "gid://shopify/Fulfillment/7771";

beforeEach(() => {
  extension.setUp();
  extension.shopify.fulfillmentId = FULFILLMENT_GID;
  extension.shopify.sessionToken = { get: async () => "customer-session-token" };
  useLocale("en");
});

afterEach(() => {
  unmount();
  extension.tearDown();
});

function useLocale(locale: Locale) {
  extension.shopify.i18n = hostI18n(locale, { en, hi }) as unknown as typeof extension.shopify.i18n;
}

async function open(respond: (call: BackendCall) => BackendAnswer | Promise<BackendAnswer>) {
  const backend = fakeBackend(respond);
  const seen: { url: string; authorization: string | null }[] = [];
  extension.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), authorization: new Headers(init?.headers).get("Authorization") });
    return backend.fetch(input, init);
  }) as typeof fetch;
  await extension.render();
  return seen;
}

function parcel(overrides: Partial<CustomerParcel> = {}): CustomerParcel {
  return {
    name: "#1004",
    stage: "in_transit",
    courierName: "DTDC",
    awb: "D73731648",
    trackingUrl: "https://dakiya.example.com/track/D73731648?token=abc",
    estimatedDelivery: "2026-11-30T12:30:00.000Z",
    deliveredAt: null,
    timeline: [
      { code: 5, at: "2026-11-28T06:30:00.000Z", activity: "Shipment in transit", location: "Bhiwandi Hub" },
      { code: 2, at: "2026-11-27T10:00:00.000Z", activity: "Manifested", location: null },
    ],
    failedAttempt: null,
    ...overrides,
  };
}

const failedParcel = parcel({
  stage: "delivery_failed",
  timeline: [{ code: 9, at: "2026-11-28T11:45:00.000Z", activity: "Customer not available at the address", location: "Bengaluru" }, ...parcel().timeline],
  failedAttempt: { attempt: 2, reason: "Customer not available at the address", at: "2026-11-28T11:45:00.000Z", answerForm: null },
});

describe("the shopper's parcel on their order status page", () => {
  it("asks the app for this fulfillment's parcel with the customer account's session token, and shows its stage, expected day, courier, awb and updates", async () => {
    const seen = await open(() => json({ parcel: parcel() }));
    await vi.waitFor(() => expect(pageText()).toContain("Parcel #1004"));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toMatch(/\/api\/customer\/parcels\/7771$/);
    expect(seen[0]!.authorization).toBe("Bearer customer-session-token");
    const text = pageText();
    expect(text).toContain("On its way");
    expect(text).toContain("Expected by Mon, 30 Nov");
    expect(text).toContain("DTDC · AWB D73731648");
    expect(text).toContain("Tracking updates");
    // Newest first, each update in the shopper's words with the courier's beneath.
    expect(text.indexOf("In transit")).toBeLessThan(text.indexOf("Booked with the courier"));
    expect(text).toContain("Shipment in transit, Bhiwandi Hub");
    expect(document.body.querySelector("s-link")!.getAttribute("href")).toBe("https://dakiya.example.com/track/D73731648?token=abc");
    expect(document.body.querySelector("s-banner")).toBeNull();
  });

  it("shows a failed delivery attempt with its number and the courier's reason, where the shopper's answer goes", async () => {
    await open(() => json({ parcel: failedParcel }));
    await vi.waitFor(() => expect(pageText()).toContain("We missed you"));
    const banner = document.body.querySelector<HTMLElement>("s-banner")!;
    expect(banner.getAttribute("heading")).toBe("We missed you");
    expect(pageText(banner)).toContain("The courier's attempt number 2 failed: Customer not available at the address");
    expect(pageText()).toContain("Delivery attempt failed");
  });

  it("speaks Hindi to a shopper whose account is in Hindi, keeping the courier's words as said", async () => {
    useLocale("hi");
    await open(() => json({ parcel: failedParcel }));
    await vi.waitFor(() => expect(pageText()).toContain("पार्सल #1004"));
    const text = pageText();
    expect(text).toContain("डिलीवरी का प्रयास विफल रहा");
    expect(text).toContain("हम आपसे मिल नहीं पाए");
    expect(text).toContain("कूरियर का प्रयास संख्या 2 विफल रहा: Customer not available at the address");
    expect(text).toContain("कूरियर के शब्दों में (अंग्रेज़ी): Shipment in transit, Bhiwandi Hub");
  });

  it("says when it was delivered, with no expected day", async () => {
    await open(() => json({ parcel: parcel({ stage: "delivered", estimatedDelivery: null, deliveredAt: "2026-11-29T08:00:00.000Z" }) }));
    await vi.waitFor(() => expect(pageText()).toContain("Delivered on Sun, 29 Nov"));
    expect(pageText()).not.toContain("Expected by");
  });

  it("shows nothing for a fulfillment that is not a Dakiya parcel of this customer", async () => {
    const seen = await open(() => json({ error: "No parcel of yours ships with this fulfillment" }, 404));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await vi.waitFor(() => expect(document.body.querySelector("s-spinner")).toBeNull());
    expect(pageText()).toBe("");
  });

  it("offers to sign in when the page was opened without signing in", async () => {
    const requireLogin = vi.fn(async () => undefined);
    extension.shopify.requireLogin = requireLogin;
    await open(() => json({ error: "Sign in", code: "login_required" }, 401));
    await vi.waitFor(() => expect(pageText()).toContain("Sign in to see where your parcel is"));
    click(button("Sign in to see where your parcel is"));
    expect(requireLogin).toHaveBeenCalledOnce();
  });

  it("says so when the tracking cannot be loaded, and loads it again on Try again", async () => {
    let calls = 0;
    await open(() => (++calls === 1 ? "network-error" : json({ parcel: parcel() })));
    await vi.waitFor(() => expect(pageText()).toContain("Couldn't load your parcel's tracking."));
    click(button("Try again"));
    await vi.waitFor(() => expect(pageText()).toContain("Parcel #1004"));
  });
});
