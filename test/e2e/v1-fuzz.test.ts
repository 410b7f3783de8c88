import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, type StartedServer } from "../support/npm-start";
import { createAnswerJudge, type AnswerJudge } from "../support/openapi-answers";
import { sampleOrder } from "../support/orders";
import { productionBuild } from "../support/production-build";

/*
 * A property-based fuzz of /v1, driven by the service's own OpenAPI document (GET /v1/openapi.json), against the
 * production build under `npm start` over real HTTP — the app's HTTP server, Remix's router and the service, as a
 * client meets them. fast-check, with a fixed seed, generates requests from the document's schemas (bodies and path
 * parameters as the document describes them, and as a valid order altered field by field) and hostile ones (control
 * characters and broken Unicode in every field, wrong types, encoded NUL and line breaks in paths, malformed escapes,
 * bodies that are not JSON, nested or wide JSON, wrong methods, wrong or missing credentials). The property: no answer
 * is a 5xx, every answer is JSON with a boolean `success` and valid by the document, and a body the service took is
 * valid by the document's request schema.
 *
 * Bodies over the 1 MB limit are left to test/e2e/http-limits.test.ts: the HTTP server refuses them before any route.
 */

const port = 5100 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const BASE = `http://127.0.0.1:${port}`;
// The local defaults of the shared sandbox pair: npm start on a local address runs with them.
const KEYS = { "X-Api-Key": "sandbox_api_key", "X-Secret-Key": "sandbox_secret_key" };
const SEED = 20_261_125;
const RUNS = 130;
const REQUESTS_PER_RUN = 8;

let server: StartedServer;
let judge: AnswerJudge;
type Document = AnswerJudge["document"];
let document: Document;

