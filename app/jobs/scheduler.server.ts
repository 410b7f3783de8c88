import { unauthenticated } from "~/shopify.server";
import { completePendingShipments } from "./complete-shipments.server";

const INTERVAL_MS = 30_000;
let started = false;

/** Runs the retry job in the server process every 30 s. Overlapping runs are skipped. */
export function startJobScheduler(): void {
  if (started || process.env.NODE_ENV === "test") return;
  started = true;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    completePendingShipments({ adminFor: async (shop) => (await unauthenticated.admin(shop)).admin })
      .catch((error) => console.error("Completing pending shipments failed:", error instanceof Error ? error.message : error))
      .finally(() => {
        running = false;
      });
  }, INTERVAL_MS);
  timer.unref();
}
