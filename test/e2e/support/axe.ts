import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";
import { expect } from "vitest";

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

/** One page's audit: its document title, its main landmarks and what axe found (see `auditPage`). */
export interface PageAudit {
  title: string;
  mainLandmarks: number;
  violations: AxeViolation[];
}

/**
 * The document's title, its main landmarks and axe's serious and critical findings, for one comparison; and, whatever
 * axe rates them, content outside any landmark and headings that skip a level, which leave a screen reader's
 * landmark and heading lists incomplete.
 */
export async function auditPage(target: Page | Frame): Promise<PageAudit> {
  return { title: await target.title(), mainLandmarks: await target.getByRole("main").count(), violations: await seriousViolations(target, ["region", "heading-order"]) };
}

/** The audit of a page that passes: titled `title`, one main landmark, no violation. */
export const passingAudit = (title: string | RegExp) => ({ title: expect.stringMatching(title), mainLandmarks: 1, violations: [] });
