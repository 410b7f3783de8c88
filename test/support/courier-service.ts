import prisma, { databasePool } from "~/db.server";
import { createCourierClient, type CourierClientOptions } from "~/shipping/client.server";
import { createServiceHandler } from "~/courier-service/http.server";
import { DEFAULT_RATE_CARDS } from "~/courier-service/rate-cards";
import { ensureSandbox } from "~/courier-service/sandbox-seed.server";
import { createShipmentService } from "~/courier-service/shipment-service.server";
import { serveFetch } from "../../store/serve-fetch";
import { createAnswerJudge } from "./openapi-answers";

export const SANDBOX_KEY = process.env.SANDBOX_API_KEY!;
export const SANDBOX_SECRET = process.env.SANDBOX_SECRET_KEY!;

/**
 * The embedded Shipment Order Service on the worker's database, behind a real HTTP port, with a clock the test
 * can move. Counts the requests it receives so tests can prove none were sent, and can answer 503 to the next
 * calls of one operation, as an overloaded aggregator would. Every answer the service gives is judged by its own
 * OpenAPI document; what the document would not allow is kept in `answersOutsideTheDocument`.
 */
export async function startCourierService({ port = 0, trackingUrlTemplate }: { port?: number; trackingUrlTemplate?: string } = {}) {
  let clock = () => new Date();
  let requests = 0;
  const outages = new Map<string, number>();
  const service = createShipmentService({ db: prisma, pool: databasePool(), now: () => clock(), rateCards: DEFAULT_RATE_CARDS, ...(trackingUrlTemplate ? { trackingUrlTemplate } : {}) });
  await ensureSandbox(prisma, SANDBOX_KEY, SANDBOX_SECRET);
  const handle = createServiceHandler({ db: prisma, service, ready: async () => undefined, sandbox: { apiKey: SANDBOX_KEY, secretKey: SANDBOX_SECRET } });
  const judge = createAnswerJudge();
  const answersOutsideTheDocument: string[] = [];
  const server = await serveFetch(async (request) => {
    requests += 1;
    const operation = new URL(request.url).pathname.replace(/^\/v1\//, "");
    const left = outages.get(operation) ?? 0;
    if (left > 0) {
      outages.set(operation, left - 1);
      return new Response(JSON.stringify({ success: false, message: "Service temporarily unavailable", errors: [] }), { status: 503 });
    }
    const response = await handle(request);
    const wrong = await judge.judge(request, response);
    if (wrong) answersOutsideTheDocument.push(wrong);
    return response;
  }, port);
  return {
    ...server,
    service,
    get requests() {
      return requests;
    },
    /** Every answer so far that the OpenAPI document does not allow. */
    answersOutsideTheDocument,
    /** The next `times` calls of `operation` (e.g. "create-order") answer 503. */
    failNext(operation: string, times: number) {
      outages.set(operation, times);
    },
    setNow(instant: Date) {
      clock = () => instant;
    },
    client(overrides: Partial<CourierClientOptions> = {}) {
      return createCourierClient({
        apiKey: SANDBOX_KEY,
        secretKey: SANDBOX_SECRET,
        environment: "test",
        sandboxUrl: server.url,
        backoffMs: 5,
        now: () => clock(),
        ...overrides,
      });
    },
  };
}

export type RunningCourierService = Awaited<ReturnType<typeof startCourierService>>;

/**
 * The courier service where the app's configuration sends sandbox shops (COURIER_SANDBOX_URL). `appTrackingLinks`:
 * its tracking links are the app's own page with a token, as the embedded sandbox hands them out, rather than the
 * rate cards' courier pages.
 */
export function startAppCourierService({ appTrackingLinks = false }: { appTrackingLinks?: boolean } = {}) {
  return startCourierService({ port: Number(new URL(process.env.COURIER_SANDBOX_URL!).port), ...(appTrackingLinks ? { trackingUrlTemplate: `${process.env.SHOPIFY_APP_URL}/track/{awb}?token={token}` } : {}) });
}
