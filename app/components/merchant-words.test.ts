import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Every word a merchant reads on an admin page comes from the locale files (app/locales/admin*.json), so that the
 * page reads whole in Hindi. This scans the pages and their components for words written into the code instead:
 * JSX text, the props Polaris shows or announces, and the same keys in the option and action objects handed to
 * Polaris. Words that are names (Dakiya, Shopify) or units stay as written.
 */

const ROOT = path.resolve(__dirname, "..");
const PAGE_FILES = [
  ...readdirSync(path.join(ROOT, "routes"))
    .filter((name) => /^app\..*\.tsx$/.test(name) || name === "app.tsx")
    .map((name) => path.join(ROOT, "routes", name)),
  ...readdirSync(path.join(ROOT, "components"))
    .filter((name) => name.endsWith(".tsx"))
    .map((name) => path.join(ROOT, "components", name)),
];

/** Props and object keys whose value a merchant reads or a screen reader says. */
const SHOWN = new Set(["label", "title", "helpText", "placeholder", "content", "accessibilityLabel", "heading", "alt", "aria-label", "aria-description", "tooltip", "emptyStateHeading", "message", "labelHidden", "prefix", "suffix", "singular", "plural", "subtitle", "action", "description", "text"]);
/** Written as they are in every language. */
const NAMES = /^(Dakiya|Shopify|COD|AWB|UPI|PDF|CSV|kg|g|cm|ID)$/;

const hasWords = (text: string) =>
  text
    .replace(/\{\w+\}/g, " ")
    .split(/[^\p{L}]+/u)
    .some((word) => word.length > 0 && !NAMES.test(word));

interface Finding {
  file: string;
  line: number;
  text: string;
}

function wordsWrittenIn(file: string, code = readFileSync(file, "utf8")): Finding[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) => {
    if (hasWords(text)) findings.push({ file: path.relative(ROOT, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim().slice(0, 80) });
  };
  /** The literal text a value is written with, where it is written in the code. */
  const literalsIn = (node: ts.Node): ts.Node[] => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
    if (ts.isTemplateExpression(node)) return [node.head, ...node.templateSpans.map((span) => span.literal)];
    if (ts.isParenthesizedExpression(node)) return literalsIn(node.expression);
    if (ts.isConditionalExpression(node)) return [...literalsIn(node.whenTrue), ...literalsIn(node.whenFalse)];
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.PlusToken].includes(node.operatorToken.kind)) return [...literalsIn(node.left), ...literalsIn(node.right)];
    if (ts.isJsxExpression(node) && node.expression) return literalsIn(node.expression);
    return [];
  };
  const textOf = (node: ts.Node) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : (node as ts.TemplateLiteralLikeNode).text);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) for (const literal of literalsIn(node.expression)) report(literal, textOf(literal));
    else if (ts.isJsxAttribute(node) && node.initializer && SHOWN.has(node.name.getText(source))) for (const literal of literalsIn(node.initializer)) report(literal, textOf(literal));
    else if (ts.isPropertyAssignment(node) && SHOWN.has(node.name.getText(source).replace(/["']/g, ""))) for (const literal of literalsIn(node.initializer)) report(literal, textOf(literal));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

describe("the admin's words", () => {
  it("are all in the locale files: no page or component writes a word a merchant reads into its code", () => {
    expect(PAGE_FILES.length).toBeGreaterThan(15);
    const findings = PAGE_FILES.flatMap((file) => wordsWrittenIn(file));
    expect(findings.map(({ file, line, text }) => `${file}:${line} ${text}`)).toEqual([]);
  });

  it("finds a word written into a page wherever Polaris would show it, and lets names, symbols and the files' words be", () => {
    const sample = path.join(ROOT, "routes", "app.sample.tsx");
    const code = [
      "const t = useAdminStrings().orders;",
      "export default function Sample({ busy, count }) {",
      "  return (",
      '    <Page title="Orders" backAction={{ content: t.back, url: "/app" }}>',
      '      <Banner tone="warning" title={busy ? t.busy : "Try again"} action={{ content: `Ship ${count} orders` }}>',
      "        Nothing to ship",
      "        {t.empty} — Dakiya · ₹",
      '        {count === 1 ? "order" : t.orders}',
      "      </Banner>",
      '      <Select label={t.mode} options={[{ label: "Sandbox", value: "sandbox" }, { label: t.own, value: "own" }]} />',
      '      <Text as="h2" variant="headingMd">{t.heading}</Text>',
      "    </Page>",
      "  );",
      "}",
    ].join("\n");
    expect(wordsWrittenIn(sample, code).map(({ line, text }) => `${line} ${text}`)).toEqual(["4 Orders", "5 Try again", "5 Ship", "5 orders", "6 Nothing to ship", "8 order", "10 Sandbox"]);
  });
});
