import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BookAnswer, OrderShipping } from "../../shared/api";
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
import { pickCourier } from "./action";

const extension = getExtension("admin.order-details.action.render");

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
const bookCall = (courierId: number) => ({ method: "POST", path: "/api/orders/5551234/book", body: { courierId } });

const bookedOrder = (courierName: string, awb: string): OrderShipping =>
  orderShipping({
    state: "shipment",
    rates: [],
    shipment: shipment({ status: "booked", statusLabel: "Booked", courierName, awb, trackingUrl: `https://track.example.in/${awb}` }),
  });

const choices = () => [...document.body.querySelectorAll("s-choice")];
const choice = (courierId: number) => document.body.querySelector(`s-choice[value="${courierId}"]`)!;
const adminAction = () => document.body.querySelector("s-admin-action")!;

function chooseCourier(courierId: number) {
  const list = document.body.querySelector("s-choice-list")!;
  Object.assign(list, { values: [String(courierId)] });
  list.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("an order ready to ship", () => {
  it("lists the rates with the recommended courier chosen and the cheapest and fastest marked", async () => {
    const backend = await open(() => json(orderShipping()));

    await vi.waitFor(() => expect(choices()).toHaveLength(3));
    expect(backend.calls).toEqual([GET]);
    expect(adminAction().getAttribute("heading")).toBe("Ship #1042 with Dakiya");
    expect(document.body.querySelector("s-choice-list")!.getAttribute("label")).toBe("Courier");

    expect(choice(33).hasAttribute("selected")).toBe(true);
    expect(choice(11).hasAttribute("selected")).toBe(false);
    expect(choice(22).hasAttribute("selected")).toBe(false);

    expect(choice(11).textContent).toBe("Delhivery (Surface): ₹98.00, 4 - 6 daysCheapest");
    expect(choice(22).textContent).toBe("Blue Dart (Air): ₹212.50, 1 - 2 daysFastest");
    expect(choice(33).textContent).toBe("Xpressbees (Surface): ₹121.00, 2 - 4 daysRecommended");
    expect(button("Book Xpressbees").getAttribute("slot")).toBe("primary-action");
    expect(button("Cancel").getAttribute("slot")).toBe("secondary-actions");
  });

  it("books the courier the merchant picked and shows the awb and the tracking link", async () => {
    const backend = await open((call) =>
      call.method === "GET"
        ? json(orderShipping())
        : json({ outcome: "booked", message: null, order: bookedOrder("Blue Dart", "BD998877") } satisfies BookAnswer),
    );
    await vi.waitFor(() => expect(choices()).toHaveLength(3));

    chooseCourier(22);
    await vi.waitFor(() => expect(choice(22).hasAttribute("selected")).toBe(true));
    click(button("Book Blue Dart"));

    await vi.waitFor(() => expect(pageText()).toContain("Booked with Blue Dart"));
    expect(backend.calls).toEqual([GET, bookCall(22)]);
    expect(pageText()).toContain("AWB BD998877");
    const track = document.body.querySelector("s-link")!;
    expect(track.getAttribute("href")).toBe("https://track.example.in/BD998877");
    expect(track.textContent).toBe("Track shipment");
    expect(choices()).toHaveLength(0);
    expect(allByText("s-button", /^Book/)).toHaveLength(0);
    expect(button("Done")).toBeTruthy();
  });

  it("shows the booking in progress and does not send a second booking on a second click", async () => {
    const answer = deferred<Response>();
    const backend = await open((call) => (call.method === "GET" ? json(orderShipping()) : answer.promise));
    await vi.waitFor(() => expect(choices()).toHaveLength(3));

    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(button("Book Xpressbees").hasAttribute("loading")).toBe(true));
    expect(button("Book Xpressbees").hasAttribute("disabled")).toBe(true);
    click(button("Book Xpressbees"));
    answer.resolve(json({ outcome: "booked", message: null, order: bookedOrder("Xpressbees", "XB1") }));

    await vi.waitFor(() => expect(pageText()).toContain("Booked with Xpressbees"));
    expect(backend.calls).toEqual([GET, bookCall(33)]);
  });

  it("shows the courier's refusal and lets the merchant book again", async () => {
    let bookings = 0;
    const backend = await open((call) => {
      if (call.method === "GET") return json(orderShipping());
      bookings += 1;
      return bookings === 1
        ? json({
            outcome: "refused",
            message: "Xpressbees does not pick up from pincode 110001 today.",
            order: orderShipping(),
          } satisfies BookAnswer)
        : json({ outcome: "booked", message: null, order: bookedOrder("Xpressbees", "XB42") } satisfies BookAnswer);
    });
    await vi.waitFor(() => expect(choices()).toHaveLength(3));

    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("Booking didn't go through"));
    const banner = document.body.querySelector('s-banner[tone="critical"]')!;
    expect(banner.getAttribute("heading")).toBe("Booking didn't go through");
    expect(banner.textContent).toContain("Xpressbees does not pick up from pincode 110001 today.");
    expect(banner.textContent).toContain("Try again, or choose another courier.");
    expect(choices()).toHaveLength(3);
    expect(button("Book Xpressbees").hasAttribute("disabled")).toBe(false);

    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("Booked with Xpressbees"));
    expect(backend.calls).toEqual([GET, bookCall(33), bookCall(33)]);
    expect(pageText()).not.toContain("Booking didn't go through");
  });

  it("shows a plain error when the booking request fails, and booking again works", async () => {
    let bookings = 0;
    const backend = await open((call) => {
      if (call.method === "GET") return json(orderShipping());
      bookings += 1;
      return bookings === 1 ? "network-error" : json({ outcome: "booked", message: null, order: bookedOrder("Xpressbees", "XB7") });
    });
    await vi.waitFor(() => expect(choices()).toHaveLength(3));

    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("Couldn't reach Dakiya. Check your connection and try again."));
    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("AWB XB7"));
    expect(backend.calls).toEqual([GET, bookCall(33), bookCall(33)]);
  });

  it("shows the shipment when another tab booked the order first", async () => {
    await open((call) =>
      call.method === "GET"
        ? json(orderShipping())
        : json({ outcome: "already_booked", message: null, order: bookedOrder("Delhivery", "DL555") }),
    );
    await vi.waitFor(() => expect(choices()).toHaveLength(3));

    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("This order was already booked. Here is its shipment."));
    expect(pageText()).toContain("DL555");
    expect(allByText("s-button", /^Book/)).toHaveLength(0);
  });
});

