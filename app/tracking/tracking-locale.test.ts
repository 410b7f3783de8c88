import { describe, expect, it } from "vitest";
import en from "~/locales/tracking.en.json";
import hi from "~/locales/tracking.hi.json";
import { SERVICE_STATUS_CODES } from "~/shipping/status";
import { fill, formatDay, formatMoment, pickLanguage, retryMessage, stageText } from "./tracking-locale";

type Tree = { [key: string]: string | Tree };

/** Every string of a locale file by its dotted key. */
function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") found.set(`${prefix}${key}`, value);
    else for (const [inner, text] of leaves(value, `${prefix}${key}.`)) found.set(inner, text);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("the tracking page's locale files", () => {
  const english = leaves(en);
  const hindi = leaves(hi);

  it("have the same keys and the same placeholders in each string", () => {
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) expect(placeholders(hindi.get(key)!), key).toEqual(placeholders(text));
  });

  it("are a real Hindi translation: every Hindi string is written in Devanagari", () => {
    for (const [key, text] of hindi) {
      expect(text, key).toMatch(/\p{Script=Devanagari}/u);
      expect(text, key).not.toBe(english.get(key));
    }
  });

  it("name every service status code (2–15) in plain words, in both languages", () => {
    for (const code of SERVICE_STATUS_CODES) {
      for (const language of ["en", "hi"] as const) {
        const { label, summary } = stageText(language, code);
        expect(label, `${language} ${code}`).toBeTruthy();
        expect(summary, `${language} ${code}`).not.toBe(stageText(language, null).summary);
      }
    }
    expect(stageText("en", 9).summary).toBe("Delivery was attempted; the courier will try again.");
    expect(stageText("en", 11).summary).toMatch(/^The parcel is being returned to the seller\./);
  });
});

describe("pickLanguage", () => {
  it("takes ?lang=hi|en first, whatever the browser prefers", () => {
    expect(pickLanguage("hi", "en-IN,en;q=0.9")).toBe("hi");
    expect(pickLanguage("en", "hi-IN,hi;q=0.9")).toBe("en");
    expect(pickLanguage(" HI ", null)).toBe("hi");
  });

  it("otherwise follows Accept-Language by preference, ignoring other languages and refused ones", () => {
    expect(pickLanguage(null, "hi-IN")).toBe("hi");
    expect(pickLanguage(null, "mr-IN,hi;q=0.8,en;q=0.7")).toBe("hi");
    expect(pickLanguage(null, "en;q=0.5, hi;q=0.9")).toBe("hi");
    expect(pickLanguage(null, "hi;q=0, en-GB")).toBe("en");
    expect(pickLanguage("fr", "ta-IN, hi;q=0.4")).toBe("hi");
    expect(pickLanguage(null, "en-IN,hi;q=0.9")).toBe("en");
  });

  it("falls back to English for nothing usable", () => {
    expect(pickLanguage(null, null)).toBe("en");
    expect(pickLanguage("de", "de-DE,fr;q=0.8")).toBe("en");
    expect(pickLanguage(null, ";;;,q=,hi;q=abc")).toBe("en");
    expect(pickLanguage(null, `${"x,".repeat(5_000)}hi`)).toBe("en");
  });
});

describe("dates and messages", () => {
  it("shows instants in India's time zone (UTC+5:30), in the page's language", () => {
    // 20:00 UTC on the 24th is 01:30 on the 25th in India.
    expect(formatDay("en", "2026-11-24T20:00:00.000Z")).toMatch(/^Wed, 25 Nov,? 2026$/);
    expect(formatDay("hi", "2026-11-24T20:00:00.000Z")).toMatch(/^बुध, 25 नव/);
    expect(formatMoment("en", "2026-11-23T09:15:00.000Z")).toBe("23 Nov, 2:45 pm");
  });

  it("fills placeholders and picks the plural form", () => {
    expect(fill("{stage} – parcel {awb}", { stage: "Delivered", awb: "123" })).toBe("Delivered – parcel 123");
    expect(fill("{unknown} stays", {})).toBe("{unknown} stays");
    expect(retryMessage("en", 1)).toMatch(/in 1 second\.$/);
    expect(retryMessage("en", 42)).toMatch(/in 42 seconds\.$/);
    expect(retryMessage("hi", 42)).toContain("42 सेकंड");
  });
});