beforeAll(async () => {
  await productionBuild();
  server = npmStart({ DATABASE_URL: await createDatabase(`v1_fuzz_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true }), PORT: String(port), WORKER_CONCURRENCY: "0" });
  // Up to a minute: `npm start` compiles its TypeScript as it starts, slowly on a busy machine.
  const health = await waitForHealth(port, server.output).catch(() => waitForHealth(port, server.output).catch(() => waitForHealth(port, server.output)));
  expect(health.status).toBe(200);
  document = (await (await fetch(`${BASE}/v1/openapi.json`)).json()) as Document;
  judge = createAnswerJudge(document);
}, 90_000);
afterAll(() => server?.stop());

// ─── Values from the document's JSON Schemas ──────────────────────────────────────────────────────────────────

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
};

const CONTROL_FREE = /\^\[\^\\u0000/;

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return (document.components.schemas as unknown as Record<string, Schema>)[schema.$ref.split("/").at(-1)!]!;
}

/** An arbitrary of the values the schema describes (as far as the document's keywords go). */
function valueOf(given: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(given);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf && !schema.type) return fc.oneof(...schema.anyOf.map(valueOf));
  const patterns = [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)].filter((pattern): pattern is string => Boolean(pattern));
  switch (schema.type) {
    case "string":
      return textOf(schema, patterns);
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (schema.type === "integer" ? 1 : 0.001) : -1e6);
      const max = schema.maximum ?? (schema.exclusiveMaximum ?? 1e7);
      if (schema.type === "integer") return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      const step = schema.multipleOf ?? 0.001;
      return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((units) => Number((units * step).toFixed(6)));
    }
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(valueOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 12) });
    case "object":
      return objectOf(schema);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function textOf(schema: Schema, patterns: string[]): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 64, 300);
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength && patterns.every((pattern) => new RegExp(pattern, "u").test(text));
  if (schema.format === "email") return fc.emailAddress().filter(fits);
  const shaped = patterns.filter((pattern) => !CONTROL_FREE.test(pattern));
  if (shaped.length > 0) return fc.stringMatching(new RegExp(shaped.at(-1)!)).filter(fits);
  // Printable ASCII or any Unicode text (control characters are the hostile generator's).
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: "grapheme" })).filter(fits);
}

function objectOf(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set([...(schema.required ?? []), ...(schema.anyOf?.[0]?.required ?? [])]);
  return fc.record(Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, valueOf(inner)])), {
    requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
  }) as fc.Arbitrary<Record<string, unknown>>;
}

// ─── Requests ─────────────────────────────────────────────────────────────────────────────────────────────────

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The JSON the body holds, when it is one. */
  json?: unknown;
  operationId?: string;
}

interface Operation {
  method: string;
  template: string;
  operationId: string;
  parameter?: { name: string; schema: Schema };
  body?: Schema;
}

function operations(): Operation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods as Record<string, { operationId: string; parameters?: { name: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>).map(
      ([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        operationId: operation.operationId,
        parameter: operation.parameters?.[0],
        body: operation.requestBody?.content["application/json"]?.schema,
      }),
    ),
  );
}

/** Awbs the run has booked, so reads, cancellations and moves meet real shipments too. */
const bookedAwbs: string[] = ["1000000000000"];

const HOSTILE_TEXT = fc.constantFrom(
  "Asha\u0000Rao",
  "\u0000",
  "line\nbreak",
  "carriage\rreturn",
  "tab\there",
  "\u001b[31mred",
  "bell\u0007",
  "del\u007f",
  "c1\u0085next",
  "lone\ud800surrogate",
  "\udfff",
  " 560001",
  "560001 ",
  "",
  "   ",
  "x".repeat(5_000),
  "'; DROP TABLE \"ServiceOrder\"; --",
  "<script>alert(1)</script>",
  "𝔸𝕤𝕙𝕒 😀 आशा",
  "\u202eevil",
  "%00",
  "1e309",
);
const HOSTILE_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  HOSTILE_TEXT,
  fc.constantFrom(null, true, false, [], {}, -1, 0, -0, 1.5, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324, [null], { nested: { deeper: [1] } }),
  fc.jsonValue({ maxDepth: 3 }),
);
const HOSTILE_PATH_SEGMENT = fc.oneof(
  fc.constantFrom("AB%00CD", "AB%0ACD", "AB%0DCD", "%0A", "%0D%0A", "%00", "%E0%A4%A", "%ZZ", "%2F..%2F..%2Fetc%2Fpasswd", "..", ".", "%20", "%C0%AF", "%F0%9F%98%80", "A".repeat(2_000), "-1", "1e3", "0x10", "1%00"),
  fc.string({ unit: "binary", maxLength: 40 }).map(encodeURIComponent),
);

/** A request as the document describes it: parameters and bodies from its schemas, or a valid order altered field by field. */
function documentedRequest(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameter = operation.parameter
    ? fc.oneof(valueOf(operation.parameter.schema).map(String), fc.constantFrom(...bookedAwbs), fc.constantFrom("1", "2", "3"))
    : fc.constant(undefined);
  let body: fc.Arbitrary<unknown> = operation.body ? valueOf(operation.body) : fc.constant(undefined);
  if (operation.operationId === "createOrder") {
    const properties = resolve(operation.body!).properties!;
    const fields = Object.keys(properties);
    const altered = fc
      .tuple(fc.uniqueArray(fc.constantFrom(...fields), { maxLength: 3 }), fc.integer({ min: 0, max: 2 ** 31 }))
      .chain(([names, seed]) =>
        fc.record(Object.fromEntries(names.map((name) => [name, valueOf(properties[name]!)]))).map((values) => ({ ...sampleOrder({ order_id: `fuzz-${seed}` }), ...values })),
      );
    body = fc.oneof(altered, body);
  } else if (operation.body && ["cancelOrder", "advanceSandboxShipment"].includes(operation.operationId)) {
    body = fc.oneof(body, fc.record({ awb: fc.constantFrom(...bookedAwbs) }));
  }
  return fc.tuple(parameter, body).map(([value, json]) => ({
    method: operation.method,
    path: operation.template.replace(/\{\w+\}/, () => encodeURIComponent(value ?? "")),
    headers: operation.template.endsWith("openapi.json") ? {} : { ...KEYS, "Content-Type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json), json }),
    operationId: operation.operationId,
  }));
}

/** A request no well-behaved client sends. */
function hostileRequest(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const pathWith = (segment: string) => (operation.parameter ? operation.template.replace(/\{\w+\}/, segment) : `${operation.template}/${segment}`);
  const hostileBody: fc.Arbitrary<string> = fc.oneof(
    // A field of a valid body, or a made-up one, set to something hostile.
    fc.tuple(fc.constantFrom(...Object.keys(resolve(operation.body ?? { properties: { awb: {} } }).properties ?? { awb: {} }), "products", "unknown_field", "__proto__", "constructor"), HOSTILE_VALUE).map(([field, value]) =>
      JSON.stringify({ ...sampleOrder(), [field]: value }),
    ),
    HOSTILE_VALUE.map((value) => JSON.stringify({ ...sampleOrder(), products: [{ product_name: value, price: 10, quantity: 1, sku: value }] })),
    fc.constantFrom("", "{", "not json", "[]", "null", "42", '"text"', "{\"a\":1,\"a\":2}", '{"awb":"\\u0000"}', '{"awbs":["\\ud800"]}'),
    fc.integer({ min: 19, max: 40 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
    fc.integer({ min: 999, max: 1_200 }).map((count) => `{"products":[${Array(count).fill("1").join(",")}]}`),
    fc.string({ unit: "binary", maxLength: 200 }),
  );
  const credentials = fc.constantFrom<Record<string, string>>(
    KEYS,
    KEYS,
    KEYS,
    {},
    { "X-Api-Key": KEYS["X-Api-Key"] },
    { "X-Api-Key": "made-up-key", "X-Secret-Key": "made-up-secret" },
    { "X-Api-Key": "sandbox_api_key.fuzz.myshopify.com", "X-Secret-Key": "not-the-derived-secret" },
  );
  return fc.oneof(
    fc.record({ body: hostileBody, headers: credentials }).map(({ body, headers }) => ({
      method: operation.method,
      path: operation.template.replace(/\{\w+\}/, "1000000000000"),
      headers: { ...headers, "Content-Type": "application/json" },
      // A GET carries no body: its hostility is in the credentials.
      ...(operation.method === "GET" ? {} : { body }),
    })),
    fc.record({ segment: HOSTILE_PATH_SEGMENT, method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") }).map(({ segment, method }) => ({
      method,
      path: pathWith(segment),
      headers: KEYS,
      ...(method === "GET" ? {} : { body: "{}" }),
    })),
    fc.record({ method: fc.constantFrom("PUT", "PATCH", "DELETE", "OPTIONS", "POST", "GET"), suffix: fc.constantFrom("", "/", "//", "/extra", "%0A", "%0D", "%00", "?q=%00") }).map(({ method, suffix }) => ({
      method,
      path: `${operation.template.replace(/\{\w+\}/, "1")}${suffix}`,
      headers: KEYS,
      ...(method === "GET" ? {} : { body: "{}" }),
    })),
    fc.constantFrom("/v1", "/v1/", "/v1/%00", "/v1/%0A", "/v1/nowhere", "/v1/sandbox", "/v1/sandbox/%0D%0A", "/V1/create-order", "/v1/create-order/extra").map((path) => ({ method: "GET", path, headers: KEYS })),
  );
}

async function send(request: FuzzRequest): Promise<Response> {
  return fetch(`${BASE}${request.path}`, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }), redirect: "manual" });
}

// ─── The property ─────────────────────────────────────────────────────────────────────────────────────────────

describe("/v1 under its own OpenAPI document, fuzzed", () => {
  it(`answers ${RUNS * REQUESTS_PER_RUN} generated and hostile requests with no 5xx, each JSON with a boolean success and valid by the document`, async () => {
    const all = operations();
    const requestBodyValidators = new Map<string, ValidateFunction>();
    const ajv = new Ajv2020({ strict: false, multipleOfPrecision: 6 });
    ajv.addSchema({ $id: "openapi.json", components: document.components });
    for (const operation of all.filter((candidate) => candidate.body)) requestBodyValidators.set(operation.operationId, ajv.compile({ $ref: `openapi.json${operation.body!.$ref!}` }));

    const statuses: Record<number, number> = {};
    let sent = 0;
    const started = Date.now();
    const batch = fc.tuple(
      ...Array.from({ length: REQUESTS_PER_RUN }, (_, index) => fc.constantFrom(...all).chain((operation) => (index % 2 === 0 ? documentedRequest(operation) : hostileRequest(operation)))),
    );

    await fc.assert(
      fc.asyncProperty(batch, async (requests) => {
        const answers = await Promise.all(requests.map(async (request) => ({ request, response: await send(request) })));
        for (const { request, response } of answers) {
          sent += 1;
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          const what = `${request.method} ${request.path.slice(0, 200)} ${request.body?.slice(0, 300) ?? ""}`;
          expect(response.status, what).toBeLessThan(500);
          expect(await judge.judge({ method: request.method, url: `${BASE}${request.path}` }, response), what).toBeNull();
          // A body the service took is one the document allows.
          if (response.status === 200 && request.json !== undefined && request.operationId && requestBodyValidators.has(request.operationId)) {
            const validate = requestBodyValidators.get(request.operationId)!;
            expect(validate(request.json), `${what}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          }
          if (response.status === 200 && request.operationId === "createOrder") bookedAwbs.push(((await response.json()) as { awb: string }).awb);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    expect(sent).toBeGreaterThanOrEqual(1_000);
    // The run reached the service's successes and its refusals alike, not only one kind of answer.
    expect(statuses[200]).toBeGreaterThan(10);
    expect(statuses[422]).toBeGreaterThan(20);
    expect(Object.keys(statuses).map(Number).sort((a, b) => a - b)).toEqual(expect.arrayContaining([200, 400, 401, 404, 405, 422]));
    expect(bookedAwbs.length).toBeGreaterThan(5);
    console.info(`v1 fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, by status ${JSON.stringify(statuses)}`);
  }, 120_000);
});

