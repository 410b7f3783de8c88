import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BOOKED_ORDER_METAFIELD_ACCESS, BOOKED_ORDER_METAFIELDS } from "./booked-order-metafields";

/** The `[order.metafields.app.<key>]` tables of shopify.app.toml, each as its `name = "value"` lines. */
function declaredOrderMetafields(toml: string): Map<string, Record<string, string>> {
  const declared = new Map<string, Record<string, string>>();
  let current: Record<string, string> | null = null;
  for (const line of toml.split("\n")) {
    const table = /^\[(.+)\]\s*$/.exec(line.trim());
    if (table) {
      const key = /^order\.metafields\.app\.(\w+)$/.exec(table[1]!)?.[1];
      current = key ? {} : null;
      if (key) declared.set(key, current!);
      continue;
    }
    const setting = /^([\w.]+)\s*=\s*"([^"]*)"\s*$/.exec(line.trim());
    if (current && setting) current[setting[1]!] = setting[2]!;
  }
  return declared;
}

describe("a booked order's app metafields", () => {
  const declared = declaredOrderMetafields(readFileSync("shopify.app.toml", "utf8"));

  it("are each declared in shopify.app.toml with the type Dakiya writes and the merchant's read access", () => {
    expect([...declared.keys()].sort()).toEqual(Object.keys(BOOKED_ORDER_METAFIELDS).sort());
    for (const [key, { type, name, description }] of Object.entries(BOOKED_ORDER_METAFIELDS)) {
      expect(declared.get(key), key).toEqual({ type, name, description, "access.admin": BOOKED_ORDER_METAFIELD_ACCESS });
    }
  });

  it("reads the declarations it checks: a table the app does not write is found", () => {
    const extra = declaredOrderMetafields('[order.metafields.app.weight]\ntype = "number_decimal"\n[access_scopes]\nscopes = "read_orders"\n');
    expect(extra).toEqual(new Map([["weight", { type: "number_decimal" }]]));
  });
});
