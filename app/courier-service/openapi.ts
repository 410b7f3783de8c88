import * as z from "zod";
import {
  AdvanceRequestSchema,
  ReattemptRequestSchema,
  AwbSchema,
  CancelOrderRequestSchema,
  CancelOrderResultSchema,
  createOrderRequestSchema,
  CreateOrderResultSchema,
  EraseAccountResultSchema,
  ErrorResultSchema,
  EWAYBILL_THRESHOLD_RUPEES,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_JSON_ENTRIES,
  MAX_PRODUCTS,
  MAX_REDACT_AWBS,
  MAX_WAREHOUSE_ID,
  ORDER_DATE_MAX_AGE_DAYS,
  OrderDetailsSchema,
  RateRequestSchema,
  RateResultSchema,
  RedactOrdersRequestSchema,
  RedactOrdersResultSchema,
  MAX_STATEMENT_AWBS,
  SandboxStatementRequestSchema,
  SandboxStatementResultSchema,
  SERVICE_OPERATION_NAMES,
  SERVICE_OPERATIONS,
  type ServiceOperation,
  TrackingResultSchema,
  WarehouseSchema,
} from "~/shipping/contract";
import { SERVICE_STATUS_CODES, SERVICE_STATUS_LABELS, TRANSITIONS } from "~/shipping/status";
import { AUTH_FAILURE_LIMITS } from "./auth-failure-limiter.server";

type JsonSchema = Record<string, unknown>;

const schema = (type: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
};

/**
 * The create-order body as a client may send it: `total_amount`, or the spec sample's `total_price` in its place
 * (docs/courier-service.md). zod's schema renames the alias before it validates, so its JSON Schema requires
 * `total_amount`; here the requirement becomes "one of the two", so every body the service takes is valid by the
 * document.
 */
function createOrderRequestDocument(): JsonSchema {
  const generated = schema(createOrderRequestSchema(), "input");
  const required = (generated.required as string[]).filter((field) => field !== "total_amount");
  return {
    ...generated,
    description:
      "An order to book. Send total_amount, or total_price in its place (both: they must agree). Unknown fields are ignored. " +
      "Every text field is free of control characters (NUL, tabs, line breaks, escapes, DEL, C1) and of broken Unicode, except that " +
      "delivery_remarks may hold line breaks and tabs; blanks around text are trimmed, and a field that is then empty counts as missing.",
    required,
    anyOf: [{ required: ["total_amount"] }, { required: ["total_price"] }],
  };
}

const { perKeyAtAddress, perAddress, windowMs } = AUTH_FAILURE_LIMITS;

/** Why each status is sent; the operations list theirs. */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  "400":
    `The body is not JSON, not a JSON object, or nested more than ${MAX_JSON_DEPTH} levels deep, or holds a list or object of more than ` +
    `${MAX_JSON_ENTRIES.toLocaleString("en-IN")} entries (errors[0].field is "body")`,
  "401": "X-Api-Key or X-Secret-Key missing, or not an account's pair (also the keys of an erased account)",
  "404": "No such awb or warehouse for this account, no such path, or the embedded service is switched off",
  "405": "The path exists but not with this method",
  "409": "order_id conflict (used by a cancelled order, or with a different body), or a move the shipment cannot make",
  "413": `Body over ${MAX_BODY_BYTES / 1024 / 1024} MB`,
  "422": "Invalid fields, all at once: one entry per bad field, each message naming its field (an awb in the path too)",
  "429":
    `Too many failed authentications: more than ${perKeyAtAddress} with one X-Api-Key from this address, or ${perAddress} from this address ` +
    `whatever the key, in ${windowMs / 1000} seconds. Even right credentials are refused until the Retry-After header's seconds have passed.`,
  "500": "The service failed; the message carries a reference that its log line carries too. Try again.",
};

const RETRY_AFTER = {
  description: "Seconds until the failures that caused the block leave the window",
  schema: { type: "integer", minimum: 1, maximum: windowMs / 1000 },
};

