import type { Frame, Locator, Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { LOCAL_DEFAULTS } from "~/config.server";
import { adminStrings, fill } from "~/locales/admin-language";
import { createCourierClient } from "~/shipping/client.server";
import { indiaDate } from "~/shipping/contract";
import { sandboxAccountCredentials } from "~/shipping/sandbox-accounts.server";
import { SEED_SHOP } from "../../store/seed";
import { openEmbeddedAdmin, orderChecksLeft, walkTheAdmin } from "./support/admin";
import { auditPage, passingAudit, type PageAudit } from "./support/axe";
import { expectHydrated, expectNewDocument, expectSameWindow, markWindow, PageWatcher, STEP_TIMEOUT, watchFor } from "./support/browser";

/*
 * The embedded app in Chromium, inside the local Shopify admin, on the demo's code and the production build: a
 * merchant's walk through every page, then the same admin as a screen reader or keyboard user meets it. Every step
 * fails on an uncaught error or a console error in the shell or the app frame and on any answer ≥ 500
 * (support/browser.ts), every page must hydrate, and every page is made to do something only its JavaScript can do.
 * Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always): test-results/screenshots/admin-shell/.
 *
 * The tests share one demo and one browser page and run in order: the bookings made early are the shipments the
 * Shipments page filters later (one test alone, with `-t`, runs but may miss what earlier ones made). They rely only
 * on store/seed.ts: its orders (#1003 ready to ship, #1007 with a PIN code of 5 digits) and 12 more ready orders
 * (`readyOrders`, older than the seed's) so that the order list has a second page. The app reads the shop's orders when
 * it is installed (the first visit): the list fills in as each order is checked.
 *
 * For screen readers and keyboards: every page checked with axe-core (no serious or critical violation; a document
 * title and one main landmark), an order booked from Orders to ship with Tab, Enter and Space alone, then the shopper's
 * tracking page from that booking, the same way; and the app in Hindi when the admin opens it with `?locale=hi`, as
 * Shopify passes the admin's language. The pages both parts visit (the navigation's, Compare rates) are audited while
 * the merchant's walk is on them.
 *
 * Each part books orders the other does not depend on, so either may run first: the merchant books #1003, #1004,
 * #1005 and two ready orders from the end of the list's first page, the keyboard #1001; when the accessibility test
 * opens Compare rates itself, it compares #1002 and #1011, ready orders nobody books.
 */

const SHIP_PAGE = /^\/app\/orders\/\d+\/ship$/;
const money = (text: string) => Number(text.replace(/[^\d.]/g, ""));

// The simulator charges each query its requested cost and refunds nothing, so the order list costs ~950 of the
// Standard plan's 2,000 points restoring 100/s: at that rate this walk would spend most of its minute waiting for the
// bucket. A bucket of 20,000 restoring 1,000/s lets it run without changing what it checks.
const walk = walkTheAdmin("admin-shell", { name: "e2e_admin_shell", extraOrders: 12, restoreRate: 1_000 }, { startTimeoutMs: 400_000 });
// The admin is opened before the first test, so that any one test can run alone (`-t`); the first test checks what it
// shows. Its app frame stays the same Frame until a test opens the admin again.
let frame: Frame;
beforeEach(async () => {
  // The walk is in English: the test that opens the admin in Hindi (`?locale=hi`) leaves it to the next to reopen.
  if (new URL(walk.page.url()).searchParams.has("locale")) await walk.reopenAdmin();
  frame = walk.admin.frame;
});

/** The shell's navigation: each page's link, address and heading; its document title is "{link} · Dakiya". */
const NAVIGATION: [label: string, path: string, heading: string][] = [
  ["Home", "/app", "Dakiya"],
  ["Orders to ship", "/app/orders", "Orders to ship"],
  ["Shipments", "/app/shipments", "Shipments"],
  ["Failed deliveries", "/app/failed-deliveries", "Failed deliveries"],
  ["COD remittance", "/app/cod", "COD remittance"],
  ["Freight & weight", "/app/freight", "Freight & weight"],
  ["Needs attention", "/app/attention", "Needs attention"],
  ["Auto-booking", "/app/auto-booking", "Auto-booking"],
  ["Settings", "/app/settings", "Settings"],
  ["Storefront", "/app/storefront", "Storefront"],
];
/** The axe audits of the pages both parts visit, by address, taken while the merchant's walk is on them. */
const auditedOnTheWalk = new Map<string, PageAudit>();

/** The audit the merchant's walk took at `path`; if it took none (a test run alone with `-t`, or one that failed first), a step that opens the page and audits it. */
async function auditAt(path: string, step: string, open: () => Promise<unknown>): Promise<PageAudit> {
  return (
    auditedOnTheWalk.get(path) ??
    walk.step(step, async () => {
      await open();
      return auditPage(walk.admin.frame);
    })
  );
}

/** The order list's rows (not its heading row). */
function orderRows(): Locator {
  return frame.getByRole("row").filter({ has: frame.getByRole("checkbox", { name: "Select order" }) });
}

async function orderNames(): Promise<string[]> {
  await orderRows().first().waitFor();
  return orderRows().evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[1]?.textContent?.trim() ?? ""));
}


/**
 * The orders page once the install's read of the shop's orders is through and every order is checked, so the list
 * no longer fills in (paging while it does would show orders arriving on the first page).
 */
async function openOrdersOnceRead(): Promise<void> {
  await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
  await expect.poll(() => orderChecksLeft(walk.demo.databaseUrl), { timeout: STEP_TIMEOUT, interval: 250 }).toBe(0);
  await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
  const names = await orderNames();
  expect(names).toHaveLength(20);
  expect(names).toEqual(expect.arrayContaining(["#1003", "#1007"]));
}

/** The ship page's rates as shown, top to bottom: the courier cell (name and badges), total, longest delivery days. */
async function rateRows(): Promise<{ courier: string; total: number; maxDays: number }[]> {
  const rows = await frame.locator("table tbody tr").evaluateAll((elements) =>
    elements.map((row) => Array.from(row.querySelectorAll("th, td"), (cell) => cell.textContent?.trim() ?? "")),
  );
  return rows.map((cells) => ({
    courier: cells[0] ?? "",
    total: money(cells[5] ?? ""),
    maxDays: Number((cells[7] ?? "").match(/(\d+) days/)?.[1] ?? Number.NaN),
  }));
}

function isSorted(values: number[], direction: "ascending" | "descending"): boolean {
  return values.every((value, index) => index === 0 || (direction === "ascending" ? values[index - 1]! <= value : values[index - 1]! >= value));
}

