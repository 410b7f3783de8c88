import { describe, expect, it } from "vitest";
import { parseOverrides } from "./overrides";

const parse = (ewaybillNo: string) => parseOverrides(new URLSearchParams({ ewaybillNo }));

describe("the ship page's changes to a booking", () => {
  it("takes an e-waybill number of exactly 12 digits, spaces between its groups dropped", () => {
    expect(parse("1234 5678 9012")).toEqual({ overrides: { ewaybillNo: "123456789012" }, invalid: [], errors: {} });
    expect(parse("")).toEqual({ overrides: {}, invalid: [], errors: {} });
  });

  it("refuses anything else, saying what an e-waybill number is", () => {
    for (const given of ["12345", "1234567890123", "EWB123456789", "x".repeat(500)]) expect(parse(given).errors).toEqual({ ewaybillNo: "An e-waybill number is 12 digits" });
  });
});
