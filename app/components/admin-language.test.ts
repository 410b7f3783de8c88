import { describe, expect, it } from "vitest";
import en from "~/locales/admin.en.json";
import hi from "~/locales/admin.hi.json";
import { adminLanguageOf } from "./admin-language";
import { pageTitle } from "./page-titles";

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
    expect(keysOf(hi).sort()).toEqual(keysOf(en).sort());
    for (const messages of [en, hi]) for (const key of keysOf(messages)) expect(key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages)).not.toBe("");
  });

  it("titles each page by its name and the app's, in the admin's language", () => {
    expect(pageTitle("/app/orders")).toBe("Orders to ship · Dakiya");
    expect(pageTitle("/app/orders/123/ship", "hi")).toBe("ऑर्डर भेजें · Dakiya");
    expect(pageTitle("/app")).toBe("Home · Dakiya");
    expect(pageTitle("/app/unknown")).toBe("Dakiya");
  });
});
