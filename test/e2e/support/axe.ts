import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

/**
 * axe-core (the npm package, nothing fetched) run in a page or the app's frame: the WCAG 2.x A/AA rules and best
 * practices, with the violations a screen reader or keyboard user would trip on — impact "serious" or "critical".
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** The first few offending elements, as selectors with their HTML. */
  nodes: string[];
}

/**
 * The serious and critical violations in the document of `target` (a page's main frame or the app's iframe), and
 * those of the rules named in `alsoRules` whatever their impact.
 */
export async function seriousViolations(target: Page | Frame, alsoRules: string[] = []): Promise<AxeViolation[]> {
  if (!(await target.evaluate(() => "axe" in window))) await target.evaluate(AXE_SOURCE);
  return target.evaluate(async (also) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; html: string }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical" || also.includes(violation.id))
      .map((violation) => ({ id: violation.id, impact: violation.impact!, help: violation.help, nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}: ${node.html.slice(0, 200)}`) }));
  }, alsoRules);
}
