import { courierService } from "./courier-service";
import { jobStart } from "./job-start";
import type { Measurement } from "./measurement";
import { microBenchmarks } from "./micro";
import { pages } from "./pages";
import { webhookIngest } from "./webhook-ingest";

/**
 * Every measurement, in the order they run. The job-start measurement runs its own worker and so comes before
 * the app server (whose workers would take its jobs) is started by the first measurement that needs it; pages
 * start their own demo server and come last, when the app server is stopped.
 */
export const MEASUREMENTS: Measurement[] = [microBenchmarks, jobStart, webhookIngest, courierService, pages];

/**
 * Measurements to come: listed in the report as not measured yet. Each becomes a module beside these
 * (bench/README.md, "Adding a measurement").
 */
export const PLANNED: { id: string; title: string; what: string }[] = [
  {
    id: "booking-budget",
    title: "Booking 1,000 orders end to end at Shopify's Standard plan budget",
    what: "1,000 orders booked through the app against the local store throttled like a Standard plan (2,000 points, 100 points/s restored), as a fraction of the bookings a minute that budget allows (the query and mutation costs of one booking, from the simulator's cost accounting, give the limit).",
  },
  {
    id: "tracking-sync",
    title: "One tracking sync cycle over 10,000 active shipments",
    what: "the time and database load of one sync cycle over 10,000 active shipments against the courier service, beside the service's own track-order throughput as its floor.",
  },
];
