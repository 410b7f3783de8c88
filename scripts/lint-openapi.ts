import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { buildOpenApiDocument } from "../app/courier-service/openapi";

/**
 * The /v1 OpenAPI document, linted by Redocly's linter: the OpenAPI 3.1 structure, its JSON Schemas, and the
 * rules of its strict recommended set (every operation with an operationId, a summary, a 2xx and a 4xx answer,
 * declared path parameters, no unused components…), plus a description on every operation, where the service's
 * business rules are written.
 */
export async function lintOpenApiDocument(document: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({
    extends: ["recommended-strict"],
    rules: {
      "operation-description": "error",
      // The server is the deployment's own address, which is localhost on a developer's machine and in the tests.
      "no-server-example.com": "off",
    },
  });
  return lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
}

export function describeProblem(problem: NormalizedProblem): string {
  return `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? "(document)"}: ${problem.message}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await lintOpenApiDocument(buildOpenApiDocument(process.env.SHOPIFY_APP_URL || "http://localhost:3000"));
  for (const problem of problems) console.error(describeProblem(problem));
  if (problems.length > 0) {
    console.error(`The /v1 OpenAPI document has ${problems.length} problem${problems.length === 1 ? "" : "s"}.`);
    process.exit(1);
  }
  console.log("The /v1 OpenAPI document passes Redocly's lint (recommended-strict).");
}
