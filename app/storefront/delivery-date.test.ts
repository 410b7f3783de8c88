import { describe, expect, it } from "vitest";
import { deliveryWindow, dispatchDay, formatDeliveryDate, isoDateOfDay, type DispatchCalendar } from "./delivery-date";

/** An instant given in India time. */
const ist = (local: string) => new Date(`${local}+05:30`);
const dispatchOn = (now: Date, calendar: DispatchCalendar) => {
  const day = dispatchDay(now, calendar);
  return day === null ? null : isoDateOfDay(day);
};

// Closed on Sundays, one day's handling, orders until 14:00 count from the same day.
const calendar: DispatchCalendar = { handlingDays: 1, cutoffMinutes: 14 * 60, closedWeekdays: [0], closedDates: [] };

describe("dispatch day", () => {
  // 2026-11-23 is a Monday.
  it.each([
    ["Mon before cut-off", "2026-11-23T09:00:00", "2026-11-24"],
    ["Mon at cut-off", "2026-11-23T14:00:00", "2026-11-25"],
    ["Tue late", "2026-11-24T23:59:00", "2026-11-26"],
    ["Wed morning", "2026-11-25T00:05:00", "2026-11-26"],
    ["Fri before cut-off", "2026-11-27T13:59:00", "2026-11-28"],
    // Saturday after the cut-off counts from Monday (Sunday is closed) and ships Tuesday.
    ["Sat after cut-off", "2026-11-28T15:00:00", "2026-12-01"],
    ["Sun any time", "2026-11-29T10:00:00", "2026-12-01"],
  ])("%s → %s", (_, now, expected) => {
    expect(dispatchOn(ist(now), calendar)).toBe(expected);
  });

  it("uses India's date, not the server's: 20:00 UTC on Monday is already Tuesday 01:30 in India", () => {
    expect(dispatchOn(new Date("2026-11-23T20:00:00Z"), calendar)).toBe("2026-11-25");
  });

  it("skips holidays and closed weekdays both when counting from and while handling", () => {
    const festive: DispatchCalendar = { ...calendar, handlingDays: 2, closedWeekdays: [0, 6], closedDates: ["2026-11-24", "2026-11-26"] };
    // Monday morning counts from Monday; handling days Wed (Tue closed) and Fri (Thu closed).
    expect(dispatchOn(ist("2026-11-23T09:00:00"), festive)).toBe("2026-11-27");
    // Friday afternoon counts from Monday (after the weekend) and ends the same way.
    expect(dispatchOn(ist("2026-11-20T16:00:00"), festive)).toBe("2026-11-27");
    // Wednesday afternoon counts from Friday (Thursday is closed), handling Mon and Wed: Tuesday is a holiday.
    expect(dispatchOn(ist("2026-11-25T15:00:00"), { ...festive, closedDates: ["2026-11-26", "2026-12-01"] })).toBe("2026-12-02");
  });

  it("ships the same day with no handling days before the cut-off", () => {
    expect(dispatchOn(ist("2026-11-23T09:00:00"), { ...calendar, handlingDays: 0 })).toBe("2026-11-23");
  });

  it("gives no day when the warehouse never opens", () => {
    expect(dispatchOn(ist("2026-11-23T09:00:00"), { ...calendar, closedWeekdays: [0, 1, 2, 3, 4, 5, 6] })).toBeNull();
  });
});

describe("delivery window", () => {
  it("adds the courier's days to the dispatch day", () => {
    expect(deliveryWindow(ist("2026-11-23T09:00:00"), calendar, [2, 3])).toEqual({ dispatchOn: "2026-11-24", earliest: "2026-11-26", latest: "2026-11-27" });
  });

  it("formats the date as the shopper reads it", () => {
    expect(formatDeliveryDate("2026-11-27", "en-IN")).toBe("Fri, 27 Nov");
    expect(formatDeliveryDate("2026-11-27", "hi-IN")).toMatch(/27/);
    expect(formatDeliveryDate("2026-11-27", "hi-IN")).toMatch(/[\u0900-\u097F]/);
  });
});
