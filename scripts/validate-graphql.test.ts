import { describe, expect, it } from "vitest";
import { validateAdminDocument } from "../graphql/admin-schema";
import { findGraphqlDocuments, withFragments } from "./validate-graphql";

describe("GraphQL validation against the 2026-10 Admin schema", () => {
  it("accepts a document Shopify accepts", () => {
    expect(validateAdminDocument("query { shop { name myshopifyDomain } }")).toEqual([]);
  });

  it("refuses a field Shopify does not have", () => {
    const errors = validateAdminDocument("query { shop { name courierBudget } }");
    expect(errors.map((error) => error.message)).toEqual(['Cannot query field "courierBudget" on type "Shop".']);
  });

  it("refuses deprecated fields", () => {
    const errors = validateAdminDocument("query ($id: ID!) { order(id: $id) { customer { phone } } }");
    expect(errors[0]?.message).toMatch(/deprecated/);
  });

  it("finds tagged documents with their line numbers", () => {
    const text = 'const a = 1;\nconst Q = `#graphql\n  query { shop { name } }\n`;\n';
    expect(findGraphqlDocuments("x.ts", text)).toEqual([{ file: "x.ts", line: 2, source: "\n  query { shop { name } }\n" }]);
  });

  it("leaves out a .graphql file that only defines the app's own types (a Flow action's return type), and checks any other", () => {
    expect(findGraphqlDocuments("schema.graphql", 'type DakiyaOutcome {\n  "One word" outcome: String!\n}\n')).toEqual([]);
    expect(findGraphqlDocuments("q.graphql", "query { shop { name } }")).toEqual([{ file: "q.graphql", line: 1, source: "query { shop { name } }" }]);
  });

  it("validates a document with the fragments defined beside it, and catches a bad fragment", () => {
    const file = "const F = `#graphql\n fragment ShopName on Shop { name }\n`;\nconst Q = `#graphql\n query { shop { ...ShopName } }\n` + F;\n";
    const found = findGraphqlDocuments("x.ts", file);
    expect(validateAdminDocument(withFragments(found[1]!, found))).toEqual([]);
    const broken = findGraphqlDocuments("y.ts", file.replace("{ name }", "{ nickname }"));
    expect(validateAdminDocument(withFragments(broken[1]!, broken)).map((error) => error.message)).toEqual(['Cannot query field "nickname" on type "Shop". Did you mean "name"?']);
  });
});
