import { readFileSync } from "node:fs";
import { getConfig } from "~/config.server";
import prisma, { databasePool } from "~/db.server";
import { TRACKING_LINK_TOKEN_PARAM } from "~/shipping/tracking-url";
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
// The caller's address of each request in flight, as the app's HTTP server saw the socket.
const callerAddresses = new WeakMap<Request, string>();

/** Serves one /v1 request of a caller at `clientAddress` with the app's own Shipment Order Service. */
export function serveEmbeddedService(request: Request, clientAddress: string | undefined): Promise<Response> {
  if (clientAddress) callerAddresses.set(request, clientAddress);
  return embeddedServiceHandler()(request);
}

/** The app's own Shipment Order Service, on its database and real time. */
function embeddedServiceHandler(): (request: Request) => Promise<Response> {
  if (handler) return handler;
  const config = getConfig();
  const service = createShipmentService({
    db: prisma,
    pool: databasePool(),
    now: () => new Date(),
    rateCards: loadRateCards(config.SANDBOX_RATE_CARDS_FILE),
    // A shopper following the link from Shopify's email sees the sandbox shipment's real progress; the token keeps
    // its details to those given the link (a guessed awb shows only its stage).
    trackingUrlTemplate: `${config.SHOPIFY_APP_URL}/track/{awb}?${TRACKING_LINK_TOKEN_PARAM}={token}`,
  });
  handler = createServiceHandler({
    db: prisma,
    service,
    sandbox: { apiKey: config.SANDBOX_API_KEY, secretKey: config.SANDBOX_SECRET_KEY },
    // The socket's address, from the app's HTTP server (server/http.ts); behind a proxy that is the proxy's.
    clientAddressOf: (request) => callerAddresses.get(request),
    publicUrl: config.SHOPIFY_APP_URL,
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
