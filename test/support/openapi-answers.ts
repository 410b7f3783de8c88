import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "~/courier-service/openapi";

/*
 * Judges /v1 answers by the service's own OpenAPI document, with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses):
 * the status must be one the operation lists, the body JSON, and valid by that status's schema. A request to no
 * operation must be answered with the error shape: 404 for an unknown path, 405 (or 404) for a wrong method.
 */

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
type Responses = Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;

interface Route {
  method: string;
  pattern: RegExp;
  responses: Responses;
}

export interface AnswerJudge {
  /** What is wrong with the answer by the document, or null when nothing is. Reads a clone of the response. */
  judge(request: { method: string; url: string }, response: Response): Promise<string | null>;
  document: OpenApiDocument;
}

export function createAnswerJudge(document: OpenApiDocument = buildOpenApiDocument()): AnswerJudge {
  // `multipleOfPrecision`: 0.29 or 9857922.11 is a multiple of 0.01 only up to floating-point error.
  const ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 6 });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "openapi.json", components: document.components });
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (ref: string) => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };

  const routes: Route[] = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods as Record<string, { responses: Responses }>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      // A `{parameter}` is one encoded path segment.
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}/*$`),
      responses: operation.responses,
    })),
  );

  return {
    document,
    async judge(request, response) {
      const path = new URL(request.url).pathname;
      const where = `${request.method} ${path} → ${response.status}`;
      let body: unknown;
      const text = await response.clone().text();
      try {
        body = JSON.parse(text);
      } catch {
        return `${where}: not JSON: ${text.slice(0, 120)}`;
      }
      if (!/^application\/json\b/.test(response.headers.get("content-type") ?? "")) return `${where}: Content-Type ${response.headers.get("content-type")}`;
      // The document itself is the one answer without `success`: OpenAPI allows no such field at its top.
      const isDocument = request.method === "GET" && /^\/v1\/openapi\.json\/*$/.test(path) && response.status === 200;
      if (isDocument) return (body as { openapi?: unknown }).openapi === "3.1.0" ? null : `${where}: not an OpenAPI 3.1 document`;
      if (typeof (body as { success?: unknown })?.success !== "boolean") return `${where}: no boolean success`;

      const route = routes.find((candidate) => candidate.method === request.method && candidate.pattern.test(path));
      let ref: string | undefined;
      if (route) {
        const answer = route.responses[String(response.status)];
        if (!answer) return `${where}: status not in the document for this operation`;
        ref = answer.content?.["application/json"]?.schema.$ref;
        if (!ref) return `${where}: the document gives no schema`;
      } else {
        // A wrong method on a known path is 405, or 404 when the path cannot be routed at all (an encoded line break).
        const allowed = routes.some((candidate) => candidate.pattern.test(path)) ? [404, 405] : [404];
        if (!allowed.includes(response.status)) return `${where}: expected ${allowed.join(" or ")} for a request to no operation`;
        ref = "#/components/schemas/ErrorResult";
      }
      const validate = validatorFor(ref);
      if (validate(body)) return null;
      return `${where}: invalid by ${ref}: ${ajv.errorsText(validate.errors, { separator: "; " })}`;
    },
  };
}
