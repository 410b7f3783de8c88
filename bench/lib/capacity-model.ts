import { STAGES } from "../../app/tracking/courier-progress";
import type { ServiceStatusCode } from "../../app/shipping/status";

/**
 * The capacity model of tracking (docs/CAPACITY.md): from what one parcel costs, measured by the tracking-sync
 * measurement, what a fleet of live parcels needs — polls a second, worker cores, PostgreSQL's CPU, writes and size,
 * courier calls against an account's limit, Shopify points against a shop's restore rate — and which part runs out
 * first. Pure arithmetic: the measurement supplies the costs, the fleet below supplies the shape of the business.
 */

const DAY_SECONDS = 86_400;

/** What one parcel costs, as measured in one run of the tracking-sync measurement. */
export interface ParcelCosts {
  /** Worker CPU of a poll that finds nothing new (ms): the common case, most polls. */
  workerMsPerPoll: number;
  /** PostgreSQL CPU of such a poll, Dakiya's own share (ms): the courier sandbox's share of the same database excluded. */
  postgresMsPerPoll: number;
  /** The courier service's CPU for one `track-order` (ms): the sandbox's here, the aggregator's in production. */
  courierMsPerPoll: number;
  /** Rows written (inserted, updated, deleted: the job queue's included) a poll that finds nothing new. */
  rowWritesPerPoll: number;
  /** Write-ahead log a poll that finds nothing new (bytes). */
  walBytesPerPoll: number;
  /** Beyond a poll's own: worker CPU (ms), rows written and WAL (bytes) for a parcel whose poll brought a new entry. */
  workerMsPerChange: number;
  rowWritesPerChange: number;
  walBytesPerChange: number;
  /** Shopify points a changed parcel costs (its fulfillment's events read, the new one posted). */
  pointsPerChange: number;
  /** A shipment's row with its share of the table's indexes (bytes), and a stored tracking entry's. */
  shipmentBytes: number;
  trackingEntryBytes: number;
}

/** The fleet the model is asked about, and the limits it is held against. */
export interface Fleet {
  liveParcels: number;
  shops: number;
  /** The share of live parcels in each courier stage at any moment (sums to 1). */
  stageMix: Partial<Record<ServiceStatusCode, number>>;
  /** TRACKING_SYNC_SECONDS: a stage's interval is its `pollEvery` times this. */
  baseSeconds: number;
  /** Days a parcel is live (booked to delivered), and the tracking entries it gathers in that time. */
  lifeDays: number;
  entriesPerParcel: number;
  /** Shopify points one booking costs (the booking-budget measurement). */
  pointsPerBooking: number;
  /** The largest shop's share of the fleet's parcels: the one that meets a per-shop limit first. */
  largestShopShare: number;
  /** A courier account's limits (one account a shop): calls begun a second and in flight at once. */
  courierCallsPerSecondPerAccount: number;
  courierCallsAtOncePerAccount: number;
  /** How long a live aggregator takes to answer one `track-order` (ms), over the internet: an assumption. */
  courierCallMs: number;
  /** Calls a worker process keeps in flight: its tracking passes at once, each at its account's width. */
  callsInFlightPerWorker: number;
  /** Shopify's restore rate, points a second, on the Standard plan and on Plus. */
  restorePerSecond: { standard: number; plus: number };
  /** One PostgreSQL primary's cores: the part that does not grow by adding machines. */
  postgresCores: number;
  /** Cores a worker process can use (Node runs a process's JavaScript on one). */
  workerCoresPerProcess: number;
}

/**
 * The fleet of the open question: 10 million live parcels across 10,000 shops. The stage mix and the life of a parcel
 * are assumptions about Indian D2C parcels (about five days from booking to the door, most of it between pickup and
 * the destination hub), not measurements; the rest are the product's own settings and Shopify's published limits.
 * The courier account's limit is the product's own (LIVE_CALL_LIMITS), given by the caller.
 */
export const TEN_MILLION: Omit<Fleet, "courierCallsPerSecondPerAccount" | "courierCallsAtOncePerAccount" | "callsInFlightPerWorker"> = {
  liveParcels: 10_000_000,
  shops: 10_000,
  stageMix: { 2: 0.2, 3: 0.1, 5: 0.4, 6: 0.15, 7: 0.1, 9: 0.03, 11: 0.02 },
  baseSeconds: 600,
  lifeDays: 5,
  entriesPerParcel: 7,
  pointsPerBooking: 75,
  courierCallMs: 300,
  largestShopShare: 0.01,
  restorePerSecond: { standard: 100, plus: 1_000 },
  postgresCores: 16,
  workerCoresPerProcess: 1,
};

