import type { ReturnRecord } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { previewReturnRules } from "./return-rules-preview.server";

let nextId = 1;
const recorded = (name: string, fields: Partial<ReturnRecord>): ReturnRecord =>
  ({ returnGid: `gid://shopify/Return/${nextId++}`, returnName: name, orderGid: "gid://shopify/Order/1", state: "approved", problems: [], totalPaise: 129_900, pincode: "560038", reasons: ["defective"], ...fields }) as ReturnRecord;

describe("the return rules' preview of recorded returns", () => {
  it("decides an open return by the rules, and names a closed, declined or cancelled one as never booked", () => {
    const preview = previewReturnRules({ rule: "cheapest", courierId: null, rules: [] }, [
      recorded("#1001-R1", {}),
      recorded("#1002-R1", { state: "closed" }),
      recorded("#1003-R1", { state: "declined" }),
      recorded("#1004-R1", { state: "cancelled" }),
    ], new Map());
    expect(preview.byDefault.map((ret) => ret.returnName)).toEqual(["#1001-R1"]);
    expect(preview.notBooked.map(({ returnName, why }) => [returnName, why])).toEqual([
      ["#1002-R1", "closed in Shopify"],
      ["#1003-R1", "declined in Shopify"],
      ["#1004-R1", "cancelled in Shopify"],
    ]);
  });
});
