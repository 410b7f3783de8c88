import { readdirSync, readFileSync, statSync } from "node:fs";
import { Kind, parse, visit } from "graphql";
import path from "node:path";
import { ADMIN_API_VERSION, validateAdminDocument } from "../graphql/admin-schema";

export interface FoundDocument {
  file: string;
  line: number;
  source: string;
}

/**
 * A .graphql file that only defines types (a Flow action's return type, extensions/flow/*\/schema.graphql): a
 * schema of the app's own, not a request to Shopify.
 */
function definesTypesOnly(text: string): boolean {
  try {
    const { definitions } = parse(text);
    return definitions.length > 0 && definitions.every((definition) => definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.ENUM_TYPE_DEFINITION || definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || definition.kind === Kind.SCALAR_TYPE_DEFINITION);
  } catch {
    return false;
  }
}

/** GraphQL documents in source: `#graphql`-tagged template literals and .graphql files (type definitions aside). */
export function findGraphqlDocuments(file: string, text: string): FoundDocument[] {
  if (file.endsWith(".graphql")) return definesTypesOnly(text) ? [] : [{ file, line: 1, source: text }];
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

const isFragment = (source: string) => source.trim().startsWith("fragment ");

/**
 * A document as it is sent: the fragments it spreads are defined in their own literals in the same
 * file and concatenated at run time, so they are appended here, transitively.
 */
export function withFragments(document: FoundDocument, fileDocuments: readonly FoundDocument[]): string {
  const fragments = new Map<string, string>();
  for (const candidate of fileDocuments.filter((found) => isFragment(found.source))) {
    for (const definition of parse(candidate.source).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, candidate.source);
    }
  }
  const included = new Set<string>();
  const pending = [document.source];
  while (pending.length > 0) {
    let tree;
    try {
      tree = parse(pending.pop()!);
    } catch {
      continue;
    }
    visit(tree, {
      FragmentSpread(node) {
        const source = fragments.get(node.name.value);
        if (source && !included.has(source)) {
          included.add(source);
          pending.push(source);
        }
      },
    });
  }
  return [document.source, ...included].join("\n");
}

/** Where the app's documents live: the server, and the admin extensions' `shopify.query` calls. */
const SOURCE_DIRS = ["app", "extensions"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (entry === "node_modules" || entry === "dist") continue;
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|graphql)$/.test(entry) && !/\.test\.tsx?$/.test(entry)) yield full;
  }
}

function main(): number {
  let documents = 0;
  const failures: string[] = [];
  for (const file of SOURCE_DIRS.flatMap((dir) => [...sourceFiles(dir)])) {
    const found = findGraphqlDocuments(file, readFileSync(file, "utf8"));
    for (const document of found.filter((candidate) => !isFragment(candidate.source))) {
      documents += 1;
      for (const error of validateAdminDocument(withFragments(document, found))) {
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
  console.log(`GraphQL: ${documents} document(s) in ${SOURCE_DIRS.join("/, ")}/ validate against the Admin API ${ADMIN_API_VERSION} schema.`);
  return 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) process.exit(main());
