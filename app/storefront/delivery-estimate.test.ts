import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import en from "~/locales/storefront.en.json";
import hi from "~/locales/storefront.hi.json";
import { parseEstimateQuery, toEstimateAnswer, toRouteQuote, weightBandOf, type EstimateSettings } from "./delivery-estimate";

const keysOf = (value: unknown, prefix = ""): string[] =>
  typeof value === "object" && value !== null ? Object.entries(value).flatMap(([key, inner]) => keysOf(inner, `${prefix}${key}.`)) : [prefix.slice(0, -1)];

describe("storefront words", () => {
  it("have the same keys in English and Hindi, in the app and in the theme block", () => {
    expect(keysOf(hi).sort()).toEqual(keysOf(en).sort());
    const block = (file: string) => JSON.parse(readFileSync(`extensions/delivery-estimate/locales/${file}`, "utf8"));
    expect(keysOf(block("hi.json")).sort()).toEqual(keysOf(block("en.default.json")).sort());
  });
});

describe("estimate query", () => {
  const parse = (query: string) => parseEstimateQuery(new URLSearchParams(query));

  it("reads a PIN code with spaces, the weight, the value and the language", () => {
    expect(parse("pincode=560 038&grams=750&amount=129900&locale=hi-IN")).toEqual({ ok: true, query: { pincode: "560038", grams: 750, amountPaise: 129_900, language: "hi", variantId: null } });
  });

  it("reads a product variant by its id or its gid, as the variant's gid", () => {
    for (const variant of ["44001002", "gid://shopify/ProductVariant/44001002"]) {
      expect(parse(`pincode=560038&variant=${encodeURIComponent(variant)}`)).toMatchObject({ ok: true, query: { variantId: "gid://shopify/ProductVariant/44001002" } });
    }
  });

  it.each([
    ["", "pincode", "Enter your 6-digit PIN code"],
    ["pincode=056003", "pincode", "A PIN code has 6 digits"],
    ["pincode=5600388", "pincode", "A PIN code has 6 digits"],
    ["pincode=560038&grams=1.5", "grams", "whole number of grams"],
    ["pincode=560038&amount=99999999999", "amount", "paise"],
  ])("names what to fix in %j", (query, field, message) => {
    expect(parse(query)).toMatchObject({ ok: false, field, message: expect.stringContaining(message) });
  });
});

describe("estimate answer", () => {
  const settings: EstimateSettings = { handlingDays: 1, cutoffMinutes: 840, closedWeekdays: [0], closedDates: [], showCod: true, codMaxPaise: 100_000 };
  const query = { pincode: "560038", grams: null, amountPaise: null, language: "en" as const };
  const monday = new Date("2026-11-23T10:00:00+05:30");
  const option = (id: number, edd: string, total: number) => ({ id, type: "surface", name: `C${id}`, chargeable_weight: "0.5 KG", freight_charges: total, cod_charges: 0, total_charges: total, zone: "D", edd });

  it("uses the days of the courier Dakiya would recommend", () => {
    const quote = toRouteQuote({ success: true, logistics: [option(1, "4 - 6", 50), option(2, "2 - 3", 120)], total_logistics: 2 });
    expect(quote).toEqual({ serviceable: true, courierDays: [4, 6], codAvailable: true });
    expect(toEstimateAnswer({ query, quote, settings, now: monday })).toMatchObject({ status: "deliverable", earliest: "2026-11-28", deliverBy: "2026-11-30", message: "Delivered by Mon, 30 Nov" });
  });

  it("tells a route without cash on delivery from one without any courier", () => {
    const none = { success: true as const, logistics: [], total_logistics: 0 };
    expect(toRouteQuote(none, { success: true, logistics: [option(1, "3 - 4", 60)], total_logistics: 1 })).toEqual({ serviceable: true, courierDays: [3, 4], codAvailable: false });
    expect(toRouteQuote(none, none)).toEqual({ serviceable: false, courierDays: null, codAvailable: false });
  });

  it("puts a parcel in the band above its weight", () => {
    expect([0, 500, 501, 1_999, 20_001, 999_999].map(weightBandOf)).toEqual([500, 500, 1_000, 2_000, 50_000, 1_000_000]);
  });
});