const STATUS_CODE_TABLE = SERVICE_STATUS_CODES.map((code) => `${code} ${SERVICE_STATUS_LABELS[code]}`).join(", ");
const TRANSITION_TABLE = Object.entries(TRANSITIONS)
  .map(([from, to]) => `${from}→${to!.join("|")}`)
  .join(", ");

interface OperationShape {
  operationId: string;
  description: string;
  body?: string;
  result: string;
  /** Statuses besides 200 and the ones every authenticated operation may send (401, 404, 405, 429, 500). */
  errors: string[];
}

const BODY_ERRORS = ["400", "413", "422"];
/** What any authenticated operation may answer: wrong keys, unknown ids or a switched-off service, a wrong method, the brake, a failure. */
const ALWAYS_POSSIBLE = ["401", "404", "405", "429", "500"];

/** What each operation takes, answers and promises; typed by the contract's list, so no operation goes undescribed. */
const OPERATIONS: Record<ServiceOperation, OperationShape> = {
  "create-order": {
    operationId: "createOrder",
    description:
      "Creates a shipment order with the courier logistic_id and answers its air waybill number (awb) and public tracking address. " +
      "Rules (spec, Rules 1–4, and Limits): total_amount is taken as sent and never recomputed; a reverse order cannot use a quality check (QC); " +
      "when warehouse_id is omitted, the account's primary warehouse is the pickup location; an order_id that belonged to a cancelled order " +
      `is refused (409). order_date falls within the last ${ORDER_DATE_MAX_AGE_DAYS} days (India time); at most ${MAX_PRODUCTS} products; ` +
      "PIN codes are exactly 6 digits; package sides are whole centimetres, more than 1. An order of " +
      `₹${EWAYBILL_THRESHOLD_RUPEES.toLocaleString("en-IN")} or more without ewaybill_no is booked, and its message says an e-waybill is needed before pick-up. ` +
      "Sending the same order_id with the same body again answers the first result (same awb); with a different body → 409. " +
      "A courier that does not serve the route → 422 on logistic_id; a PIN code no courier serves → 422 on pincode. The first tracking entry is code 2 (Manifested).",
    body: "CreateOrderRequest",
    result: "CreateOrderResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "calculate-rate": {
    operationId: "calculateRate",
    description:
      "Quotes price and delivery days for a route and parcel: one option per courier that serves it (spec, Rule 5), and total_logistics " +
      "equals the number of options. Chargeable weight is the larger of the actual and the volumetric weight (L×B×H / 5000), rounded up to " +
      "the next 0.5 kg; total_charges is freight plus COD charges, in rupees. No wallet data.",
    body: "RateRequest",
    result: "RateResult",
    errors: BODY_ERRORS,
  },
  "get-warehouse": {
    operationId: "getWarehouse",
    description: `Reads one of the account's pickup locations by its id (a whole number up to ${MAX_WAREHOUSE_ID}); another account's or an unknown id → 404.`,
    result: "Warehouse",
    errors: [],
  },
  "track-order": {
    operationId: "trackOrder",
    description:
      "Tracks a shipment by its awb: its stage (order_status) and its history, oldest first, each entry with its service status code: " +
      `${STATUS_CODE_TABLE}. Moves between codes: ${TRANSITION_TABLE}; the others are final. delivered_date is empty until code 8. ` +
      "An awb of another account is as unknown as a made-up one (404); an awb that cannot be one (over 64 characters, control characters) → 422.",
    result: "TrackingResult",
    errors: ["422"],
  },
  "get-order": {
    operationId: "getOrder",
    description:
      "Reads the stored details of an order by its awb. The stored order names fields as the spec's read side does: package_breadth is " +
      "package_width, package_weight is actual_weight, name is customer_name. An awb of another account → 404; one that cannot be an awb → 422.",
    result: "OrderDetails",
    errors: ["422"],
  },
  "cancel-order": {
    operationId: "cancelOrder",
    description:
      "Extension: cancels a shipment not yet picked up (codes 2, 3, 4), recording code 10; repeating it answers the same. After pick-up → 409. " +
      "The order_id of a cancelled order cannot be used again.",
    body: "CancelOrderRequest",
    result: "CancelOrderResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "sandbox/advance": {
    operationId: "advanceSandboxShipment",
    description:
      "Sandbox extension: moves a shipment on at once, one stage (the sandbox clock's own choice) or along the moves to the code `to` " +
      `(${SERVICE_STATUS_CODES[0]}–${SERVICE_STATUS_CODES.at(-1)}); a move the graph does not allow → 409. Safe to retry: a shipment already at \`to\`, ` +
      "or (one stage) no longer at `from`, is answered as it is. A failed delivery attempt (9) on the way gives `reason`, else one the sandbox draws.",
    body: "AdvanceRequest",
    result: "TrackingResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "sandbox/reattempt": {
    operationId: "reattemptSandboxShipment",
    description:
      "Sandbox extension: the courier re-attempts failed delivery attempt number `attempt` (1: the first): out for delivery again and delivered (7, 8), " +
      "out again and failed again with `reason` (7, 9), or returned to origin (11). Safe to retry: once it happened the same request answers the shipment " +
      "as it is; an attempt the shipment has not had, or one followed by something else since → 409.",
    body: "ReattemptRequest",
    result: "TrackingResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "sandbox/erase-account": {
    operationId: "eraseSandboxAccount",
    description:
      "Sandbox extension: erases the calling sandbox account with its orders, tracking and warehouses; a later call with its keys opens it afresh. " +
      "The shared sandbox account → 409. The body is an empty JSON object.",
    body: "EmptyRequest",
    result: "EraseAccountResult",
    errors: ["400", "413", "409"],
  },
  "sandbox/redact-orders": {
    operationId: "redactSandboxOrders",
    description: `Sandbox extension: removes what identifies the shopper from the account's orders with these awbs (at most ${MAX_REDACT_AWBS}); awbs, charges and tracking stay.`,
    body: "RedactOrdersRequest",
    result: "RedactOrdersResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "sandbox/remittance-statement": {
    operationId: "sandboxRemittanceStatement",
    description:
      `Sandbox extension: the account's COD remittance statement as CSV (AWB No, Order ID, COD Amount, UTR, Remittance Date), for the awbs named (at most ${MAX_STATEMENT_AWBS}, in that order) ` +
      "or else the account's delivered cash-on-delivery orders, oldest delivery first. One UTR for the statement; the first order remitted in full, the second short by a tenth " +
      "(₹1 at least), the rest in full; without awbs and with three or more orders the last is left out; one line for an awb the account never booked. Not an operation of the spec.",
    body: "SandboxStatementRequest",
    result: "SandboxStatementResult",
    errors: [...BODY_ERRORS, "409"],
  },
  "sandbox/freight-invoice": {
    operationId: "sandboxFreightInvoice",
    description:
      `Sandbox extension: the account's freight invoice as CSV (AWB Number, Order ID, Charged Weight (KG), Total Charges, Invoice Date), for the awbs named (at most ${MAX_STATEMENT_AWBS}, in that order) ` +
      "or else every order of the account not cancelled. Each is charged at its quote's chargeable weight and total charges, but the first two, re-weighed a kilogram heavier " +
      "and charged the courier's freight for that weight. Not an operation of the spec.",
    body: "SandboxStatementRequest",
    result: "SandboxStatementResult",
    errors: [...BODY_ERRORS, "409"],
  },
};

