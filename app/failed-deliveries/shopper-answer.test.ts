import { describe, expect, it } from "vitest";
import { indianMobile, preferredDays, readShopperAnswer } from "./shopper-answer";

describe("the shopper's answer to a failed delivery", () => {
  it("offers the next six days in India's calendar without the shop's closed weekdays and holidays", () => {
    // Friday 27 November 2026, 23:00 in India (17:30 UTC): tomorrow is Saturday the 28th.
    const now = new Date("2026-11-27T17:30:00Z");
    expect(preferredDays(now, { closedWeekdays: [], closedDates: [] })).toEqual(["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"]);
    expect(preferredDays(now, { closedWeekdays: [0], closedDates: ["2026-12-01"] })).toEqual(["2026-11-28", "2026-11-30", "2026-12-02", "2026-12-03"]);
    // Past midnight in India the days move on, though UTC is still on the 27th.
    expect(preferredDays(new Date("2026-11-27T18:31:00Z"), { closedWeekdays: [], closedDates: [] })[0]).toBe("2026-11-29");
  });

  it("reads a mobile number as shoppers write it, and nothing that is not one", () => {
    for (const written of ["9845012345", "+91 98450 12345", "098450-12345", "91 (98450) 12345"]) expect(indianMobile(written)).toBe("9845012345");
    for (const written of ["12345", "5845012345", "98450123456", "+1 98450 12345"]) expect(indianMobile(written)).toBeNull();
  });

  it("takes a day offered, a time and the corrections, and names each field it refuses", () => {
    const days = ["2026-11-28", "2026-11-30"];
    expect(readShopperAnswer({ answer: "deliver_again", preferredDate: "2026-11-30", preferredSlot: "morning", landmark: "  Behind   the temple ", phone: "" }, days)).toEqual({
      ok: true,
      answer: { answer: "deliver_again", preferredDate: "2026-11-30", preferredSlot: "morning", phone: null, alternatePhone: null, addressLine: null, landmark: "Behind the temple" },
    });
    expect(readShopperAnswer({ answer: "deliver_again", preferredDate: "2026-11-29", preferredSlot: "night", phone: "123", alternatePhone: "98450", addressLine: "x".repeat(201), landmark: "a\tb" }, days)).toEqual({
      ok: false,
      problems: ["date", "slot", "phone", "alternatePhone", "addressLine", "landmark"],
    });
    expect(readShopperAnswer({ answer: "cancel", preferredDate: "nonsense" }, days)).toMatchObject({ ok: true, answer: { answer: "cancel", preferredDate: null } });
    expect(readShopperAnswer({ answer: "burn" }, days)).toEqual({ ok: false, problems: ["choice"] });
  });
});
