/**
 * Test support for the admin extensions (never bundled: only `*.test.tsx` files import it).
 *
 * The tester's `shopify.i18n` echoes keys and prints numbers bare; `hostI18n` stands in for the admin instead,
 * translating from the extension's own locale files and formatting with `Intl`, so tests read what a merchant
 * reads and a key missing from a locale file fails the test. `fakeBackend` stands in for the app's routes
 * behind the admin's `fetch` and records every call.
 */
import type { I18n, I18nTranslate } from "@shopify/ui-extensions/admin";
import { render } from "preact";
import { vi } from "vitest";
import type { BulkResult, OrderShipping, RateView, ShipmentView } from "./api";

export type Messages = { [key: string]: string | Messages };

export type Locale = "en" | "hi";

const INTL_LOCALE: Record<Locale, string> = { en: "en-IN", hi: "hi-IN" };

/** The admin's i18n for one locale: the locale's messages, falling back to `en.default.json` as Shopify does. */
export function hostI18n(locale: Locale, messages: { en: Messages; hi: Messages }): I18n {
  const intlLocale = INTL_LOCALE[locale];
  const lookup = (source: Messages, key: string): string | Messages | undefined =>
    key.split(".").reduce<string | Messages | undefined>(
      (node, part) => (node === undefined || typeof node === "string" ? undefined : node[part]),
      source,
    );
  const translate = (key: string, options: Record<string, string | number> = {}): string => {
    let found = lookup(messages[locale], key) ?? lookup(messages.en, key);
    if (found !== undefined && typeof found !== "string" && typeof options.count === "number") {
      const category = new Intl.PluralRules(intlLocale).select(options.count);
      found = found[category] ?? found.other;
    }
    if (typeof found !== "string") throw new Error(`No ${locale} translation for "${key}"`);
    return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      if (!(name in options)) throw new Error(`"${key}" needs a value for {{${name}}}`);
      return String(options[name]);
    });
  };
  return {
    translate: translate as I18nTranslate,
    formatNumber: (number, options) => new Intl.NumberFormat(intlLocale, options).format(number),
    formatCurrency: (number, options) =>
      new Intl.NumberFormat(intlLocale, { ...options, style: "currency" }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat(intlLocale, { timeZone: "Asia/Kolkata", ...options }).format(date),
  };
}

export interface BackendCall {
  method: string;
  path: string;
  body: unknown;
}

export type BackendAnswer = Response | "network-error";

/** The app's routes behind the admin's `fetch`: answers each call with `respond` and keeps the calls. */
export function fakeBackend(respond: (call: BackendCall) => BackendAnswer | Promise<BackendAnswer>) {
  const calls: BackendCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: BackendCall = {
      method: init?.method ?? "GET",
      path: String(input),
      body: typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answer = await respond(call);
    if (answer === "network-error") throw new TypeError("Failed to fetch");
    return answer;
  });
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A promise the test settles by hand, to look at the screen while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Unmounts the Preact tree before the tester empties the body, so effects and signals are torn down too. */
export function unmount(): void {
  render(null, document.body);
}

// Queries by what a merchant sees.

export function allByText(selector: string, text: string | RegExp): HTMLElement[] {
  return [...document.body.querySelectorAll<HTMLElement>(selector)].filter((element) =>
    typeof text === "string" ? element.textContent?.trim() === text : text.test(element.textContent ?? ""),
  );
}

export function byText(selector: string, text: string | RegExp): HTMLElement {
  const found = allByText(selector, text);
  if (found.length !== 1) {
    const seen = [...document.body.querySelectorAll(selector)].map((element) => element.textContent?.trim());
    throw new Error(`Expected one ${selector} with ${String(text)}, found ${found.length} among ${JSON.stringify(seen)}`);
  }
  return found[0]!;
}

export const button = (label: string | RegExp) => byText("s-button", label);

/**
 * Everything a merchant reads, in order: text, and the headings components carry as attributes (an action's
 * title, a banner's heading), each piece separated by a space.
 */
export function pageText(root: Element = document.body): string {
  const pieces: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) pieces.push(node.textContent ?? "");
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const heading = (node as Element).getAttribute("heading");
    if (heading) pieces.push(heading);
    node.childNodes.forEach(walk);
  };
  walk(root);
  // `\s` also folds the narrow no-break space Intl puts in times ("3:00 pm").
  return pieces.join(" ").replace(/\s+/g, " ").trim();
}

/** Clicks like the admin does: a `click` event on the element. */
export function click(element: Element): void {
  element.dispatchEvent(new Event("click", { bubbles: true }));
}

// The backend's answers, as the contract describes them.

export const ORDER_GID = "gid://shopify/Order/5551234";

export function rate(overrides: Partial<RateView> = {}): RateView {
  return {
    courierId: 1,
    name: "Delhivery",
    mode: "Surface",
    totalCharges: 98,
    edd: "3 - 5",
    eddMaxDays: 5,
    zone: "C",
    isCheapest: false,
    isFastest: false,
    isRecommended: false,
    ...overrides,
  };
}

export const THREE_RATES: RateView[] = [
  rate({ courierId: 11, name: "Delhivery", mode: "Surface", totalCharges: 98, edd: "4 - 6", eddMaxDays: 6, isCheapest: true }),
  rate({ courierId: 22, name: "Blue Dart", mode: "Air", totalCharges: 212.5, edd: "1 - 2", eddMaxDays: 2, isFastest: true }),
  rate({ courierId: 33, name: "Xpressbees", mode: "Surface", totalCharges: 121, edd: "2 - 4", eddMaxDays: 4, isRecommended: true }),
];

export function shipment(overrides: Partial<ShipmentView> = {}): ShipmentView {
  return {
    status: "fulfilled",
    statusLabel: "In transit",
    awb: "XB1234567890",
    courierName: "Xpressbees",
    trackingUrl: "https://track.example.in/XB1234567890",
    totalCharges: 121,
    edd: "2 - 4",
    courierStatus: { code: 18, label: "In transit", at: "2026-11-20T09:30:00.000Z" },
    estimatedDelivery: "2026-11-23T18:30:00.000Z",
    lastEvent: {
      label: "In transit",
      activity: "Shipment reached hub",
      location: "Bhiwandi",
      at: "2026-11-20T09:30:00.000Z",
    },
    attention: null,
    labelUrl: "https://dakiya.example.in/documents/label-token",
    ...overrides,
  };
}

export function orderShipping(overrides: Partial<OrderShipping> = {}): OrderShipping {
  return {
    orderId: ORDER_GID,
    orderName: "#1042",
    state: "ready",
    problems: [],
    rates: THREE_RATES,
    message: null,
    decision: null,
    shipment: null,
    ...overrides,
  };
}

export function bulkResult(overrides: Partial<BulkResult> & Pick<BulkResult, "orderId">): BulkResult {
  return {
    orderName: `#${overrides.orderId.split("/").pop()}`,
    outcome: "booked",
    awb: "DL0000000001",
    courierName: "Delhivery",
    reason: null,
    ...overrides,
  };
}
