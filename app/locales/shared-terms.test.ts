import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adminStrings } from "./admin-language";

/*
 * The admin and the extensions on Shopify's order pages speak to the same merchant: a word both use in English (a
 * stage, "Courier", "Print label") is the same word in Hindi in both, so the merchant meets one name for one thing.
 * A word that means something else in each place is listed below with why.
 */

/** English words the admin and an extension use in different senses, so their Hindi differs on purpose. */
const DIFFERENT_SENSES: Readonly<Record<string, string>> = {
  Booked: "the admin's column of the day a shipment was booked (बुकिंग); the bulk action's result, that the order was booked (बुक हुआ)",
  Held: "the admin's tab of the orders held (रोके गए); the bulk action's result for one order (रोका गया)",
};

type Words = Map<string, string>;

function flatten(value: unknown, prefix = "", into: Words = new Map()): Words {
  if (typeof value === "string") into.set(prefix, value);
  else if (value && typeof value === "object") for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

const EXTENSIONS = path.resolve(__dirname, "../../extensions");
const extensionLocales = readdirSync(EXTENSIONS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => readdirSync(path.join(EXTENSIONS, name)).includes("locales"))
  .map((name) => {
    const read = (file: string) => flatten(JSON.parse(readFileSync(path.join(EXTENSIONS, name, "locales", file), "utf8")));
    return { name, en: read("en.default.json"), hi: read("hi.json") };
  });

describe("words shared by the admin and the extensions", () => {
  it("are the same word in Hindi wherever the same English word appears", () => {
    const adminEnglish = flatten(adminStrings("en"));
    const adminHindi = flatten(adminStrings("hi"));
    const hindiOf = new Map<string, Set<string>>();
    for (const [key, english] of adminEnglish) hindiOf.set(english, (hindiOf.get(english) ?? new Set()).add(adminHindi.get(key)!));
    expect(extensionLocales.length).toBeGreaterThan(3);
    const shared: string[] = [];
    const disagreeing: string[] = [];
    for (const extension of extensionLocales) {
      for (const [key, english] of extension.en) {
        const admin = hindiOf.get(english);
        if (!admin || english in DIFFERENT_SENSES) continue;
        shared.push(english);
        const hindi = extension.hi.get(key);
        if (!hindi || !admin.has(hindi)) disagreeing.push(`${extension.name} ${key} "${english}": ${hindi ?? "(none)"} here, ${[...admin].join(" / ")} in the admin`);
      }
    }
    // The check means something only while the two share words.
    expect(shared.length).toBeGreaterThan(10);
    expect(disagreeing).toEqual([]);
  });
});