describe("the embedded app in a browser, through the local Shopify admin", { timeout: 120_000 }, () => {
  it("Home: embedded, saying plainly that it uses the sandbox, and its links navigate in the browser", async () => {
    await walk.step("the admin opens the app", async () => {
      await expectHydrated(frame, { path: "/app", watcher: walk.watcher });
      await walk.admin.expectTitle("Dakiya");
      await frame.getByText("You are using the sandbox courier service").waitFor();
      expect(await frame.getByText("Connected store: Dakiya Demo Store (dakiya-demo.myshopify.com)").count()).toBe(1);
    });
    await walk.step("Home: Ship orders", async () => {
      await walk.admin.navigateInBrowser("Home's \"Ship orders\"", () => frame.getByRole("link", { name: "Ship orders" }).click(), { path: "/app/orders" });
      await walk.admin.expectTitle("Orders to ship");
    });
  });

  it("every page of the shell's navigation loads and hydrates", async () => {
    for (const [label, path, heading] of NAVIGATION) {
      await walk.step(`nav: ${label}`, async () => {
        await walk.admin.openFromNav(label, { path }, heading);
        // Audited while the walk is on it: the accessibility tests judge this audit rather than load the page again.
        auditedOnTheWalk.set(path, await auditPage(frame));
      });
    }
  });

  it("Orders to ship: shows each order's problem and pages forward and back in the browser", async () => {
    let firstPage: string[] = [];
    await walk.step("orders: first page", async () => {
      await openOrdersOnceRead();
      firstPage = await orderNames();
      expect(firstPage).toContain("#1003");
      expect(await orderRows().filter({ hasText: "#1007" }).getByText("PIN code not 6 digits").count()).toBe(1);
      expect(await frame.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
    });
    await walk.step("orders: next page", async () => {
      const next = frame.getByRole("button", { name: "Next" });
      expect(await next.isEnabled()).toBe(true);
      await walk.admin.navigateInBrowser("Next", () => next.click(), { path: "/app/orders", search: { after: true } });
      const secondPage = await orderNames();
      expect(secondPage.length).toBeGreaterThan(0);
      expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([]);
      expect(await frame.getByRole("button", { name: "Previous" }).isEnabled()).toBe(true);
    });
    await walk.step("orders: previous page", async () => {
      await walk.admin.navigateInBrowser("Previous", () => frame.getByRole("button", { name: "Previous" }).click(), { path: "/app/orders", search: { after: false } });
      await expect.poll(orderNames, { timeout: STEP_TIMEOUT }).toEqual(firstPage);
    });
  });

  it("Home's counts open the list they count; Needs fixing gives each problem an Edit in Shopify link to the order in Shopify's admin", async () => {
    await walk.step("home: the Needs fixing count", async () => {
      await walk.admin.openFromNav("Home", { path: "/app" }, "Dakiya");
      // The card's link is named by what it shows: the stage, then its count.
      const count = frame.getByRole("link", { name: /^Needs fixing\s*\d+$/ });
      const shown = Number((await count.textContent())!.replace(/\D/g, ""));
      expect(shown).toBeGreaterThan(0);
      await walk.admin.navigateInBrowser("Home's Needs fixing count", () => count.click(), { path: "/app/orders", search: { stage: "needs_fixing" } });
      await frame.getByRole("tab", { name: /^Needs fixing \(\d+\)$/, selected: true }).waitFor();
      expect(await orderNames()).toHaveLength(Math.min(shown, 20));
    });
    await walk.step("orders: Edit in Shopify", async () => {
      const row = orderRows().filter({ hasText: "#1007" });
      const edit = row.getByRole("link", { name: "Edit in Shopify: #1007" });
      const href = (await edit.getAttribute("href"))!;
      expect(href).toMatch(/^https:\/\/admin\.shopify\.com\/store\/dakiya-demo\/orders\/\d+$/);
      // The local admin answers Shopify's admin address for an order with that order's page.
      const local = new URL(new URL(href).pathname, walk.demo.adminUrl);
      const answer = await walk.page.request.get(local.href);
      expect(answer.status()).toBe(200);
      expect(await answer.text()).toContain("#1007");
    });
    await walk.step("orders: search by order number", async () => {
      await frame.getByLabel("Order number").fill("1007");
      // Enter applies the search at once.
      await walk.admin.navigateInBrowser("Enter in the search field", () => frame.getByLabel("Order number").press("Enter"), { path: "/app/orders", search: { q: "1007", stage: "needs_fixing" } });
      await expect.poll(orderNames, { timeout: STEP_TIMEOUT }).toEqual(["#1007"]);
      await walk.admin.navigateInBrowser("The All tab", () => frame.getByRole("tab", { name: "All" }).click(), { path: "/app/orders", search: { q: "1007", stage: false } });
      await expect.poll(orderNames, { timeout: STEP_TIMEOUT }).toEqual(["#1007"]);
    });
    await walk.step("orders: a tab chosen while the search still waits for typing to pause stays chosen", async () => {
      await frame.getByLabel("Order number").fill("100");
      await walk.admin.navigateInBrowser("Enter in the search field", () => frame.getByLabel("Order number").press("Enter"), { path: "/app/orders", search: { q: "100", stage: false } });
      await walk.admin.navigateInBrowser("The Needs fixing tab", () => frame.getByRole("tab", { name: /^Needs fixing/ }).click(), { path: "/app/orders", search: { q: "100", stage: "needs_fixing" } });
      // Past the typing pause: the search it was waiting for is the one shown, so nothing moves the list back.
      await frame.waitForTimeout(800);
      expect(Object.fromEntries(new URL(frame.url()).searchParams)).toMatchObject({ q: "100", stage: "needs_fixing" });
      await frame.getByRole("tab", { name: /^Needs fixing/, selected: true }).waitFor();
    });
  });

  it("Orders to ship → Compare rates: the selected orders' rates, each marked recommended, cheapest and fastest", async () => {
    let selected: string[] = [];
    await walk.step("orders: select two ready orders", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      const ready = orderRows().filter({ has: frame.getByText("Ready", { exact: true }) });
      selected = (await ready.evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[1]?.textContent?.trim() ?? ""))).slice(0, 2);
      expect(selected).toHaveLength(2);
      for (const name of selected) await orderRows().filter({ hasText: name }).getByRole("checkbox").check();
      await frame.getByText("2 selected").waitFor();
    });
    await walk.step("orders: Compare rates", async () => {
      await walk.admin.navigateInBrowser("Compare rates", () => frame.getByRole("button", { name: "Compare rates" }).click(), { path: "/app/orders/compare" });
      await walk.admin.expectTitle("Compare rates");
      expect(new URL(frame.url()).searchParams.getAll("id")).toHaveLength(2);
      for (const name of selected) await frame.getByRole("heading", { level: 2, name: new RegExp(`^${name} · `) }).waitFor();
      for (const badge of ["Recommended", "Cheapest", "Fastest"]) expect(await frame.getByText(badge, { exact: true }).count()).toBeGreaterThanOrEqual(2);
      auditedOnTheWalk.set("/app/orders/compare", await auditPage(frame));
    });
    await walk.step("compare: Ship", async () => {
      await walk.admin.navigateInBrowser("Compare's \"Ship\"", () => frame.getByRole("link", { name: "Ship" }).first().click(), { path: SHIP_PAGE });
      await walk.admin.expectTitle(`Ship order ${selected[0]}`);
    });
    await walk.step("compare: with nothing selected", async () => {
      expect(await walk.admin.openDeepLink("/app/orders/compare", { path: "/app/orders/compare" })).toBe(200);
      await frame.getByText("Select orders on the Orders page to compare their rates.").waitFor();
      await walk.admin.navigateInBrowser("Compare's back action", () => frame.getByRole("link", { name: "Orders" }).click(), { path: "/app/orders" });
    });
  });

  it("Ship order: rates marked and sortable, a bad package refused on its field, then booked with the recommended courier", async () => {
    await walk.step("ship: open #1003", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      await walk.admin.navigateInBrowser("The order's row", () => frame.getByRole("cell", { name: "#1003" }).click(), { path: SHIP_PAGE });
      await walk.admin.expectTitle("Ship order #1003");
      for (const badge of ["Recommended", "Cheapest", "Fastest"]) expect(await frame.locator("table").getByText(badge, { exact: true }).count()).toBe(1);
      // Zones in words, the recommendation in a sentence, the items by name and quantity.
      const zones = await frame.locator("table tbody tr").evaluateAll((rows) => rows.map((row) => row.querySelectorAll("th, td")[6]?.textContent?.trim() ?? ""));
      expect(zones.every((zone) => /^(Within the city|Within the state or region|Metro to metro|Rest of India|Special area .+)$/.test(zone))).toBe(true);
      await frame.getByText(/^Recommended is the courier with the best balance of price and speed/).waitFor();
      await frame.getByText(/ · × \d+$/).first().waitFor();
      expect(isSorted((await rateRows()).map((rate) => rate.total), "ascending")).toBe(true);
    });
    await walk.step("ship: sort by delivery days", async () => {
      await frame.getByRole("button", { name: /sort .* by Delivery days/ }).click();
      await expect.poll(async () => isSorted((await rateRows()).map((rate) => rate.maxDays), "ascending"), { timeout: STEP_TIMEOUT }).toBe(true);
      expect((await rateRows())[0]!.courier).toContain("Fastest");
    });
    await walk.step("ship: sort by total, most expensive first", async () => {
      // Coming from another column, the first click sorts by total ascending, the second reverses it.
      await frame.getByRole("button", { name: /sort .* by Total/ }).click();
      await expect.poll(async () => isSorted((await rateRows()).map((rate) => rate.total), "ascending"), { timeout: STEP_TIMEOUT }).toBe(true);
      await frame.getByRole("button", { name: /sort .* by Total/ }).click();
      await expect.poll(async () => isSorted((await rateRows()).map((rate) => rate.total), "descending"), { timeout: STEP_TIMEOUT }).toBe(true);
      expect((await rateRows()).at(-1)!.courier).toContain("Cheapest");
    });
    await walk.step("ship: update rates with a bad length", async () => {
      const length = frame.getByRole("textbox", { name: "Length (cm)" });
      await length.fill("1");
      expect(await length.inputValue()).toBe("1");
      await walk.admin.navigateInBrowser("Update rates", () => frame.getByRole("button", { name: "Update rates" }).click(), { path: SHIP_PAGE, search: { length: "1" } });
      await frame.getByText("Length must be whole centimetres, more than 1").waitFor();
      expect(await length.getAttribute("aria-invalid")).toBe("true");
    });
    await walk.step("ship: update rates with a good length", async () => {
      const length = frame.getByRole("textbox", { name: "Length (cm)" });
      await length.fill("30");
      await walk.admin.navigateInBrowser("Update rates", () => frame.getByRole("button", { name: "Update rates" }).click(), { path: SHIP_PAGE, search: { length: "30" } });
      await expect.poll(() => frame.getByText("Length must be whole centimetres, more than 1").count(), { timeout: STEP_TIMEOUT }).toBe(0);
      expect(await length.getAttribute("aria-invalid")).not.toBe("true");
      await frame.locator("table").getByText("Recommended", { exact: true }).waitFor();
    });
    await walk.step("ship: the pickup warehouse picked by name, and the rates from it", async () => {
      const warehouse = frame.getByRole("combobox", { name: "Pickup warehouse" });
      const options = await warehouse.locator("option").allTextContents();
      expect(options).toEqual([expect.stringMatching(/^Bhiwandi Warehouse, .+ 421302 \(warehouse 1\)$/), expect.stringMatching(/^Gurugram Warehouse, .+ \(warehouse 2\)$/)]);
      await warehouse.selectOption({ label: options[1]! });
      await walk.admin.navigateInBrowser("Update rates", () => frame.getByRole("button", { name: "Update rates" }).click(), { path: SHIP_PAGE, search: { warehouseId: "2" } });
      expect(await frame.getByRole("combobox", { name: "Pickup warehouse" }).inputValue()).toBe("2");
      await frame.locator("table").getByText("Recommended", { exact: true }).waitFor();
    });
    await walk.step("ship: book with the recommended courier", async () => {
      const recommended = frame.locator("table tbody tr").filter({ has: frame.getByText("Recommended", { exact: true }) });
      const book = recommended.getByRole("button", { name: /^Book with / });
      const courier = (await book.getAttribute("aria-label"))!.replace(/^Book with /, "");
      // The toast is App Bridge's, shown by the page's effect: only the browser's code puts it there.
      const toast = watchFor(frame.getByRole("status").filter({ hasText: new RegExp(`^Booked with ${courier}, awb \\w+$`) }));
      await walk.admin.navigateInBrowser("Book", () => book.click(), { path: SHIP_PAGE });
      await frame.getByText(new RegExp(`^Fulfilled: awb \\w+ with ${courier}$`)).waitFor();
      await toast;
    });
  });

  it("Ship order: refused by the courier, whose account already holds the number, then booked; the history tells both", async () => {
    // The merchant booked #1004 on the courier's own panel once: the shop's courier account holds an order 1004.
    const account = sandboxAccountCredentials({ apiKey: LOCAL_DEFAULTS.SANDBOX_API_KEY, secretKey: LOCAL_DEFAULTS.SANDBOX_SECRET_KEY }, SEED_SHOP);
    const courier = createCourierClient({ ...account, environment: "test", sandboxUrl: walk.demo.appUrl });
    await courier.createOrder({
      order_id: "1004", order_date: indiaDate(new Date()), name: "Booked Elsewhere", mobile: "9820012345", address_line_1: "1, Panel Street",
      city: "Bengaluru", state: "Karnataka", pincode: "560038", products: [{ product_name: "Something else", price: 100, quantity: 1 }],
      package_length: 20, package_breadth: 15, package_height: 10, package_weight: 0.5, payment_mode: "prepaid", total_amount: 100, logistic_id: 1,
    });
    const bookRecommended = async () => {
      const recommended = frame.locator("table tbody tr").filter({ has: frame.getByText("Recommended", { exact: true }) });
      await walk.admin.navigateInBrowser("Book", () => recommended.getByRole("button", { name: /^Book with / }).click(), { path: SHIP_PAGE });
    };
    await walk.step("ship: #1004 refused by the courier", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      await walk.admin.navigateInBrowser("The order's link", () => frame.getByRole("link", { name: "#1004", exact: true }).click(), { path: SHIP_PAGE });
      await walk.admin.expectTitle("Ship order #1004");
      await bookRecommended();
      await frame.getByText("The courier account already has an order numbered 1004 (booked on the courier's panel, or cancelled there), so nothing was booked. Book again to send this order as 1004-A2.").first().waitFor();
      expect(await frame.locator("table").getByText("Recommended", { exact: true }).count(), "the rates, to book again").toBe(1);
    });
    await walk.step("ship: #1004 booked again, as 1004-A2", async () => {
      await bookRecommended();
      await frame.getByText(/^Fulfilled: awb \w+ with .+$/).waitFor();
      const history = frame.getByRole("heading", { level: 2, name: "History", exact: true }).locator("xpath=following::ol[1]").locator(":scope > li");
      const lines = await history.evaluateAll((items) => items.map((item) => [item.querySelector("span")?.textContent?.trim() ?? "", item.querySelector("p")?.textContent?.trim() ?? ""]));
      expect(lines.map(([what]) => what).slice(0, 7)).toEqual(["Booking started", "Courier chosen", "Booking failed", "Booking started", "Courier chosen", "Booked with the courier", "Fulfilled in Shopify with the tracking"]);
      expect(lines[2]![1]).toMatch(/^The courier account already has an order numbered 1004 .* Book again to send this order as 1004-A2\.$/);
      // The courier's account: its own 1004 and this booking's 1004-A2, one awb for the order.
      const awb = /awb (\w+)/.exec(lines[5]![1] ?? "")![1]!;
      expect((await courier.getOrder(awb)).order_id).toBe("1004-A2");
    });
  });

  it("Ship order: an order that cannot ship says what to fix and offers no booking", async () => {
    const expectProblem = async () => {
      await walk.admin.expectTitle("Ship order #1007");
      await frame.getByText("This order can't be shipped yet").waitFor();
      await frame.getByText(/The PIN code "40002" is not 6 digits\./).waitFor();
      expect(await frame.getByRole("button", { name: /^Book with / }).count()).toBe(0);
    };
    let path = "";
    await walk.step("ship: open #1007", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      await walk.admin.navigateInBrowser("The order's link", () => frame.getByRole("link", { name: "#1007", exact: true }).click(), { path: SHIP_PAGE });
      path = new URL(frame.url()).pathname;
      await expectProblem();
    });
    // The admin reloaded on this page (it keeps the app's address) loads the ship page as a document of its own.
    await walk.step("ship: #1007 opened directly", async () => {
      expect(await walk.admin.openDeepLink(path, { path })).toBe(200);
      await expectProblem();
    });
  });

  it("Ship order: 12 products ship as two parcels, each shown with its items and rates, booked together", async () => {
    await walk.step("ship: #1005's parcels", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      await walk.admin.navigateInBrowser("The order's link", () => frame.getByRole("link", { name: "#1005", exact: true }).click(), { path: SHIP_PAGE });
      await walk.admin.expectTitle("Ship order #1005");
      await frame.getByText(/^This order ships as 2 parcels: one from each location that holds its items, at most 10 products in each\./).waitFor();
      await frame.getByRole("heading", { name: /^Parcel 1 of 2 · from Bhiwandi Warehouse$/ }).waitFor();
      await frame.getByRole("heading", { name: /^Parcel 2 of 2 · from Bhiwandi Warehouse$/ }).waitFor();
      await frame.getByText(/^Split off into a fulfillment order of its own when booked/).waitFor();
      await frame.getByRole("heading", { name: "Book every parcel" }).waitFor();
      // The first parcel's own rates, beside the order's: a Book button for each courier, named for the parcel.
      expect(await frame.getByRole("button", { name: /^Book parcel 1 with / }).count()).toBeGreaterThan(0);
    });
    await walk.step("ship: Book every parcel with the recommended courier", async () => {
      const table = frame.getByRole("heading", { name: "Book every parcel" }).locator("xpath=following::table[1]");
      const recommended = table.locator("tbody tr").filter({ has: frame.getByText("Recommended", { exact: true }) });
      const toast = watchFor(frame.getByRole("status").filter({ hasText: /^2 parcels booked: awbs \w+, \w+$/ }));
      await walk.admin.navigateInBrowser("Book", () => recommended.getByRole("button", { name: /^Book with / }).click(), { path: SHIP_PAGE });
      await frame.getByRole("heading", { name: "Parcel #1005-2 · from Bhiwandi Warehouse" }).waitFor();
      await frame.getByRole("heading", { name: "Parcel #1005 · from Bhiwandi Warehouse" }).waitFor();
      await expect.poll(() => frame.getByText(/^Fulfilled: awb \w+ with .+$/).count(), { timeout: STEP_TIMEOUT }).toBe(2);
      await toast;
    });
  });

  let bulkBooked: string[] = [];
  it("Orders to ship: books the selected orders with their recommended couriers", async () => {
    await walk.step("orders: select two more ready orders", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      const ready = orderRows().filter({ has: frame.getByText("Ready", { exact: true }) });
      bulkBooked = (await ready.evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[1]?.textContent?.trim() ?? ""))).slice(-2);
      expect(bulkBooked).toHaveLength(2);
      for (const name of bulkBooked) await orderRows().filter({ hasText: name }).getByRole("checkbox").check();
      await frame.getByText("2 selected").waitFor();
    });
    await walk.step("orders: Book with recommended courier", async () => {
      await walk.admin.navigateInBrowser("Book with recommended courier", () => frame.getByRole("button", { name: "Book with recommended courier" }).click(), { path: "/app/orders" });
      const results = frame.locator(".Polaris-Banner").filter({ hasText: "Booking with the recommended courier" }).getByRole("listitem");
      await expect.poll(() => results.allTextContents(), { timeout: STEP_TIMEOUT }).toHaveLength(2);
      for (const line of await results.allTextContents()) expect(line).toMatch(/: booked with .+, awb \w+$/);
      // Booked and fulfilled, they are no longer orders to ship.
      await expect.poll(async () => (await orderNames()).filter((name) => bulkBooked.includes(name)), { timeout: STEP_TIMEOUT }).toEqual([]);
    });
  });

  // Seen right after the bulk booking above, on the same page: the results name each order, and nothing stays selected.
  it("after a bulk booking the results name the orders, and the booked orders are no longer selected", async () => {
    await walk.step("orders: the bulk booking's results", async () => {
      expect(bulkBooked, "the orders the test before booked (run the file, not this test alone)").toHaveLength(2);
      const results = frame.locator(".Polaris-Banner").filter({ hasText: "Booking with the recommended courier" }).getByRole("listitem");
      const named = (await results.allTextContents()).map((line) => line.replace(/: (not )?booked.*$/, ""));
      expect.soft(named.sort(), "the orders the results name").toEqual([...bulkBooked].sort());
      expect.soft(await frame.getByText(/^[1-9]\d* selected$/).filter({ visible: true }).count(), "a selection of orders no longer listed").toBe(0);
    });
  });

  it("Shipments: the stage tabs and the search change the address and the list, an empty result clears, and a shipment opens its order", async () => {
    await walk.step("shipments: all", async () => {
      await walk.admin.openFromNav("Shipments", { path: "/app/shipments" }, "Shipments");
      await frame.getByRole("link", { name: "#1003" }).waitFor();
      // No back arrow on a top-level page.
      expect(await frame.getByRole("link", { name: "Orders" }).count()).toBe(0);
    });
    await walk.step("shipments: awaiting pickup", async () => {
      await walk.admin.navigateInBrowser("The stage tabs", () => frame.getByRole("tab", { name: "Awaiting pickup" }).click(), { path: "/app/shipments", search: { stage: "awaiting_pickup" } });
      const rows = frame.locator("table tbody tr");
      await rows.first().waitFor();
      // The Status column's badge (the Label column has one of its own).
      const statusColumn = await frame.locator("table thead th").evaluateAll((headers) => headers.findIndex((header) => header.textContent?.trim() === "Status"));
      expect(statusColumn).toBeGreaterThan(-1);
      const statuses = await rows.evaluateAll((elements, column) => elements.map((row) => row.children[column]?.querySelector(".Polaris-Badge")?.textContent ?? ""), statusColumn);
      expect(statuses.length).toBeGreaterThanOrEqual(3);
      expect(statuses.every((status) => status.endsWith("Awaiting pickup"))).toBe(true);
    });
    await walk.step("shipments: a rarer stage, chosen from Other stages, becomes a tab while chosen", async () => {
      await walk.admin.navigateInBrowser("Other stages", () => frame.getByLabel("Other stages").selectOption({ label: "Cancelled" }), { path: "/app/shipments", search: { stage: "cancelled" } });
      await frame.getByRole("tab", { name: "Cancelled", selected: true }).waitFor();
      await frame.getByText("No shipments match these filters").waitFor();
    });
    await walk.step("shipments: none delivered, and the filters clear", async () => {
      await walk.admin.navigateInBrowser("The stage tabs", () => frame.getByRole("tab", { name: "Delivered" }).click(), { path: "/app/shipments", search: { stage: "delivered" } });
      await frame.getByText("No shipments match these filters").waitFor();
      expect(await frame.getByRole("link", { name: "Ship an order" }).count()).toBe(0);
      await walk.admin.navigateInBrowser("Clear filters", () => frame.getByRole("button", { name: "Clear filters" }).click(), { path: "/app/shipments", search: { stage: false } });
      await frame.getByRole("link", { name: "#1003" }).waitFor();
    });
    await walk.step("shipments: by the last event of each one's history, an unknown one named", async () => {
      expect(await walk.admin.openDeepLink("/app/shipments?event=nothing", { path: "/app/shipments", search: { event: "nothing" } })).toBe(200);
      await frame.locator(".Polaris-Banner").getByText("Choose one of the events a shipment's history records.").waitFor();
      await frame.getByRole("link", { name: "#1003" }).waitFor();
      const lastEvent = frame.getByLabel("Last event");
      expect(await lastEvent.inputValue()).toBe("");
      await walk.admin.navigateInBrowser("Last event", () => lastEvent.selectOption({ label: "Tracking stopped" }), { path: "/app/shipments", search: { event: "tracking_stopped" } });
      await frame.getByText("No shipments match these filters").waitFor();
      expect(await frame.getByText("Choose one of the events a shipment's history records.").count()).toBe(0);
      expect(await lastEvent.inputValue()).toBe("tracking_stopped");
      await walk.admin.navigateInBrowser("Last event", () => lastEvent.selectOption({ label: "Any" }), { path: "/app/shipments", search: { event: false } });
      await frame.getByRole("link", { name: "#1003" }).waitFor();
    });
    await walk.step("shipments: search by order number", async () => {
      // The list follows what is typed.
      await walk.admin.navigateInBrowser("The search field", () => frame.getByLabel("Order number, awb or phone").fill("1003"), { path: "/app/shipments", search: { q: "1003" } });
      await expect.poll(() => frame.locator("table tbody tr").count(), { timeout: STEP_TIMEOUT }).toBe(1);
      await frame.getByRole("link", { name: "#1003" }).waitFor();
    });
    await walk.step("shipments: open #1003 by its link, from the keyboard", async () => {
      await frame.getByRole("link", { name: "#1003" }).focus();
      await walk.admin.navigateInBrowser("The shipment's order link", () => walk.admin.page.keyboard.press("Enter"), { path: SHIP_PAGE });
      await frame.getByText(/^Fulfilled: awb \w+ with .+$/).waitFor();
      await frame.getByRole("link", { name: "Tracking page" }).waitFor();
    });
  });

  it("Settings: an edit shows the save bar, leaving asks first, Discard restores, a bad value refused on its field, an own account asks for its keys, the sandbox saves", async () => {
    const saveBar = walk.admin.page.locator("#save-bar");
    const leaveDialog = walk.admin.page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
    await walk.step("settings: an edit shows the save bar", async () => {
      await walk.admin.openFromNav("Settings", { path: "/app/settings" }, "Settings");
      expect(await saveBar.count()).toBe(0);
      // On the sandbox its warehouses are picked by name and address, not typed as numbers.
      const warehouse = frame.getByRole("combobox", { name: "Default pickup warehouse" });
      expect(await warehouse.locator("option").allTextContents()).toEqual([
        "The sandbox's primary warehouse (Bhiwandi)",
        expect.stringMatching(/^Bhiwandi Warehouse, .+ 421302 \(warehouse 1\)$/),
        expect.stringMatching(/^Gurugram Warehouse, .+ \(warehouse 2\)$/),
      ]);
      await frame.getByLabel("Tag for cash-on-delivery orders").fill("cash-please");
      await saveBar.getByText("Unsaved changes").waitFor();
    });
    await walk.step("settings: another page of the navigation asks before leaving, and Stay keeps the edit", async () => {
      const mark = await markWindow(frame);
      await walk.admin.page.locator("nav").getByText("Home", { exact: true }).click();
      await leaveDialog.waitFor();
      await leaveDialog.getByText("Leaving this page will delete all unsaved changes.").waitFor();
      await leaveDialog.getByRole("button", { name: "Stay" }).click();
      await leaveDialog.waitFor({ state: "hidden" });
      await expectSameWindow(frame, mark, "Stay");
      expect(await frame.getByLabel("Tag for cash-on-delivery orders").inputValue()).toBe("cash-please");
      await saveBar.waitFor();
    });
    await walk.step("settings: Discard restores what is saved", async () => {
      await saveBar.getByRole("button", { name: "Discard" }).click();
      await saveBar.waitFor({ state: "detached" });
      expect(await frame.getByLabel("Tag for cash-on-delivery orders").inputValue()).not.toBe("cash-please");
    });
    await walk.step("settings: a length of 1 cm", async () => {
      const length = frame.getByLabel("Length (cm)").first();
      await length.fill("1");
      await saveBar.waitFor();
      await walk.admin.navigateInBrowser("The save bar's Save", () => saveBar.getByRole("button", { name: "Save" }).click(), { path: "/app/settings" });
      await frame.getByText("Length must be more than 1 cm").waitFor();
      expect(await frame.getByText("Settings not saved").count()).toBe(1);
      expect(await length.getAttribute("aria-invalid")).toBe("true");
      // Nothing was saved: the edit is still unsaved.
      await saveBar.waitFor();
    });
    await walk.step("settings: my own account", async () => {
      const mark = await markWindow(frame);
      await walk.admin.page.locator("nav").getByText("Settings", { exact: true }).click();
      await leaveDialog.getByRole("button", { name: "Leave page" }).click();
      await expectNewDocument(frame, mark, "Leave page");
      await expectHydrated(frame, { path: "/app/settings" });
      await walk.admin.expectTitle("Settings");
      expect(await saveBar.count()).toBe(0);
      await frame.getByText("You are using Dakiya's sandbox courier service").waitFor();
      expect(await frame.getByLabel("API key").count()).toBe(0);
      await frame.getByText("My courier aggregator account", { exact: true }).click();
      await frame.getByLabel("API key").waitFor();
      expect(await frame.getByText("You are using Dakiya's sandbox courier service").count()).toBe(0);
      await walk.admin.navigateInBrowser("Save", () => frame.getByRole("button", { name: "Save" }).click(), { path: "/app/settings" });
      await frame.getByText("Enter your courier API key").waitFor();
      await frame.getByText("Enter your courier secret key").waitFor();
      expect(await frame.getByLabel("API key").getAttribute("aria-invalid")).toBe("true");
    });
    await walk.step("settings: back to the sandbox, saved", async () => {
      await frame.getByText("Dakiya sandbox (no account needed)", { exact: true }).click();
      await frame.getByText("You are using Dakiya's sandbox courier service").waitFor();
      expect(await frame.getByLabel("API key").count()).toBe(0);
      // The save is confirmed in a toast, as well as in the page's banner with what the courier said.
      const toast = watchFor(frame.locator("body > div[role=status]").filter({ hasText: /^Settings saved$/ }));
      await walk.admin.navigateInBrowser("Save", () => frame.getByRole("button", { name: "Save" }).click(), { path: "/app/settings" });
      await toast;
      await frame.locator(".Polaris-Banner").getByText("Settings saved").waitFor();
      await frame.getByText(/^Warehouse 1: /).first().waitFor();
      // Saved: nothing is left unsaved.
      await saveBar.waitFor({ state: "detached" });
    });
  });

  // A page whose loader throws a Response renders the same on the server and in the browser (app/components/ShopifyBusyBoundary.tsx).
  it("a deep link to an order that does not exist says so, and the page hydrates", async () => {
    await walk.step("ship: an order that does not exist", async () => {
      expect(await walk.admin.openDeepLink("/app/orders/999999999/ship", { path: "/app/orders/999999999/ship" })).toBe(404);
      await frame.getByText("No such order").waitFor({ timeout: 5_000 });
    });
  });

  it("Auto-booking: rules from the examples, reordered, a mistake named by rule and field, previewed on recent orders, saved", async () => {
    await walk.step("auto-booking: start from the examples", async () => {
      await walk.admin.openFromNav("Auto-booking", { path: "/app/auto-booking" }, "Auto-booking");
      await frame.getByRole("button", { name: "Start from example rules" }).click();
      await frame.getByRole("heading", { name: "Rule 5: Everything else" }).waitFor();
      await frame.getByRole("button", { name: "Move rule 5 up" }).click();
      await frame.getByRole("heading", { name: "Rule 4: Everything else" }).waitFor();
      await frame.getByRole("button", { name: "Move rule 4 down" }).click();
      await frame.getByRole("heading", { name: "Rule 5: Everything else" }).waitFor();
    });
    await walk.step("auto-booking: a mistake is named", async () => {
      await frame.getByLabel("Weight up to (kg)").nth(3).fill("a lot");
      await walk.admin.navigateInBrowser("Save", () => frame.getByRole("button", { name: "Save" }).click(), { path: "/app/auto-booking" });
      await frame.getByText("Rules not saved").waitFor();
      expect(await frame.getByText("Rule 4 'COD under ₹2,000': Maximum weight must be a number of kg").count()).toBe(2);
    });
    await walk.step("auto-booking: preview on recent orders", async () => {
      await frame.getByLabel("Weight up to (kg)").nth(3).fill("");
      await walk.admin.navigateInBrowser("Preview", () => frame.getByRole("button", { name: "Preview on recent orders" }).click(), { path: "/app/auto-booking" });
      await frame.getByText(/^Would have decided \d+ recent orders?: #\d+ \(recommended: /).first().waitFor();
      await frame.getByText(/^Never booked automatically until fixed: .*#1007 \(PIN code not 6 digits\)/).waitFor();
    });
    await walk.step("auto-booking: saved, still off", async () => {
      await walk.admin.navigateInBrowser("Save", () => frame.getByRole("button", { name: "Save" }).click(), { path: "/app/auto-booking" });
      await frame.getByText("Auto-booking is off: new orders are checked and wait for you.").waitFor();
      await walk.admin.openFromNav("Settings", { path: "/app/settings" }, "Settings");
      await frame.getByText("5 rules decide which new orders book themselves and with which courier.").waitFor();
    });
  });

  it("Needs attention: the orders that cannot ship, each with its fix; the sandbox's bookings need nothing", async () => {
    await walk.step("attention: orders to fix", async () => {
      await walk.admin.openFromNav("Needs attention", { path: "/app/attention" }, "Needs attention");
      const item = frame.locator("li").filter({ hasText: "#1007" });
      await item.getByText(/The PIN code "40002" is not 6 digits\./).waitFor();
      await item.getByText(/Correct the PIN code/).waitFor();
      // The fix is made in Shopify: the order's page in Shopify's admin, one tone for an order to fix as on Orders to ship.
      expect(await item.getByRole("link", { name: "Edit #1007 in Shopify" }).getAttribute("href")).toMatch(/^https:\/\/admin\.shopify\.com\/store\/dakiya-demo\/orders\/\d+$/);
      expect(await item.locator(".Polaris-Badge--toneWarning").count()).toBe(1);
      expect(await frame.getByText("Booking failed", { exact: true }).count()).toBe(0);
    });
    await walk.step("attention: Orders to ship", async () => {
      // A top-level page has no back arrow: Home is in the admin's navigation.
      expect(await frame.getByRole("link", { name: "Home" }).count()).toBe(0);
      await walk.admin.openFromNav("Home", { path: "/app" }, "Dakiya");
      await walk.admin.navigateInBrowser("Home's \"Ship orders\"", () => frame.getByRole("link", { name: "Ship orders" }).click(), { path: "/app/orders" });
      await walk.admin.expectTitle("Orders to ship");
    });
  });

  it("Returns: a return rule added, a mistake named on its rule and field, fixed, moved first and saved", async () => {
    await walk.step("returns: add a rule", async () => {
      expect(await walk.admin.openDeepLink("/app/orders/returns", { path: "/app/orders/returns" })).toBe(200);
      await walk.admin.expectTitle("Returns");
      await frame.getByRole("button", { name: "Add return rule" }).click();
      await frame.getByLabel("Return rule 1 name").fill("Damaged in Mumbai");
      await frame.getByLabel("Return rule 1: return reasons").fill("damaged, defective");
      await frame.getByLabel("Return rule 1: pickup PIN codes starting").fill("40x");
      await frame.getByLabel("Return rule 1: then").selectOption("cheapest");
    });
    await walk.step("returns: a mistake is named", async () => {
      await walk.admin.navigateInBrowser("Save return rules", () => frame.getByRole("button", { name: "Save return rules" }).click(), { path: "/app/orders/returns" });
      await frame.getByText("Fix the return rules below; nothing was saved.").waitFor();
      await frame.getByText("Return rule 1 'Damaged in Mumbai': PIN code prefixes are 1 to 6 digits, not starting with 0").waitFor();
    });
    await walk.step("returns: a second rule moved first, saved", async () => {
      await frame.getByLabel("Return rule 1: pickup PIN codes starting").fill("400");
      await frame.getByRole("button", { name: "Add return rule" }).click();
      await frame.getByLabel("Return rule 2 name").fill("Wholesale orders");
      await frame.getByLabel("Return rule 2: order tags").fill("wholesale");
      await frame.getByRole("button", { name: "Move Return rule 2 up" }).click();
      expect(await frame.getByLabel("Return rule 1 name").inputValue()).toBe("Wholesale orders");
      await walk.admin.navigateInBrowser("Save return rules", () => frame.getByRole("button", { name: "Save return rules" }).click(), { path: "/app/orders/returns" });
      await frame.getByText("Return rules saved.").waitFor();
      await walk.admin.openDeepLink("/app/orders/returns", { path: "/app/orders/returns" });
      expect(await frame.getByLabel("Return rule 1 name").inputValue()).toBe("Wholesale orders");
      expect(await frame.getByLabel("Return rule 2: pickup PIN codes starting").inputValue()).toBe("400");
      expect(await frame.getByLabel("Return rule 2: then").inputValue()).toBe("cheapest");
    });
  });
});

