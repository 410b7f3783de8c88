import { describe, expect, it } from "vitest";
import { adminLanguageOf, adminStrings, courierStatusName, englishOf, plural, sayStored } from "./admin-language";
import { pageTitle } from "~/components/page-titles";
import { ORDER_STAGES } from "~/orders/order-stage";
import { DELIVERY_STAGES } from "~/shipments/delivery-stage";
import { SERVICE_STATUS_LABELS } from "~/shipping/status";

const keysOf = (value: object, prefix = ""): string[] =>
  Object.entries(value).flatMap(([key, inner]) => (typeof inner === "string" ? [prefix + key] : keysOf(inner as object, `${prefix}${key}.`)));

describe("the admin's language", () => {
  it("follows Shopify's locale parameter: Hindi for hi and its regions, English for any other, none when absent", () => {
    expect(adminLanguageOf("hi")).toBe("hi");
    expect(adminLanguageOf("hi-IN")).toBe("hi");
    expect(adminLanguageOf("HI_in")).toBe("hi");
    expect(adminLanguageOf("en")).toBe("en");
    expect(adminLanguageOf("ta")).toBe("en");
    expect(adminLanguageOf("")).toBeNull();
    expect(adminLanguageOf(null)).toBeNull();
  });

  it("has the same words in English and Hindi, none empty", () => {
    const [en, hi] = [adminStrings("en"), adminStrings("hi")];
    expect(keysOf(hi).sort()).toEqual(keysOf(en).sort());
    for (const messages of [en, hi]) for (const key of keysOf(messages)) expect(key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages)).not.toBe("");
  });

  it("picks a plural form by each language's rule and groups the count as the language does", () => {
    const orders = { one: "{count} order", other: "{count} orders" };
    expect(plural("en", orders, 1)).toBe("1 order");
    expect(plural("en", orders, 0)).toBe("0 orders");
    expect(plural("en", orders, 120000)).toBe("1,20,000 orders");
    // Hindi counts 0 and 1 as "one".
    const hindi = { one: "{count} ऑर्डर (एक)", other: "{count} ऑर्डर" };
    expect(plural("hi", hindi, 0)).toBe("0 ऑर्डर (एक)");
    expect(plural("hi", hindi, 2)).toBe("2 ऑर्डर");
  });

  it("names every order and delivery stage in both languages, the English word for word as the stage tables", () => {
    const en = adminStrings("en").common;
    expect(en.orderStages).toEqual(Object.fromEntries(Object.entries(ORDER_STAGES).map(([id, stage]) => [id, stage.label])));
    expect(en.deliveryStages).toEqual(Object.fromEntries(Object.entries(DELIVERY_STAGES).map(([id, stage]) => [id, stage.label])));
  });

  it("names every courier status code as the courier service does, and in Hindi", () => {
    for (const [code, label] of Object.entries(SERVICE_STATUS_LABELS)) {
      expect(courierStatusName(adminStrings("en"), Number(code))).toBe(label);
      // An abbreviation the trade uses as it is (RTO) stays; every other name is in Devanagari.
      expect(courierStatusName(adminStrings("hi"), Number(code))).toMatch(/^[A-Z]+$|\p{Script=Devanagari}/u);
    }
    expect(courierStatusName(adminStrings("en"), 99)).toBeUndefined();
  });

  it("titles each page by its name and the app's, in the admin's language", () => {
    expect(pageTitle("/app/orders")).toBe("Orders to ship · Dakiya");
    expect(pageTitle("/app/orders/123/ship", "hi")).toBe("ऑर्डर भेजें · Dakiya");
    expect(pageTitle("/app")).toBe("Home · Dakiya");
    expect(pageTitle("/app/unknown")).toBe("Dakiya");
  });
});

describe("stored words", () => {
  it("are said again in the admin's language, nested words too, and fall back to the stored English when unknown", () => {
    const stored = { key: "common.errorPage.busyTitle" };
    expect(sayStored("hi", stored, "Shopify is busy")).toBe("Shopify व्यस्त है");
    expect(englishOf(stored)).toBe("Shopify is busy");
    expect(sayStored("hi", { key: "no.such.key" }, "As it was said")).toBe("As it was said");
    expect(sayStored("hi", null, "As it was said")).toBe("As it was said");
    expect(sayStored("hi", { key: "common" }, "A branch, not a sentence")).toBe("A branch, not a sentence");
    expect(sayStored("en", { key: "ship.edit.warehouseNumbered", values: { id: 7 } }, "")).toBe("Warehouse 7");
    expect(sayStored("hi", { key: "ship.edit.warehouseNamed", values: { id: 2, description: { key: "common.deliveryStages.delivered" } } }, "")).toBe("डिलीवर हुआ (वेयरहाउस 2)");
  });
});
