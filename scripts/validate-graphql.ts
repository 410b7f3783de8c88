import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ADMIN_API_VERSION, validateAdminDocument } from "../graphql/admin-schema";

export interface FoundDocument {
  file: string;
  line: number;
  source: string;
}

/** GraphQL documents in source: `#graphql`-tagged template literals and .graphql files. */
export function findGraphqlDocuments(file: string, text: string): FoundDocument[] {
  if (file.endsWith(".graphql")) return [{ file, line: 1, source: text }];
  const found: FoundDocument[] = [];
  const tagged = /`#graphql([\s\S]*?)`/g;
  for (let match = tagged.exec(text); match; match = tagged.exec(text)) {
    if (match[1]!.includes("${")) {
      throw new Error(`${file}: a GraphQL document must be a constant string, not a template with \${…}`);
    }
    found.push({ file, line: text.slice(0, match.index).split("\n").length, source: match[1]! });
  }
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|graphql)$/.test(entry) && !/\.test\.tsx?$/.test(entry)) yield full;
  }
}

function main(): number {
  let documents = 0;
  const failures: string[] = [];
  for (const file of sourceFiles("app")) {
    for (const document of findGraphqlDocuments(file, readFileSync(file, "utf8"))) {
      documents += 1;
      for (const error of validateAdminDocument(document.source)) {
        const line = document.line + (error.locations?.[0]?.line ?? 1) - 1;
        failures.push(`${document.file}:${line}: ${error.message}`);
      }
    }
  }
  if (failures.length > 0) {
    console.error(`GraphQL documents that Shopify's Admin API ${ADMIN_API_VERSION} would refuse:`);
    for (const failure of failures) console.error(`  ${failure}`);
    return 1;
  }
  console.log(`GraphQL: ${documents} document(s) in app/ validate against the Admin API ${ADMIN_API_VERSION} schema.`);
  return 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) process.exit(main());
