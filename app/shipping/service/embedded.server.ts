import { readFileSync } from "node:fs";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { createServiceHandler } from "./http.server";
import { DEFAULT_RATE_CARDS, RateCardsSchema, type CourierRateCard } from "./rate-cards";
import { ensureSandbox } from "./sandbox-seed.server";
import { createShipmentService } from "./shipment-service.server";

/** The sandbox's couriers: the defaults, or the JSON file SANDBOX_RATE_CARDS_FILE names (docs/courier-service.md). */
export function loadRateCards(file: string | undefined): CourierRateCard[] {
  if (!file) return DEFAULT_RATE_CARDS;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`SANDBOX_RATE_CARDS_FILE ${file} cannot be read as JSON: ${error instanceof Error ? error.message : error}`);
  }
  const parsed = RateCardsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`SANDBOX_RATE_CARDS_FILE ${file} is not a valid rate card list at ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  return parsed.data;
}

let handler: ((request: Request) => Promise<Response>) | undefined;
let sandboxReady: Promise<number> | undefined;

/** The app's own Shipment Order Service, on its database and real time. */
export function embeddedServiceHandler(): (request: Request) => Promise<Response> {
  if (handler) return handler;
  const config = getConfig();
  const service = createShipmentService({ db: prisma, now: () => new Date(), rateCards: loadRateCards(config.SANDBOX_RATE_CARDS_FILE) });
  handler = createServiceHandler({
    db: prisma,
    service,
    // Under remix-serve the handler never learns the socket's address, so every caller is "unknown" to the
    // brake on failed authentication; the per-key limit does the work (docs/courier-service.md).
    ready: () => {
      sandboxReady ??= ensureSandbox(prisma, config.SANDBOX_API_KEY, config.SANDBOX_SECRET_KEY).catch((error) => {
        sandboxReady = undefined;
        throw error;
      });
      return sandboxReady;
    },
  });
  return handler;
}
