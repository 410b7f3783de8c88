import * as z from "zod";
import {
  AdvanceRequestSchema,
  ReattemptRequestSchema,
  AwbPathSchema,
  CancelOrderRequestSchema,
  CancelOrderResultSchema,
  createOrderRequestSchema,
  ORDER_DATE_TOO_OLD,
  CreateOrderResultSchema,
  EraseAccountResultSchema,
  operationPath,
  RedactOrdersRequestSchema,
  RedactOrdersResultSchema,
  SandboxStatementRequestSchema,
  SandboxStatementResultSchema,
  SERVICE_OPERATIONS,
  type SandboxStatementResult,
  type EraseAccountResult,
  type RedactOrdersResult,
  type ServiceOperation,
  ErrorResultSchema,
  OrderDetailsSchema,
  RateRequestSchema,
  RateResultSchema,
  toFieldErrors,
  TrackingResultSchema,
  WarehouseSchema,
  type CancelOrderResult,
  type CreateOrderInput,
  type CreateOrderResult,
  type FieldError,
  type OrderDetails,
  type RateRequestInput,
  type RateResult,
  type TrackingResult,
  type Warehouse,
} from "./contract";
import type { ReattemptResult, UndeliveredReason } from "./status";

export type CourierEnvironment = "test" | "live";