describe("the judge of answers", () => {
  it("refuses an HTML page, a 5xx, a status the document does not list and a body that breaks its schema", async () => {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8" } });
    const request = (method: string, path: string) => ({ method, url: `${BASE}${path}` });
    const error = { success: false, message: "No", errors: [] };
    expect(await judge.judge(request("GET", "/v1/get-order/1"), json(404, error))).toBeNull();
    expect(await judge.judge(request("GET", "/v1/get-order/AB%0A"), new Response("<!DOCTYPE html><p>Not found</p>", { status: 404, headers: { "Content-Type": "text/html" } }))).toMatch(/not JSON/);
    expect(await judge.judge(request("GET", "/v1/get-order/1"), json(502, error))).toMatch(/status not in the document/);
    expect(await judge.judge(request("POST", "/v1/calculate-rate"), json(409, error))).toMatch(/status not in the document/);
    expect(await judge.judge(request("GET", "/v1/get-warehouse/1"), json(200, { success: true, id: "one" }))).toMatch(/invalid by/);
    expect(await judge.judge(request("GET", "/v1/get-order/1"), json(404, { message: "No" }))).toMatch(/no boolean success/);
    expect(await judge.judge(request("DELETE", "/v1/create-order"), json(409, error))).toMatch(/expected 404 or 405/);
    expect(await judge.judge(request("GET", "/v1/nowhere"), json(405, error))).toMatch(/expected 404 for a request/);
  });
});
