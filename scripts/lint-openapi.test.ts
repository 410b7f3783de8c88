import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../app/courier-service/openapi";
import { describeProblem, lintOpenApiDocument } from "./lint-openapi";

describe("the /v1 OpenAPI document under Redocly's linter", () => {
  it("has no problem", async () => {
    const problems = await lintOpenApiDocument(buildOpenApiDocument("https://dakiya.example.in"));
    expect(problems.map(describeProblem)).toEqual([]);
  });

  it("would be caught without an operation's operationId or description, or with a schema that is not one", async () => {
    const document = buildOpenApiDocument("https://dakiya.example.in");
    const createOrder = document.paths["/v1/create-order"]!.post as Record<string, unknown>;
    delete createOrder.operationId;
    delete createOrder.description;
    (document.components.schemas.RateRequest as Record<string, unknown>).type = "parcel";
    const rules = (await lintOpenApiDocument(document)).map((problem) => problem.ruleId);
    expect(rules).toEqual(expect.arrayContaining(["operation-operationId", "operation-description", "struct"]));
  });
});
