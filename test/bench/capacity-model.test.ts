import { describe, expect, it } from "vitest";
import { fleetNeeds, pollsPerParcelPerDay, predictCycle, TEN_MILLION, withinPrediction, type MachineLimits, type ParcelCosts } from "../../bench/lib/capacity-model";

/** The fleet of the question, with a live aggregator's 10 calls a second and 4 at once an account, 8 passes a worker. */
const TEN_MILLION_LIVE = { ...TEN_MILLION, courierCallsPerSecondPerAccount: 10, courierCallsAtOncePerAccount: 4, callsInFlightPerWorker: 32 };

const costs: ParcelCosts = {
  workerMsPerPoll: 1.5,
  postgresMsPerPoll: 0.5,
  courierMsPerPoll: 5,
  rowWritesPerPoll: 2,
  walBytesPerPoll: 400,
  workerMsPerChange: 20,
  rowWritesPerChange: 6,
  walBytesPerChange: 4_000,
  pointsPerChange: 14,
  shipmentBytes: 2_000,
  trackingEntryBytes: 300,
};

describe("the capacity model", () => {
  it("reads a parcel as often as its stage's interval says, and a parcel in a final stage not at all", () => {
    // Out for delivery is read every base interval: 86,400 / 600 = 144 times a day.
    expect(pollsPerParcelPerDay({ 7: 1 }, 600)).toBeCloseTo(144);
    // Manifested every five: 28.8; delivered never, so half the fleet delivered halves the reads.
    expect(pollsPerParcelPerDay({ 2: 1 }, 600)).toBeCloseTo(28.8);
    expect(pollsPerParcelPerDay({ 2: 0.5, 8: 0.5 }, 600)).toBeCloseTo(14.4);
  });

  it("derives each figure from the costs a parcel and the fleet's shape", () => {
    const fleet = { ...TEN_MILLION_LIVE, stageMix: { 7: 1 }, liveParcels: 864_000, shops: 100, entriesPerParcel: 6, lifeDays: 5, largestShopShare: 0.1, courierCallMs: 300 };
    const needs = fleetNeeds(costs, fleet);
    // 864,000 parcels × 144 reads a day ÷ 86,400 s = 1,440 polls a second.
    expect(needs.pollsPerSecond).toBeCloseTo(1_440);
    // Five entries after the first over five days: 864,000 × 5 ÷ 432,000 s = 10 changes a second; 2 bookings.
    expect(needs.changesPerSecond).toBeCloseTo(10);
    expect(needs.bookingsPerSecond).toBeCloseTo(2);
    // 1,440 × 1.5 ms + 10 × 20 ms = 2.36 cores of workers, three processes of one core; but 1,440 calls a second
    // at 300 ms are 432 in flight, 32 a process: 14 processes.
    expect(needs.workerCores).toBeCloseTo(2.36);
    expect(needs.callsInFlight).toBeCloseTo(432);
    expect(needs.workerProcessesForCalls).toBe(14);
    expect(needs.workerProcesses).toBe(14);
    expect(fleetNeeds(costs, { ...fleet, courierCallMs: 10 }).workerProcesses).toBe(3);
    expect(needs.postgresCores).toBeCloseTo(0.72);
    expect(needs.rowWritesPerSecond).toBeCloseTo(1_440 * 2 + 10 * 6);
    expect(needs.walMegabytesPerSecond).toBeCloseTo((1_440 * 400 + 10 * 4_000) / 1e6);
    // Three entries stored on average: 864,000 × (2,000 + 3 × 300) B.
    expect(needs.storedGigabytes).toBeCloseTo((864_000 * 2_900) / 1e9);
    // The largest shop: a tenth of the calls, and of the points (10 × 14 + 2 × 75 = 290 a second over the fleet).
    expect(needs.largestShopCallsPerSecond).toBeCloseTo(144);
    expect(needs.largestShopPointsPerSecond).toBeCloseTo(29);
    expect(needs.averageShopPointsPerSecond).toBeCloseTo(2.9);
    // An account at 10 calls a second keeps 10 × 86,400 ÷ 144 = 6,000 parcels out for delivery current; 4 at once at
    // 800 ms a call allow only 5 a second, 3,000 parcels.
    expect(needs.parcelsPerAccount).toBeCloseTo(6_000);
    expect(fleetNeeds(costs, { ...fleet, courierCallMs: 800 }).parcelsPerAccount).toBeCloseTo(3_000);
  });

  it("names first the part closest to its limit, and grows with the fleet", () => {
    const small = fleetNeeds(costs, TEN_MILLION_LIVE);
    const double = fleetNeeds(costs, { ...TEN_MILLION_LIVE, liveParcels: 2 * TEN_MILLION.liveParcels });
    expect(double.pollsPerSecond).toBeCloseTo(2 * small.pollsPerSecond);
    expect(double.saturation[0]!.used).toBeCloseTo(2 * small.saturation[0]!.used);
    const used = small.saturation.map((part) => part.used);
    expect(used).toEqual([...used].sort((a, b) => b - a));
    // A generous account is not what runs out first; one allowed a call a second is.
    const generous = fleetNeeds(costs, { ...TEN_MILLION_LIVE, courierCallsPerSecondPerAccount: 10_000, courierCallsAtOncePerAccount: 10_000 });
    expect(generous.saturation[0]!.part).not.toBe("largest shop's courier account");
    const tight = fleetNeeds(costs, { ...TEN_MILLION_LIVE, courierCallsPerSecondPerAccount: 1 });
    expect(tight.saturation[0]!.part).toBe("largest shop's courier account");
  });
});

describe("a cycle's prediction on one machine", () => {
  const limits: MachineLimits = {
    cpuMs: { worker: 1, courier: 5, postgres: 2, bench: 0 },
    coresAvailable: 2,
    workerJobs: 8,
    callsAtOnce: 8,
    callsPerSecondPerAccount: 400,
    callMs: 40,
  };

  it("is the longest of its bounds", () => {
    const prediction = predictCycle(10_000, 10, limits);
    // The courier's process, one core at 5 ms a parcel: 50 s; all the CPU over two cores: 40 s; in flight: 64 at 40 ms, 6.25 s.
    expect(prediction.seconds).toBeCloseTo(50);
    expect(prediction.bounds[0]!.bound).toContain("courier");
    expect(prediction.bounds.map((bound) => bound.seconds)).toEqual(expect.arrayContaining([50, 40, 10, 2.5, 6.25]));
  });

  it("is bound by the CPU when fewer cores are left, and by one account's rate with one big shop", () => {
    expect(predictCycle(10_000, 10, { ...limits, coresAvailable: 1 }).seconds).toBeCloseTo(80);
    const oneShop = predictCycle(100_000, 1, { ...limits, callsPerSecondPerAccount: 100 });
    expect(oneShop.seconds).toBeCloseTo(1_000);
    expect(oneShop.bounds[0]!.bound).toContain("rate");
  });

  it("passes a measured time within a quarter of the prediction, and not beyond", () => {
    expect(withinPrediction(124, 100)).toBe(true);
    expect(withinPrediction(76, 100)).toBe(true);
    expect(withinPrediction(126, 100)).toBe(false);
    expect(withinPrediction(74, 100)).toBe(false);
  });
});
