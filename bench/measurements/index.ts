import { bookingBudget } from "./booking-budget";
import { courierService } from "./courier-service";
import { documentsRender } from "./documents";
import { jobStart } from "./job-start";
import type { Measurement } from "./measurement";
import { remittanceImport } from "./remittance-import";
import { returnsMeasurement } from "./returns";
import { microBenchmarks } from "./micro";
import { orderIntake } from "./order-intake";
import { pages } from "./pages";
import { storefrontEstimate } from "./storefront";
import { storefrontLighthouse } from "./storefront-lighthouse";
import { postgresRestart } from "./postgres-restart";
import { trackingSync } from "./tracking-sync";
import { webhookIngest } from "./webhook-ingest";

/**
 * Every measurement, in the order they run. The job-start measurement runs its own worker and so comes before
 * the shared worker (started by the webhook measurement) could take its jobs. The tracking, new-order and booking
 * measurements start an app, a worker and the store simulator of their own on scratch databases
 * (bench/lib/store-world.ts) and stop them again, so they run before the webhook runs leave a backlog; pages and the
 * storefront's Lighthouse runs start a demo server of their own; the PostgreSQL restart comes last, since it drops
 * every connection of the run.
 */
export const MEASUREMENTS: Measurement[] = [microBenchmarks, documentsRender, jobStart, trackingSync, orderIntake, bookingBudget, returnsMeasurement, remittanceImport, webhookIngest, courierService, storefrontEstimate, pages, storefrontLighthouse, postgresRestart];

/**
 * Measurements to come: listed in the report as not measured yet. Each becomes a module beside these
 * (bench/README.md, "Adding a measurement").
 */
export const PLANNED: { id: string; title: string; what: string }[] = [];