/** How often a parcel is read a day: each stage's share times the reads a day its interval gives. */
export function pollsPerParcelPerDay(stageMix: Fleet["stageMix"], baseSeconds: number): number {
  let polls = 0;
  for (const [code, share] of Object.entries(stageMix) as [string, number][]) {
    const every = STAGES[Number(code) as ServiceStatusCode].pollEvery;
    if (every > 0) polls += share * (DAY_SECONDS / (every * baseSeconds));
  }
  return polls;
}

export interface FleetNeeds {
  pollsPerParcelPerDay: number;
  pollsPerSecond: number;
  changesPerSecond: number;
  bookingsPerSecond: number;
  workerCores: number;
  /** Courier calls in flight across the fleet, and the worker processes that takes at their width. */
  callsInFlight: number;
  workerProcessesForCalls: number;
  /** Worker processes: enough for the CPU and for the calls in flight, whichever needs more. */
  workerProcesses: number;
  postgresCores: number;
  rowWritesPerSecond: number;
  walMegabytesPerSecond: number;
  /** The live parcels' rows and their tracking entries, indexes included (GB). */
  storedGigabytes: number;
  courierCallsPerSecond: number;
  courierCpuCores: number;
  /** The largest shop's calls a second against its account's limit. */
  largestShopCallsPerSecond: number;
  /** What one account can be called a second: its rate, or its calls at once over a call's time, whichever is lower. */
  accountCallsPerSecond: number;
  /** The live parcels one account can keep read at their stages' intervals. */
  parcelsPerAccount: number;
  /** Points a second: the average shop, and the largest. */
  averageShopPointsPerSecond: number;
  largestShopPointsPerSecond: number;
  /** Each bounded part's use of its limit (1 = saturated), highest first: the first to run out leads. */
  saturation: { part: string; used: number; limit: string }[];
}

/** What the fleet needs, every figure a product of the measured costs and the fleet's shape. */
export function fleetNeeds(costs: ParcelCosts, fleet: Fleet): FleetNeeds {
  const pollsPerDay = pollsPerParcelPerDay(fleet.stageMix, fleet.baseSeconds);
  const pollsPerSecond = (fleet.liveParcels * pollsPerDay) / DAY_SECONDS;
  // Every entry after the booking's first is news a poll finds.
  const changesPerSecond = (fleet.liveParcels * Math.max(0, fleet.entriesPerParcel - 1)) / (fleet.lifeDays * DAY_SECONDS);
  const bookingsPerSecond = fleet.liveParcels / (fleet.lifeDays * DAY_SECONDS);
  const workerCores = (pollsPerSecond * costs.workerMsPerPoll + changesPerSecond * costs.workerMsPerChange) / 1000;
  const postgresCores = (pollsPerSecond * costs.postgresMsPerPoll) / 1000;
  const rowWritesPerSecond = pollsPerSecond * costs.rowWritesPerPoll + changesPerSecond * costs.rowWritesPerChange;
  const walMegabytesPerSecond = (pollsPerSecond * costs.walBytesPerPoll + changesPerSecond * costs.walBytesPerChange) / 1e6;
  // A live parcel has, on average, half its life's entries stored so far.
  const storedGigabytes = (fleet.liveParcels * (costs.shipmentBytes + (fleet.entriesPerParcel / 2) * costs.trackingEntryBytes)) / 1e9;
  const pointsOf = (share: number) => share * (changesPerSecond * costs.pointsPerChange + bookingsPerSecond * fleet.pointsPerBooking);
  const largestShopCallsPerSecond = pollsPerSecond * fleet.largestShopShare;
  const accountCallsPerSecond = Math.min(fleet.courierCallsPerSecondPerAccount, (fleet.courierCallsAtOncePerAccount * 1000) / fleet.courierCallMs);
  const callsInFlight = (pollsPerSecond * fleet.courierCallMs) / 1000;
  const workerProcessesForCalls = Math.ceil(callsInFlight / fleet.callsInFlightPerWorker);
  const largestShopPointsPerSecond = pointsOf(fleet.largestShopShare);
  const saturation = [
    { part: `PostgreSQL primary (${fleet.postgresCores} cores)`, used: postgresCores / fleet.postgresCores, limit: `${fleet.postgresCores} cores` },
    { part: "largest shop's courier account", used: largestShopCallsPerSecond / accountCallsPerSecond, limit: `${Math.round(accountCallsPerSecond * 10) / 10} calls/s` },
    { part: "largest shop's Shopify points (Standard plan)", used: largestShopPointsPerSecond / fleet.restorePerSecond.standard, limit: `${fleet.restorePerSecond.standard} points/s restored` },
  ].sort((a, b) => b.used - a.used);
  return {
    pollsPerParcelPerDay: pollsPerDay,
    pollsPerSecond,
    changesPerSecond,
    bookingsPerSecond,
    workerCores,
    callsInFlight,
    workerProcessesForCalls,
    workerProcesses: Math.max(Math.ceil(workerCores / fleet.workerCoresPerProcess), workerProcessesForCalls),
    postgresCores,
    rowWritesPerSecond,
    walMegabytesPerSecond,
    storedGigabytes,
    courierCallsPerSecond: pollsPerSecond,
    courierCpuCores: (pollsPerSecond * costs.courierMsPerPoll) / 1000,
    largestShopCallsPerSecond,
    accountCallsPerSecond,
    parcelsPerAccount: (accountCallsPerSecond * DAY_SECONDS) / pollsPerDay,
    averageShopPointsPerSecond: pointsOf(1 / fleet.shops),
    largestShopPointsPerSecond,
    saturation,
  };
}