describe("an order that cannot be booked here", () => {
  it("lists each problem with its fix and offers no booking", async () => {
    const backend = await open(() =>
      json(
        orderShipping({
          state: "problems",
          rates: [],
          problems: [
            { code: "missing_phone", message: "The shipping address has no phone number.", fix: "Add the customer's phone to the shipping address." },
            { code: "bad_pincode", message: "Pincode 12345 is not a 6-digit Indian pincode.", fix: "Correct the pincode in the shipping address." },
          ],
        }),
      ),
    );

    await vi.waitFor(() => expect(pageText()).toContain("This order can't be shipped yet"));
    const items = [...document.body.querySelectorAll("s-list-item")].map((item) => item.textContent);
    expect(items).toEqual([
      "The shipping address has no phone number. What to do: Add the customer's phone to the shipping address.",
      "Pincode 12345 is not a 6-digit Indian pincode. What to do: Correct the pincode in the shipping address.",
    ]);
    expect(document.body.querySelector("s-choice-list")).toBeNull();
    expect(allByText("s-button", /^Book/)).toHaveLength(0);

    click(button("Check again"));
    await vi.waitFor(() => expect(backend.calls).toEqual([GET, GET]));
  });

  it("shows an order's shipment instead of offering a second booking", async () => {
    const backend = await open(() =>
      json(orderShipping({ state: "shipment", rates: [], shipment: shipment({ attention: "Returned to origin: call the customer before reshipping." }) })),
    );

    await vi.waitFor(() => expect(pageText()).toContain("XB1234567890"));
    expect(pageText()).toContain("In transit");
    expect(pageText()).toContain("Returned to origin: call the customer before reshipping.");
    expect(document.body.querySelector("s-link")!.getAttribute("href")).toBe("https://track.example.in/XB1234567890");
    expect(document.body.querySelector("s-choice-list")).toBeNull();
    expect(allByText("s-button", /^Book/)).toHaveLength(0);

    const close = vi.fn();
    extension.shopify.close = close;
    click(button("Done"));
    expect(close).toHaveBeenCalledOnce();
    expect(backend.calls).toEqual([GET]);
  });

  it("shows the courier service's message when it is down, with a retry", async () => {
    const backend = await open(() =>
      json(orderShipping({ state: "unavailable", rates: [], message: "Rates are unavailable: the courier service is down." })),
    );

    await vi.waitFor(() => expect(pageText()).toContain("Rates are unavailable: the courier service is down."));
    click(button("Try again"));
    await vi.waitFor(() => expect(backend.calls).toEqual([GET, GET]));
  });

  it("says when no courier serves the pincode, and offers to check again instead of booking", async () => {
    const backend = await open(() => json(orderShipping({ rates: [] })));

    await vi.waitFor(() => expect(pageText()).toContain("No courier serves this order's delivery pincode right now."));
    expect(allByText("s-button", /^Book/)).toHaveLength(0);
    click(button("Check again"));
    await vi.waitFor(() => expect(backend.calls).toEqual([GET, GET]));
  });

  it("says so for a cancelled order", async () => {
    await open(() => json(orderShipping({ state: "cancelled", rates: [] })));
    await vi.waitFor(() => expect(pageText()).toContain("This order is cancelled, so there is nothing to ship."));
    expect(allByText("s-button", /^Book/)).toHaveLength(0);
  });
});