/** Every sentence of the English locale files that Hindi words differently (names such as "Dakiya" are the same in both). */
const ENGLISH_ONLY: string[] = (() => {
  const strings = (value: unknown): string[] => (typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : []);
  const hindi = new Set(strings(adminStrings("hi")));
  return [...new Set(strings(adminStrings("en")))].filter((text) => !hindi.has(text) && !text.includes("{"));
})();

/** The locale files' English sentences that the frame shows as a whole line of its text. */
async function englishShownOn(frame: Frame): Promise<string[]> {
  const lines = new Set((await frame.locator("body").innerText()).split("\n").map((line) => line.trim()));
  return ENGLISH_ONLY.filter((text) => lines.has(text));
}

/**
 * What has the keyboard's focus in the app's frame: its role-ish tag, text and accessible label; null while the
 * keyboard is elsewhere. A frame keeps its active element when the admin around it takes the focus, and a key pressed
 * then goes to the admin: only a frame whose document has the focus has the keyboard.
 */
const focused = (frame: Frame) =>
  frame.evaluate(() => {
    const element = document.activeElement;
    if (!element || !document.hasFocus()) return null;
    return { tag: element.tagName.toLowerCase(), text: (element.textContent ?? "").trim(), label: element.getAttribute("aria-label") ?? "" };
  });

