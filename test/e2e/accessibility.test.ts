import type { Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openEmbeddedAdmin, walkTheAdmin } from "./support/admin";
import { auditPage, passingAudit } from "./support/axe";
import { PageWatcher } from "./support/browser";
import { adminStrings, fill } from "~/locales/admin-language";

/*
 * The app as a screen reader or keyboard user meets it, inside the local Shopify admin: every page checked with
 * axe-core (no serious or critical violation; a document title and one main landmark), and an order booked from
 * Orders to ship with Tab, Enter and Space alone. Then the shopper's tracking page from that booking, the same way;
 * and the app in Hindi when the admin opens it with `?locale=hi`, as Shopify passes the admin's language.
 * Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always): test-results/screenshots/accessibility/.
 */

const walk = walkTheAdmin("accessibility", { name: "e2e_accessibility", basePort: 4850, restoreRate: 1_000 }, { startTimeoutMs: 400_000 });
const SHIP_PAGE = /^\/app\/orders\/\d+\/ship$/;

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

/** What has the keyboard's focus in the app's frame: its role-ish tag, text and accessible label. */
const focused = (frame: Frame) =>
  frame.evaluate(() => {
    const element = document.activeElement;
    return element ? { tag: element.tagName.toLowerCase(), text: (element.textContent ?? "").trim(), label: element.getAttribute("aria-label") ?? "" } : null;
  });

/** Presses Tab (or `key`: Shift+Tab) until `wanted` has the focus (at most `limit` times); fails saying where the focus went instead. */
async function tabTo(page: Page, frame: Frame, what: string, wanted: (element: { tag: string; text: string; label: string }) => boolean, limit = 120, key = "Tab"): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    const element = await focused(frame);
    if (element && wanted(element)) return;
    if (element) seen.push(`${element.tag} "${element.label || element.text.slice(0, 30)}"`);
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${what}; the focus went through: ${seen.slice(-40).join(", ")}`);
}

describe("the admin for screen readers and keyboards", { timeout: 120_000 }, () => {
  it("every page of the app's navigation has its title, one main landmark and no serious or critical axe violation", async () => {
    const pages: [label: string, path: string, heading: string, title: string][] = [
      ["Home", "/app", "Dakiya", "Home · Dakiya"],
      ["Orders to ship", "/app/orders", "Orders to ship", "Orders to ship · Dakiya"],
      ["Shipments", "/app/shipments", "Shipments", "Shipments · Dakiya"],
      ["Failed deliveries", "/app/failed-deliveries", "Failed deliveries", "Failed deliveries · Dakiya"],
      ["COD remittance", "/app/cod", "COD remittance", "COD remittance · Dakiya"],
      ["Freight & weight", "/app/freight", "Freight & weight", "Freight & weight · Dakiya"],
      ["Needs attention", "/app/attention", "Needs attention", "Needs attention · Dakiya"],
      ["Auto-booking", "/app/auto-booking", "Auto-booking", "Auto-booking · Dakiya"],
      ["Settings", "/app/settings", "Settings", "Settings · Dakiya"],
      ["Storefront", "/app/storefront", "Storefront", "Storefront · Dakiya"],
    ];
    for (const [label, path, heading, title] of pages) {
      await walk.step(`axe: ${label}`, async () => {
        await walk.admin.openFromNav(label, { path }, heading);
        expect(await auditPage(walk.admin.frame), label).toEqual(passingAudit(title));
      });
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
    await walk.step("axe: Compare rates", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      // Each order's number links to its ship page, /app/orders/{id}/ship.
      const idOf = async (name: string) => /\/app\/orders\/(\d+)\/ship/.exec((await walk.admin.frame.getByRole("link", { name, exact: true }).getAttribute("href")) ?? "")![1];
      const ids = [await idOf("#1002"), await idOf("#1004")];
      expect(await walk.admin.openDeepLink(`/app/orders/compare?id=${ids[0]}&id=${ids[1]}`, { path: "/app/orders/compare" })).toBe(200);
      await walk.admin.frame.getByRole("table").first().waitFor();
      expect(await auditPage(walk.admin.frame)).toEqual(passingAudit("Compare rates · Dakiya"));
    });
  });

  it("books an order with the keyboard alone: Tab to its number in Orders to ship, Enter, Tab to Book, Space", async () => {
    const { page } = walk;
    let frame = walk.admin.frame;
    await walk.step("keyboard: Orders to ship", async () => {
      await walk.admin.openFromNav("Orders to ship", { path: "/app/orders" }, "Orders to ship");
      frame = walk.admin.frame;
      // The keyboard starts in the app's frame, as after the admin's navigation hands it the focus.
      await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabTo(page, frame, "the link of order #1003", (element) => element.tag === "a" && element.text === "#1003");
    });
    await walk.step("keyboard: Enter opens the order", async () => {
      await walk.admin.navigateInBrowser("Enter on #1003", () => page.keyboard.press("Enter"), { path: SHIP_PAGE });
      await walk.admin.expectTitle("Ship order #1003");
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