describe("loading", () => {
  it("shows the action loading until the backend answers", async () => {
    const answer = deferred<Response>();
    await open(() => answer.promise);

    expect(adminAction().hasAttribute("loading")).toBe(true);
    expect(document.body.querySelector("s-spinner")!.getAttribute("accessibilityLabel")).toBe("Loading courier rates");
    answer.resolve(json(orderShipping()));
    await vi.waitFor(() => expect(adminAction().hasAttribute("loading")).toBe(false));
    expect(document.body.querySelector("s-spinner")).toBeNull();
  });

  it.each([
    ["an error status", () => json({ error: "boom" }, 500), "Dakiya couldn't handle the request (error 500). Try again."],
    ["a network failure", () => "network-error" as const, "Couldn't reach Dakiya. Check your connection and try again."],
    ["an answer of the wrong shape", () => json({ hello: "world" }), "Dakiya's answer couldn't be read."],
  ])("shows %s as an error with a retry, never a blank card", async (_, failing, message) => {
    let calls = 0;
    const backend = await open(() => (++calls === 1 ? failing() : json(orderShipping())));

    await vi.waitFor(() => expect(pageText()).toContain(message));
    expect(document.body.querySelector("s-banner")!.getAttribute("heading")).toBe("Couldn't load this order's shipping");
    click(button("Try again"));
    await vi.waitFor(() => expect(choices()).toHaveLength(3));
    expect(backend.calls).toEqual([GET, GET]);
  });
});

describe("in Hindi", () => {
  it("reads the rates and the booking button in Hindi", async () => {
    useLocale("hi");
    await open(() => json(orderShipping()));

    await vi.waitFor(() => expect(choices()).toHaveLength(3));
    expect(adminAction().getAttribute("heading")).toBe("#1042 डाकिया से भेजें");
    expect(choice(11).textContent).toBe("Delhivery (Surface): ₹98.00, 4 - 6 दिनसबसे सस्ता");
    expect(choice(22).textContent).toContain("सबसे तेज़");
    expect(choice(33).textContent).toContain("सुझाया गया");
    expect(button("Xpressbees से बुक करें")).toBeTruthy();
    expect(button("रद्द करें")).toBeTruthy();
  });
});

describe("pickCourier", () => {
  const rates = orderShipping().rates;

  it("keeps the merchant's pick while it is offered, else takes the recommended courier", () => {
    expect(pickCourier(rates, 22)).toBe(22);
    expect(pickCourier(rates, 99)).toBe(33);
    expect(pickCourier(rates, null)).toBe(33);
  });

  it("takes the first courier when none is recommended, and none when there are no rates", () => {
    expect(pickCourier(rates.map((rate) => ({ ...rate, isRecommended: false })), null)).toBe(11);
    expect(pickCourier([], null)).toBeNull();
  });
});

describe("an order that ships as parcels from two locations", () => {
  const parcels = (booked: boolean) => [
    { number: 1, of: 2, location: "Bhiwandi Warehouse", items: ["1 × Brass diya set"], shipment: booked ? shipment({ name: "#1042", awb: "DL111", courierName: "Delhivery" }) : null },
    { number: 2, of: 2, location: "Gurugram Warehouse", items: ["2 × Pashmina stole"], shipment: booked ? shipment({ name: "#1042-2", awb: "DL222", courierName: "Delhivery" }) : null },
  ];

  it("lists each parcel with where it ships from and what goes in it, says how one courier books them all, and shows every awb once booked", async () => {
    const backend = await open((call) =>
      call.method === "GET"
        ? json(orderShipping({ parcels: parcels(false) }))
        : json({ outcome: "booked", message: null, order: orderShipping({ state: "shipment", rates: [], shipment: parcels(true)[0]!.shipment, parcels: parcels(true) }) } satisfies BookAnswer),
    );
    await vi.waitFor(() => expect(choices()).toHaveLength(3));
    const text = pageText();
    expect(text).toContain("Parcel 1 of 2 · from Bhiwandi Warehouse");
    expect(text).toContain("To book: 2 × Pashmina stole");
    expect(text).toContain("where it doesn't serve a parcel's route, that parcel goes with its own recommended courier");
    click(button("Book Xpressbees"));
    await vi.waitFor(() => expect(pageText()).toContain("2 parcels booked"));
    expect(backend.calls).toEqual([GET, bookCall(33)]);
    expect(pageText()).toContain("#1042: Delhivery, AWB DL111");
    expect(pageText()).toContain("#1042-2: Delhivery, AWB DL222");
  });
});
