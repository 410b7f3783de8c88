import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  GraphQLError,
  GraphQLSchema,
  NoDeprecatedCustomRule,
  parse,
  specifiedRules,
  validate,
  type IntrospectionQuery,
} from "graphql";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ADMIN_API_VERSION = "2026-10";
const SCHEMA_FILE = path.join(here, `admin_${ADMIN_API_VERSION}.json.gz`);

let cached: GraphQLSchema | undefined;

/** Shopify's published Admin API schema (introspection from @shopify/dev-mcp 1.16.0), built once per process. */
export function loadAdminSchema(): GraphQLSchema {
  if (cached) return cached;
  const introspection = JSON.parse(gunzipSync(readFileSync(SCHEMA_FILE)).toString("utf8")) as
    | IntrospectionQuery
    | { data: IntrospectionQuery };
  cached = buildClientSchema("data" in introspection ? introspection.data : introspection);
  return cached;
}

/** Parses and validates one document as Shopify would, plus a refusal of deprecated fields. */
export function validateAdminDocument(source: string): readonly GraphQLError[] {
  let document;
  try {
    document = parse(source);
  } catch (error) {
    return [error as GraphQLError];
  }
  return validate(loadAdminSchema(), document, [...specifiedRules, NoDeprecatedCustomRule]);
}