const errorResponse = (status: string) => ({
  description: STATUS_DESCRIPTIONS[status],
  ...(status === "429" ? { headers: { "Retry-After": RETRY_AFTER } } : {}),
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResult" } } },
});

function operation(name: ServiceOperation, awbParameter: JsonSchema) {
  const { summary, path } = SERVICE_OPERATIONS[name];
  const shape = OPERATIONS[name];
  const parameter = path.match(/\{(\w+)\}/)?.[1];
  const statuses = [...ALWAYS_POSSIBLE, ...shape.errors].sort();
  return {
    operationId: shape.operationId,
    summary,
    description: shape.description,
    security: [{ apiKey: [], secretKey: [] }],
    ...(parameter
      ? {
          parameters: [
            {
              name: parameter,
              in: "path",
              required: true,
              description: parameter === "awb" ? "The shipment's air waybill number, as create-order answered it" : "The warehouse's id",
              schema: parameter === "awb" ? awbParameter : { type: "integer", minimum: 0, maximum: MAX_WAREHOUSE_ID },
            },
          ],
        }
      : {}),
    ...(shape.body
      ? { requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${shape.body}` } } } } }
      : {}),
    responses: {
      "200": { description: "Success", content: { "application/json": { schema: { $ref: `#/components/schemas/${shape.result}` } } } },
      ...Object.fromEntries(statuses.map((status) => [status, errorResponse(status)])),
    },
  };
}

/** The document itself, served without credentials. */
const DOCUMENT_OPERATION = {
  operationId: "getOpenApiDocument",
  summary: "This description of the service",
  description: "The OpenAPI 3.1 description of /v1, generated from the schemas the service enforces. No credentials needed.",
  security: [],
  responses: {
    "200": { description: "The OpenAPI document", content: { "application/json": { schema: { type: "object" } } } },
    "404": errorResponse("404"),
    "405": errorResponse("405"),
    "500": errorResponse("500"),
  },
};

/**
 * The OpenAPI 3.1 description of /v1, generated from the same zod schemas the service enforces. `serverUrl` is the
 * app's configured address (SHOPIFY_APP_URL), never the request's Host: a forged Host must not point the document's
 * readers elsewhere. Without one the server is "/", wherever the document was read.
 */
export function buildOpenApiDocument(serverUrl?: string) {
  const awbParameter = schema(AwbSchema, "input");
  const paths: Record<string, Record<string, unknown>> = { "/v1/openapi.json": { get: DOCUMENT_OPERATION } };
  for (const name of SERVICE_OPERATION_NAMES) {
    const { method, path } = SERVICE_OPERATIONS[name];
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation(name, awbParameter) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Shipment Order Service",
      version: "1",
      description:
        "Courier aggregation: create shipment orders, quote rates, read warehouses, track shipments, read orders. " +
        "cancel-order and the sandbox/* operations are extensions of Dakiya's embedded sandbox. Every answer is JSON with a boolean " +
        "`success`: true with the result, or false with a message and one entry per bad field. Bodies are at most 1 MB.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl ? serverUrl.replace(/\/+$/, "") : "/", description: serverUrl ? "This deployment" : "Where this document was read" }],
    security: [{ apiKey: [], secretKey: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "The account's api_key" },
        secretKey: { type: "apiKey", in: "header", name: "X-Secret-Key", description: "The account's secret_key" },
      },
      schemas: {
        CreateOrderRequest: createOrderRequestDocument(),
        CreateOrderResult: schema(CreateOrderResultSchema, "output"),
        RateRequest: schema(RateRequestSchema, "input"),
        RateResult: schema(RateResultSchema, "output"),
        Warehouse: schema(WarehouseSchema, "output"),
        TrackingResult: schema(TrackingResultSchema, "output"),
        OrderDetails: schema(OrderDetailsSchema, "output"),
        CancelOrderRequest: schema(CancelOrderRequestSchema, "input"),
        CancelOrderResult: schema(CancelOrderResultSchema, "output"),
        AdvanceRequest: schema(AdvanceRequestSchema, "input"),
        ReattemptRequest: schema(ReattemptRequestSchema, "input"),
        EmptyRequest: { type: "object", description: "An empty JSON object; fields are ignored" },
        EraseAccountResult: schema(EraseAccountResultSchema, "output"),
        RedactOrdersRequest: schema(RedactOrdersRequestSchema, "input"),
        RedactOrdersResult: schema(RedactOrdersResultSchema, "output"),
        SandboxStatementRequest: schema(SandboxStatementRequestSchema, "input"),
        SandboxStatementResult: schema(SandboxStatementResultSchema, "output"),
        ErrorResult: schema(ErrorResultSchema, "output"),
      },
    },
    paths,
  };
}