/** What a cycle on this machine is bound by, as measured in the same run. */
export interface MachineLimits {
  /**
   * CPU a polled parcel cost each process that took part (ms): the worker, the app serving the courier sandbox,
   * PostgreSQL, and the bench's own process (the store simulator, the cycle's watch). Node processes run their
   * JavaScript on one core each; PostgreSQL runs a process per connection.
   */
  cpuMs: { worker: number; courier: number; postgres: number; bench: number };
  /** Cores left to this run while the reference cycle ran (the machine's, less what other work took meanwhile). */
  coresAvailable: number;
  /** Tracking passes the worker runs at once, and the calls a pass keeps in flight at its account's limit. */
  workerJobs: number;
  callsAtOnce: number;
  callsPerSecondPerAccount: number;
  /** A bare `track-order`'s time at `callsAtOnce` in flight (ms, the floor's median). */
  callMs: number;
}

export interface CyclePrediction {
  seconds: number;
  /** Each bound's time for the cycle (s), the longest first: the first is the prediction. */
  bounds: { bound: string; seconds: number }[];
}

/**
 * How long one cycle over `parcels` parcels spread evenly over `shops` shops (one courier account each) should take
 * here: the longest of the time each bound allows. The CPU the cycle needs spread over the cores left to it; each
 * single-threaded process's share on its one core; each account's rate; the calls in flight, at most
 * `callsAtOnce` a pass and `workerJobs` passes at once.
 */
export function predictCycle(parcels: number, shops: number, limits: MachineLimits): CyclePrediction {
  const { worker, courier, postgres, bench } = limits.cpuMs;
  const all = worker + courier + postgres + bench;
  const inFlight = Math.min(shops, limits.workerJobs) * limits.callsAtOnce;
  const bounds = [
    { bound: `CPU: ${all.toFixed(2)} ms a parcel over ${limits.coresAvailable.toFixed(2)} cores`, seconds: (parcels * all) / 1000 / limits.coresAvailable },
    { bound: `the app serving the courier, one core: ${courier.toFixed(2)} ms a parcel`, seconds: (parcels * courier) / 1000 },
    { bound: `the worker, one core: ${worker.toFixed(2)} ms a parcel`, seconds: (parcels * worker) / 1000 },
    { bound: `each account's rate: ${limits.callsPerSecondPerAccount}/s`, seconds: parcels / shops / limits.callsPerSecondPerAccount },
    { bound: `calls in flight: ${inFlight} at ${limits.callMs.toFixed(1)} ms each`, seconds: (parcels * limits.callMs) / 1000 / inFlight },
  ].sort((a, b) => b.seconds - a.seconds);
  return { seconds: bounds[0]!.seconds, bounds };
}

/** Whether a measured time is within `tolerance` (a fraction) of the prediction. */
export const withinPrediction = (measuredSeconds: number, predictedSeconds: number, tolerance = 0.25) => Math.abs(measuredSeconds - predictedSeconds) <= tolerance * predictedSeconds;
