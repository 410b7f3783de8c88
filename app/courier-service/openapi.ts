import { z } from "zod";
import {
  AdvanceRequestSchema,
  AwbSchema,
  CancelOrderRequestSchema,
  CancelOrderResultSchema,
  createOrderRequestSchema,
  CreateOrderResultSchema,
  EraseAccountResultSchema,
  ErrorResultSchema,
  MAX_JSON_DEPTH,
  MAX_JSON_ENTRIES,
  OrderDetailsSchema,
  RateRequestSchema,
  RateResultSchema,
  RedactOrdersRequestSchema,
  RedactOrdersResultSchema,
  SERVICE_OPERATION_NAMES,
  SERVICE_OPERATIONS,
  type ServiceOperation,
  TrackingResultSchema,
  WarehouseSchema,
} from "~/shipping/contract";
import { AUTH_FAILURE_LIMITS } from "./auth-failure-limiter.server";

const schema = (type: z.ZodType, io: "input" | "output") => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return rest;
};

const { perKeyAtAddress, perAddress, windowMs } = AUTH_FAILURE_LIMITS;

const ERROR_STATUSES: Record<string, string> = {
  "400": `The body is not a JSON object, or is nested more than ${MAX_JSON_DEPTH} levels deep or holds more than ${MAX_JSON_ENTRIES} entries in one list or object`,
  "401": "Missing or wrong X-Api-Key / X-Secret-Key",
  "429":
    `Too many failed authentications: more than ${perKeyAtAddress} with this X-Api-Key from this address, or ${perAddress} from this address whatever the key, ` +
    `in ${windowMs / 1000} seconds. Even right credentials are refused until the Retry-After header's seconds have passed.`,
  "404": "Unknown awb or warehouse",
  "409": "order_id conflict, or a move the shipment cannot make",
  "413": "Body over 1 MB",
  "422": "Invalid fields (or an awb in the path over 64 characters): one entry per bad field",
};

const RETRY_AFTER = {
  description: "Seconds until the failures that caused the block leave the window",
  schema: { type: "integer", minimum: 1, maximum: windowMs / 1000 },
};

function operation(summary: string, result: string, options: { body?: string; errors: string[]; path?: { name: string; schema: object } }) {
  return {
    summary,
    security: [{ apiKey: [], secretKey: [] }],
    ...(options.path ? { parameters: [{ name: options.path.name, in: "path", required: true, schema: options.path.schema }] } : {}),
    ...(options.body
      ? { requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${options.body}` } } } } }
      : {}),
    responses: {
      "200": { description: "Success", content: { "application/json": { schema: { $ref: `#/components/schemas/${result}` } } } },
      ...Object.fromEntries(
        ["401", ...options.errors, "429"].map((status) => [
          status,
          {
            description: ERROR_STATUSES[status],
            ...(status === "429" ? { headers: { "Retry-After": RETRY_AFTER } } : {}),
            content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResult" } } },
          },
        ]),
      ),
    },
  };
}

/** What each operation takes and answers; typed by the contract's list, so no operation goes undescribed. */
const OPERATION_SHAPES: Record<ServiceOperation, { body?: string; result: string; errors: string[] }> = {
  "create-order": { body: "CreateOrderRequest", result: "CreateOrderResult", errors: ["400", "409", "413", "422"] },
  "calculate-rate": { body: "RateRequest", result: "RateResult", errors: ["400", "413", "422"] },
  "get-warehouse": { result: "Warehouse", errors: ["404"] },
  "track-order": { result: "TrackingResult", errors: ["404", "422"] },
  "get-order": { result: "OrderDetails", errors: ["404", "422"] },
  "cancel-order": { body: "CancelOrderRequest", result: "CancelOrderResult", errors: ["400", "404", "409", "413", "422"] },
  "sandbox/advance": { body: "AdvanceRequest", result: "TrackingResult", errors: ["400", "404", "409", "413", "422"] },
  "sandbox/erase-account": { result: "EraseAccountResult", errors: ["400", "409", "413"] },
  "sandbox/redact-orders": { body: "RedactOrdersRequest", result: "RedactOrdersResult", errors: ["400", "409", "413", "422"] },
};

/** The OpenAPI 3.1 description of /v1, generated from the same zod schemas the service enforces. */
export function buildOpenApiDocument(serverUrl: string) {
  const awbParameter = schema(AwbSchema, "input");
  return {
    openapi: "3.1.0",
    info: {
      title: "Shipment Order Service",
      version: "1",
      description:
        "Courier aggregation: create shipment orders, quote rates, read warehouses, track shipments, read orders. " +
        "cancel-order and the sandbox/* operations are extensions of Dakiya's embedded sandbox.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        secretKey: { type: "apiKey", in: "header", name: "X-Secret-Key" },
      },
      schemas: {
        CreateOrderRequest: schema(createOrderRequestSchema(), "input"),
        CreateOrderResult: schema(CreateOrderResultSchema, "output"),
        RateRequest: schema(RateRequestSchema, "input"),
        RateResult: schema(RateResultSchema, "output"),
        Warehouse: schema(WarehouseSchema, "output"),
        TrackingResult: schema(TrackingResultSchema, "output"),
        OrderDetails: schema(OrderDetailsSchema, "output"),
        CancelOrderRequest: schema(CancelOrderRequestSchema, "input"),
        CancelOrderResult: schema(CancelOrderResultSchema, "output"),
        AdvanceRequest: schema(AdvanceRequestSchema, "input"),
        EraseAccountResult: schema(EraseAccountResultSchema, "output"),
        RedactOrdersRequest: schema(RedactOrdersRequestSchema, "input"),
        RedactOrdersResult: schema(RedactOrdersResultSchema, "output"),
        ErrorResult: schema(ErrorResultSchema, "output"),
      },
    },
    paths: Object.fromEntries(
      Object.entries(
        SERVICE_OPERATION_NAMES.reduce<Record<string, Record<string, unknown>>>((paths, name) => {
          const { method, path, summary } = SERVICE_OPERATIONS[name];
          const shape = OPERATION_SHAPES[name];
          const parameter = path.match(/\{(\w+)\}/)?.[1];
          paths[path] = {
            ...paths[path],
            [method.toLowerCase()]: operation(summary, shape.result, {
              body: shape.body,
              errors: shape.errors,
              path: parameter ? { name: parameter, schema: parameter === "awb" ? awbParameter : { type: "integer" } } : undefined,
            }),
          };
          return paths;
        }, {}),
      ),
    ),
  };
}
