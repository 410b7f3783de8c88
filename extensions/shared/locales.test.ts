import { describe, expect, it } from "vitest";
import blockEn from "../dakiya-shipment-block/locales/en.default.json";
import blockHi from "../dakiya-shipment-block/locales/hi.json";
import bulkEn from "../ship-selected-with-dakiya/locales/en.default.json";
import bulkHi from "../ship-selected-with-dakiya/locales/hi.json";
import actionEn from "../ship-with-dakiya/locales/en.default.json";
import actionHi from "../ship-with-dakiya/locales/hi.json";
import printLabelEn from "../dakiya-print-label/locales/en.default.json";
import printLabelHi from "../dakiya-print-label/locales/hi.json";
import printLabelsEn from "../dakiya-print-labels/locales/en.default.json";
import printLabelsHi from "../dakiya-print-labels/locales/hi.json";
import type { Messages } from "./testing";

const LOCALES: [string, Messages, Messages][] = [
  ["ship-with-dakiya", actionEn, actionHi],
  ["dakiya-shipment-block", blockEn, blockHi],
  ["ship-selected-with-dakiya", bulkEn, bulkHi],
  ["dakiya-print-label", printLabelEn, printLabelHi],
  ["dakiya-print-labels", printLabelsEn, printLabelsHi],
];

function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === "string") flat.set(prefix + key, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe.each(LOCALES)("the %s locales", (_, en, hi) => {
  const english = flatten(en);
  const hindi = flatten(hi);

  it("name the extension, as its toml's `t:name` asks", () => {
    expect(english.get("name")).toBeTruthy();
    expect(hindi.get("name")).toBeTruthy();
  });

  it("have the same keys in English and Hindi", () => {
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it("keep every placeholder in the Hindi text", () => {
    for (const [key, text] of english) expect(placeholders(hindi.get(key) ?? ""), key).toEqual(placeholders(text));
  });

  it("are written in Devanagari in Hindi, not left in English", () => {
    for (const [key, text] of hindi) {
      const words = text.replace(/\{\{\s*\w+\s*\}\}/g, "").replace(/\bAWB\b/g, "");
      if (/[^\s\p{P}\p{S}]/u.test(words)) expect(words, key).toMatch(/[\u0900-\u097F]/);
    }
  });
});