/** Presses Tab (or `key`: Shift+Tab) until `wanted` has the focus (at most `limit` times); fails saying where the focus went instead. */
async function tabTo(page: Page, frame: Frame, what: string, wanted: (element: { tag: string; text: string; label: string }) => boolean, limit = 120, key = "Tab"): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    const element = await focused(frame);
    if (element && wanted(element)) return;
    seen.push(element ? `${element.tag} "${element.label || element.text.slice(0, 30)}"` : "the admin around the app");
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${what}; the focus went through: ${seen.slice(-40).join(", ")}`);
}

describe("the admin for screen readers and keyboards", { timeout: 120_000 }, () => {
  it("every page of the app's navigation has its title, one main landmark and no serious or critical axe violation", async () => {
    for (const [label, path, heading] of NAVIGATION) {
      // Each page as the merchant's walk opened it, from the navigation.
      const audit = await auditAt(path, `axe: ${label}`, () => walk.admin.openFromNav(label, { path }, heading));
      expect(audit, label).toEqual(passingAudit(`${label} · Dakiya`));
    }
    await walk.step("axe and keyboard: NDR instructions by e-mail, from the desk's link; a save with an empty form says what to fix", async () => {
      await walk.admin.openFromNav("Failed deliveries", { path: "/app/failed-deliveries" }, "Failed deliveries");
      const frame = walk.admin.frame;
      await walk.admin.navigateInBrowser("the desk's e-mail link", () => frame.getByRole("link", { name: "E-mail the instructions to the courier" }).click(), { path: "/app/failed-deliveries/email" });
      await walk.admin.expectTitle("NDR instructions by e-mail");
      expect(await auditPage(walk.admin.frame)).toEqual(passingAudit("NDR instructions by e-mail · Dakiya"));
      // From the keyboard: the form's button, Enter.
      await walk.admin.frame.getByRole("button", { name: "Check and save" }).focus();
      await walk.admin.page.keyboard.press("Enter");
      await walk.admin.frame.getByRole("status").filter({ hasText: "Fix the fields marked below; nothing was saved." }).waitFor();
      await walk.admin.frame.getByText("Enter the e-mail address of the courier's NDR desk.").waitFor();
      expect(await auditPage(walk.admin.frame)).toEqual(passingAudit("NDR instructions by e-mail · Dakiya"));
    });
  });

  it("Auto-booking with a rule: its headings in order", async () => {
    await walk.step("axe: Auto-booking with a rule", async () => {
      await walk.admin.openFromNav("Auto-booking", { path: "/app/auto-booking" }, "Auto-booking");
      const rules = walk.admin.frame.getByRole("heading", { name: /^Rule \d/ });
      const before = await rules.count();
      await walk.admin.frame.getByRole("button", { name: "Add rule" }).click();
      await expect.poll(() => rules.count()).toBe(before + 1);
      expect(await auditPage(walk.admin.frame)).toEqual(passingAudit("Auto-booking · Dakiya"));
      // The added rule is an unsaved edit: the admin's save bar offers to discard it, and leaving would ask first.
      await walk.admin.page.locator("#save-bar").getByRole("button", { name: "Discard" }).click();
      await expect.poll(() => rules.count()).toBe(before);
    });
  });

  it("Failed-delivery rules with the keyboard: from the desk, the examples, a mistake named at its field, then saved; no axe violation", async () => {
    const { page } = walk;
    const frame = () => walk.admin.frame;
    const t = adminStrings("en").failedDeliveries;
    await walk.step("rules: from the desk's Edit the rules", async () => {
      await walk.admin.openFromNav("Failed deliveries", { path: "/app/failed-deliveries" }, "Failed deliveries");
      await frame().getByText(t.settings.rulesNone).waitFor();
      await frame().getByRole("heading", { name: t.figures.heading }).waitFor();
      await walk.admin.navigateInBrowser("the desk's Edit the rules", () => frame().getByRole("link", { name: t.settings.editRules }).click(), { path: "/app/failed-deliveries/rules" });
      await walk.admin.expectTitle("Failed-delivery rules");
      expect(await auditPage(frame())).toEqual(passingAudit("Failed-delivery rules · Dakiya"));
    });
    await walk.step("rules: the examples with the keyboard, a name emptied and refused at its field", async () => {
      await frame().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabTo(page, frame(), "Start with examples", (element) => element.tag === "button" && element.text === t.rules.startWithExamples);
      await page.keyboard.press("Enter");
      await frame().getByRole("heading", { name: `Rule 1: ${t.rules.examples.refusedCod}` }).waitFor();
      expect(await frame().getByRole("heading", { name: /^Rule \d: / }).count()).toBe(3);
      // The waiting example says what happens when the shopper does not answer in time.
      expect(await frame().getByRole("combobox", { name: t.rules.fields.otherwise }).count()).toBe(1);
      const name = frame().getByRole("textbox", { name: t.rules.fields.name }).first();
      await name.fill("");
      // Back up from the field to the page's Save.
      await tabTo(page, frame(), "Save", (element) => element.tag === "button" && element.text === t.rules.save, 40, "Shift+Tab");
      await page.keyboard.press("Enter");
      await frame().getByRole("heading", { name: t.rules.notSaved }).waitFor();
      // The field says what to fix, and a screen reader hears it with the field.
      expect(await name.getAttribute("aria-invalid")).toBe("true");
      const described = (await name.getAttribute("aria-describedby"))!.split(" ");
      const said = await Promise.all(described.map((id) => frame().locator(`[id="${id}"]`).innerText().catch(() => "")));
      expect(said.join(" ")).toContain("Rule 1: give it a name.");
      expect(await auditPage(frame())).toEqual(passingAudit("Failed-delivery rules · Dakiya"));
    });
    await walk.step("rules: named again, saved, and the desk counts them", async () => {
      const name = frame().getByRole("textbox", { name: t.rules.fields.name }).first();
      await name.focus();
      await page.keyboard.type("Refused COD: return");
      await tabTo(page, frame(), "Save", (element) => element.tag === "button" && element.text === t.rules.save, 40, "Shift+Tab");
      await page.keyboard.press("Enter");
      await frame().getByText(t.rules.saved).waitFor();
      expect(await auditPage(frame())).toEqual(passingAudit("Failed-delivery rules · Dakiya"));
      await walk.admin.navigateInBrowser("the rules page's back link", () => frame().getByRole("link", { name: t.rules.back }).click(), { path: "/app/failed-deliveries" });
      await frame().getByText("3 rules decide failed attempts as they arrive.").waitFor();
    });
  });

  it("Compare rates: its title and no serious or critical axe violation", async () => {
    // Two orders' rates as the merchant's walk compared them, or two that nobody books, opened at the page's address.
    const audit = await auditAt("/app/orders/compare", "axe: Compare rates", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      // Each order's number links to its ship page, /app/orders/{id}/ship.
      const idOf = async (name: string) => /\/app\/orders\/(\d+)\/ship/.exec((await walk.admin.frame.getByRole("link", { name, exact: true }).getAttribute("href")) ?? "")![1];
      const ids = [await idOf("#1002"), await idOf("#1011")];
      expect(await walk.admin.openDeepLink(`/app/orders/compare?id=${ids[0]}&id=${ids[1]}`, { path: "/app/orders/compare" })).toBe(200);
      await walk.admin.frame.getByRole("table").first().waitFor();
    });
    expect(audit).toEqual(passingAudit("Compare rates · Dakiya"));
  });

  it("books an order with the keyboard alone: Tab to its number in Orders to ship, Enter, Tab to Book, Space", async () => {
    const { page } = walk;
    let frame = walk.admin.frame;
    await walk.step("keyboard: Orders to ship", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      frame = walk.admin.frame;
      // The keyboard starts in the app's frame, as after the admin's navigation hands it the focus.
      await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabTo(page, frame, "the link of order #1001", (element) => element.tag === "a" && element.text === "#1001");
    });
    await walk.step("keyboard: Enter opens the order", async () => {
      await walk.admin.navigateInBrowser("Enter on #1001", () => page.keyboard.press("Enter"), { path: SHIP_PAGE });
      await walk.admin.expectTitle("Ship order #1001");
      await frame.locator("table").getByText("Recommended", { exact: true }).waitFor();
      expect(await auditPage(frame)).toEqual(passingAudit("Ship order · Dakiya"));
    });
    await walk.step("keyboard: Space books with the recommended courier", async () => {
      const recommended = frame.locator("table tbody tr").filter({ has: frame.getByText("Recommended", { exact: true }) });
      const courier = (await recommended.getByRole("button", { name: /^Book with / }).getAttribute("aria-label"))!.replace(/^Book with /, "");
      await tabTo(page, frame, `Book with ${courier}`, (element) => element.tag === "button" && element.label === `Book with ${courier}`);
      await walk.admin.navigateInBrowser("Space on Book", () => page.keyboard.press("Space"), { path: SHIP_PAGE });
      await frame.getByText(new RegExp(`^Fulfilled: awb \\w+ with ${courier}$`)).waitFor();
      expect(await auditPage(frame)).toEqual(passingAudit("Ship order · Dakiya"));
    });
  });

  it("the shopper's tracking page from that booking: no serious or critical axe violation, in English and in Hindi", async () => {
    const link = await walk.admin.frame.locator('a[href*="/track/"]').first().getAttribute("href");
    expect(link).toMatch(/\/track\/\w+\?token=/);
    // The page allows no script at all: axe goes in with the page's Content-Security-Policy set aside.
    const context = await walk.browser.newContext({ bypassCSP: true, viewport: { width: 360, height: 780 } });
    try {
      const phone = await context.newPage();
      const watcher = new PageWatcher(phone);
      for (const language of ["en", "hi"]) {
        await walk.step(`axe: tracking page (${language})`, async () => {
          expect((await phone.goto(`${link}&lang=${language}`))?.status()).toBe(200);
          expect(await auditPage(phone)).toEqual({ title: expect.stringMatching(/– parcel \w+$|– पार्सल \w+$/), mainLandmarks: 1, violations: [] });
        });
      }
      watcher.expectNone("The tracking page");
    } finally {
      await context.close();
    }
  });

  it("in Hindi when the admin opens the app with ?locale=hi: every page of the navigation titled, headed and worded in Hindi, with no axe violation", async () => {
    const hindi = adminStrings("hi").pages;
    await walk.step("Hindi: the admin opened with ?locale=hi", async () => {
      walk.admin = await openEmbeddedAdmin(walk.page, walk.watcher, `${walk.demo.adminUrl}?locale=hi`);
      const frame = walk.admin.frame;
      await expect.poll(() => new URL(frame.url()).searchParams.get("locale")).toBe("hi");
      await expect.poll(() => frame.title()).toBe("होम · Dakiya");
      await walk.admin.expectTitle("Dakiya");
      expect(await auditPage(frame)).toEqual(passingAudit("होम · Dakiya"));
      expect(await englishShownOn(frame), "English words of the locale files on Home").toEqual([]);
    });
    const pages: [page: keyof typeof hindi, path: string, heading: string][] = [
      ["ordersToShip", "/app/orders", hindi.ordersToShip],
      ["shipments", "/app/shipments", hindi.shipments],
      ["failedDeliveries", "/app/failed-deliveries", hindi.failedDeliveries],
      ["cod", "/app/cod", hindi.cod],
      ["freight", "/app/freight", hindi.freight],
      ["needsAttention", "/app/attention", hindi.needsAttention],
      ["autoBooking", "/app/auto-booking", hindi.autoBooking],
      ["settings", "/app/settings", hindi.settings],
      ["storefront", "/app/storefront", hindi.storefront],
    ];
    for (const [page, path, heading] of pages) {
      await walk.step(`Hindi: ${adminStrings("en").pages[page]}`, async () => {
        // The local admin's own navigation is English, as its chrome is; the app's frame follows the admin's language.
        await walk.admin.openFromNav(adminStrings("en").pages[page], { path }, heading);
        const frame = walk.admin.frame;
        expect(new URL(frame.url()).searchParams.get("locale"), "the admin passes its language on every load of the frame").toBe("hi");
        expect(await auditPage(frame), page).toEqual(passingAudit(`${hindi[page]} · Dakiya`));
        expect(await frame.locator("html").getAttribute("lang")).toBe("hi");
        expect(await englishShownOn(frame), `English words of the locale files on ${path}`).toEqual([]);
      });
    }
    await walk.step("Hindi: NDR instructions by e-mail, from the desk's link", async () => {
      await walk.admin.openFromNav(adminStrings("en").pages.failedDeliveries, { path: "/app/failed-deliveries" }, hindi.failedDeliveries);
      const frame = walk.admin.frame;
      await walk.admin.navigateInBrowser("the desk's e-mail link", () => frame.getByRole("link", { name: adminStrings("hi").ndrEmail.deskLink }).click(), { path: "/app/failed-deliveries/email" });
      await walk.admin.expectTitle(hindi.ndrEmail);
      expect(await auditPage(walk.admin.frame)).toEqual(passingAudit(`${hindi.ndrEmail} · Dakiya`));
      expect(await englishShownOn(walk.admin.frame), "English words of the locale files on the e-mail settings").toEqual([]);
    });
    await walk.step("Hindi: Ship order, with its rates", async () => {
      await walk.admin.openFromNav(adminStrings("en").pages.ordersToShip, { path: "/app/orders" }, hindi.ordersToShip);
      const frame = walk.admin.frame;
      const ready = frame.locator("table tbody tr").filter({ has: frame.getByText(adminStrings("hi").orders.list.ready, { exact: true }) }).first();
      const name = (await ready.getByRole("link", { name: /^#\d+$/ }).first().textContent())!.trim();
      await walk.admin.navigateInBrowser(`${name}'s link`, () => ready.getByRole("link", { name, exact: true }).click(), { path: SHIP_PAGE });
      await walk.admin.expectTitle(fill(adminStrings("hi").ship.page.title, { orderId: name.replace(/^#/, "") }));
      await frame.locator("table").getByText(adminStrings("hi").ship.rates.recommended, { exact: true }).waitFor();
      expect(await auditPage(frame)).toEqual(passingAudit(`${hindi.ship} · Dakiya`));
      expect(await englishShownOn(frame), "English words of the locale files on the ship page").toEqual([]);
    });
    await walk.step("Hindi: the failed-delivery rules, from the desk", async () => {
      const t = adminStrings("hi").failedDeliveries;
      await walk.admin.openFromNav(adminStrings("en").pages.failedDeliveries, { path: "/app/failed-deliveries" }, hindi.failedDeliveries);
      await walk.admin.navigateInBrowser("the desk's Edit the rules", () => walk.admin.frame.getByRole("link", { name: t.settings.editRules }).click(), { path: "/app/failed-deliveries/rules" });
      const frame = walk.admin.frame;
      await expect.poll(() => frame.title()).toBe(`${hindi.failedDeliveryRules} · Dakiya`);
      await frame.getByRole("button", { name: t.rules.addRule }).waitFor();
      expect(await auditPage(frame)).toEqual(passingAudit(`${hindi.failedDeliveryRules} · Dakiya`));
      expect(await englishShownOn(frame), "English words of the locale files on the rules page").toEqual([]);
    });
    await walk.step("Hindi: a navigation inside the app keeps the language", async () => {
      await walk.admin.openFromNav(adminStrings("en").pages.settings, { path: "/app/settings" }, hindi.settings);
      await walk.admin.frame.getByRole("heading", { level: 2, name: "ट्रैकिंग पेज" }).waitFor();
      expect(await walk.admin.frame.getByRole("textbox", { name: "संपर्क ईमेल" }).count()).toBe(1);
      await walk.admin.navigateInBrowser("Settings' Edit rules", () => walk.admin.frame.getByRole("link", { name: adminStrings("hi").settings.autoBooking.edit }).click(), { path: "/app/auto-booking" });
      await expect.poll(() => walk.admin.frame.title()).toBe("ऑटो-बुकिंग · Dakiya");
    });
  });
});