export interface CourierClientOptions {
  apiKey: string;
  secretKey: string;
  /** `test` selects the sandbox address (spec: Authentication). */
  environment: CourierEnvironment;
  sandboxUrl: string;
  productionUrl?: string;
  timeoutMs?: number;
  /** Attempts per call, including the first. */
  attempts?: number;
  /** First back-off delay; doubled each retry, with full jitter. */
  backoffMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

/**
 * What went wrong, sorted by what the caller can do about it:
 * `invalid` (fix the fields), `conflict` (order_id used), `not_found`, `unauthorized` (fix the keys),
 * `unavailable` (the service could not be reached; retry later), `bad_response` (the service broke the spec).
 */
export type CourierErrorKind = "invalid" | "conflict" | "not_found" | "unauthorized" | "too_large" | "unavailable" | "bad_response";

export class CourierError extends Error {
  override name = "CourierError";
  constructor(
    readonly kind: CourierErrorKind,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly status?: number,
    /** The answer was not JSON at all (a proxy's or a maintenance page's HTML): the service itself did not answer. */
    readonly notJson = false,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === "unavailable";
  }
}

const KIND_BY_STATUS: Record<number, CourierErrorKind> = {
  400: "invalid",
  401: "unauthorized",
  403: "unauthorized",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  422: "invalid",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const isRetryableStatus = (status: number) => status === 429 || status >= 500;

/**
 * The Shipment Order Service client. It knows nothing of Shopify: it speaks the spec's fields,
 * validates before sending, and checks every answer against the spec.
 */
const systemClock = () => new Date();
// Built once: zod compiles an object schema on its first parse, which costs more than the rest of a booking's checks.
let systemClockOrderSchema: ReturnType<typeof createOrderRequestSchema> | undefined;

export function createCourierClient(options: CourierClientOptions) {
  const baseUrl = (options.environment === "test" ? options.sandboxUrl : options.productionUrl)?.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 8_000;
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 250;
  const now = options.now ?? systemClock;
  let orderSchema = options.now ? undefined : systemClockOrderSchema;

  function invalidRequest(error: z.ZodError): CourierError {
    const errors = toFieldErrors(error);
    return new CourierError("invalid", `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}: ${errors.map((e) => e.message).join("; ")}`, errors);
  }

  function validate<T>(schema: z.ZodType<T>, input: unknown): T {
    const parsed = schema.safeParse(input, { reportInput: true });
    if (!parsed.success) throw invalidRequest(parsed.error);
    return parsed.data;
  }

  async function call<T>(operation: ServiceOperation, schema: z.ZodType<T>, { body, parameter }: { body?: unknown; parameter?: string | number } = {}): Promise<T> {
    const { method } = SERVICE_OPERATIONS[operation];
    const path = operationPath(operation, parameter);
    if (!baseUrl) {
      throw new CourierError("unavailable", "No production address is configured for live courier accounts (COURIER_PRODUCTION_URL)");
    }
    let lastFailure: CourierError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) await sleep(Math.random() * backoffMs * 2 ** (attempt - 2));
      let response: Response;
      try {
        response = await doFetch(`${baseUrl}${path}`, {
          method,
          headers: {
            Accept: "application/json",
            "X-Api-Key": options.apiKey,
            "X-Secret-Key": options.secretKey,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : "the service could not be reached";
        lastFailure = new CourierError("unavailable", `${operation}: ${reason}`);
        continue;
      }
      let notJson = false;
      const payload: unknown = await response.json().catch(() => {
        notJson = true;
        return undefined;
      });
      if (response.ok) {
        if (notJson) throw new CourierError("bad_response", `${operation}: the service answered HTTP ${response.status} with something other than JSON`, [], response.status, true);
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new CourierError(
            "bad_response",
            `${operation}: the service's answer does not match the spec at ${issue.path.join(".") || "(body)"}: ${issue.message}`,
            [],
            response.status,
          );
        }
        return parsed.data;
      }
      const failure = ErrorResultSchema.safeParse(payload);
      const message = failure.success ? failure.data.message : `HTTP ${response.status}`;
      const fieldErrors = failure.success ? failure.data.errors : [];
      if (isRetryableStatus(response.status)) {
        lastFailure = new CourierError("unavailable", `${operation}: ${message}`, fieldErrors, response.status);
        continue;
      }
      throw new CourierError(KIND_BY_STATUS[response.status] ?? "bad_response", `${operation}: ${message}`, fieldErrors, response.status, notJson);
    }
    throw lastFailure!;
  }

  return {
    baseUrl,
    environment: options.environment,

    /**
     * Safe to retry: the service replays the original result for the same order_id and payload. A body stored for a
     * booking (`stored`) may be sent again days later (a lost answer retried, the watchdog, a cancellation finding out
     * whether it was booked): the service replays an order it took whatever the day, and refuses a new one too old
     * itself, so the age of its order_date is left to the service; everything else is checked as for a first send.
     */
    async createOrder(order: CreateOrderInput, { stored = false }: { stored?: boolean } = {}): Promise<CreateOrderResult> {
      orderSchema ??= createOrderRequestSchema(now);
      if (now === systemClock) systemClockOrderSchema ??= orderSchema;
      const parsed = orderSchema.safeParse(order, { reportInput: true });
      if (!parsed.success && !(stored && parsed.error.issues.every((issue) => issue.path[0] === "order_date" && issue.message === ORDER_DATE_TOO_OLD))) throw invalidRequest(parsed.error);
      return call("create-order", CreateOrderResultSchema, { body: order });
    },

    async calculateRate(request: RateRequestInput): Promise<RateResult> {
      validate(RateRequestSchema, request);
      return call("calculate-rate", RateResultSchema, { body: request });
    },

    async getWarehouse(id: number): Promise<Warehouse> {
      return call("get-warehouse", WarehouseSchema, { parameter: id });
    },

    async trackOrder(awb: string): Promise<TrackingResult> {
      validate(AwbPathSchema, { awb });
      return call("track-order", TrackingResultSchema, { parameter: awb });
    },

    async getOrder(awb: string): Promise<OrderDetails> {
      validate(AwbPathSchema, { awb });
      return call("get-order", OrderDetailsSchema, { parameter: awb });
    },

    /** Extension (cancel-order); cancelling twice answers as the first time. */
    async cancelOrder(awb: string): Promise<CancelOrderResult> {
      validate(CancelOrderRequestSchema, { awb });
      return call("cancel-order", CancelOrderResultSchema, { body: { awb } });
    },

    /**
     * Sandbox only: move a shipment on without waiting for its clock, to `to` or one stage; a failed attempt on the way
     * with `reason`. A retry after a lost answer moves it no further: one stage is asked from the stage read first.
     */
    async advanceSandboxShipment(awb: string, to?: number, reason?: UndeliveredReason): Promise<TrackingResult> {
      validate(AdvanceRequestSchema, { awb, to, reason });
      const from = to === undefined ? (await call("track-order", TrackingResultSchema, { parameter: awb })).tracking_history.at(-1)?.service_status : undefined;
      return call("sandbox/advance", TrackingResultSchema, { body: { awb, to, from, reason } });
    },

    /** Sandbox only: the courier re-attempts failed attempt number `attempt`: delivered, failed again (with `reason`) or RTO. Safe to retry. */
    async reattemptSandboxShipment(awb: string, attempt: number, result: ReattemptResult, reason?: UndeliveredReason): Promise<TrackingResult> {
      const body = validate(ReattemptRequestSchema, { awb, attempt, result, reason });
      return call("sandbox/reattempt", TrackingResultSchema, { body });
    },

    /** Sandbox only: erase this sandbox account and everything it holds. */
    async eraseSandboxAccount(): Promise<EraseAccountResult> {
      return call("sandbox/erase-account", EraseAccountResultSchema, { body: {} });
    },

    /** Sandbox only: this account's COD remittance statement as CSV, for these awbs or its delivered COD orders. */
    async sandboxRemittanceStatement(awbs?: string[]): Promise<SandboxStatementResult> {
      validate(SandboxStatementRequestSchema, { awbs });
      return call("sandbox/remittance-statement", SandboxStatementResultSchema, { body: awbs ? { awbs } : {} });
    },

    /** Sandbox only: this account's freight invoice as CSV, for these awbs or its orders. */
    async sandboxFreightInvoice(awbs?: string[]): Promise<SandboxStatementResult> {
      validate(SandboxStatementRequestSchema, { awbs });
      return call("sandbox/freight-invoice", SandboxStatementResultSchema, { body: awbs ? { awbs } : {} });
    },

    /** Sandbox only: remove the shopper's details from this account's orders with these awbs. */
    async redactSandboxOrders(awbs: string[]): Promise<RedactOrdersResult> {
      validate(RedactOrdersRequestSchema, { awbs });
      return call("sandbox/redact-orders", RedactOrdersResultSchema, { body: { awbs } });
    },
  };
}

export type CourierClient = ReturnType<typeof createCourierClient>;
