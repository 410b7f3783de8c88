import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Machine } from "./machine";
import type { Row, Section } from "./results";

export interface Report {
  command: string;
  startedAt: Date;
  seconds: number;
  machine: Machine;
  sections: Section[];
  /** Measurements registered but not built yet, with what they will measure. */
  planned: { title: string; what: string }[];
  /** Markdown kept by hand (bench/findings.md): bottlenecks found and what would fix them. */
  findings?: string;
  /** The summary of the report this one replaces, so each figure is read beside the last one written. */
  previous?: PreviousSummary;
}

export interface PreviousSummary {
  date: string;
  /** Result by "section: measurement", as the summary table printed them. */
  results: Map<string, string>;
}

/** The date and summary figures of a report written earlier, or undefined when there is none to read. */
export function readPreviousSummary(file: string): PreviousSummary | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const date = /^- \*\*Date:\*\* (\S+ \S+) UTC/m.exec(text)?.[1];
  const summary = text.split(/^## Summary$/m)[1]?.split(/^## /m)[0];
  if (!date || !summary) return undefined;
  const results = new Map<string, string>();
  for (const line of summary.split("\n")) {
    // Cells are split on pipes the writer did not escape.
    const cells = line.startsWith("| ") ? line.slice(2, -2).split(/(?<!\\) \| /).map((part) => part.replace(/\\\|/g, "|")) : [];
    if (cells.length >= 2 && cells[0] !== "measurement" && !cells[0]!.startsWith("---")) results.set(cells[0]!, cells[1]!);
  }
  return { date, results };
}

export function readFindings(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - [...text].length));

/** The summary as a plain-text table for the terminal. */
export function consoleTable(report: Report): string {
  const rows: string[][] = [["", "measurement", "result", "floor / limit (same run)", "target", ""]];
  for (const section of report.sections) {
    for (const row of section.rows) rows.push([section.title, row.name, row.result, row.reference, row.target, row.verdict]);
  }
  const widths = rows[0]!.map((_, column) => Math.min(column === 0 ? 22 : 60, Math.max(...rows.map((row) => [...row[column]!].length))));
  const lines = rows.map((row) => row.map((cell, column) => pad(cell.length > widths[column]! ? `${cell.slice(0, widths[column]! - 1)}…` : cell, widths[column]!)).join("  "));
  lines.splice(1, 0, widths.map((width) => "─".repeat(width)).join("  "));
  const failed = report.sections.flatMap((section) => section.rows).filter((row) => row.verdict === "FAIL").length;
  lines.push("", `${failed === 0 ? "Every target met" : `${failed} target(s) missed`} — ${report.seconds.toFixed(0)} s in all. Details: docs/BENCHMARKS.md`);
  return lines.join("\n");
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const tableRow = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;

function summaryTable(rows: Row[], previous?: PreviousSummary): string[] {
  const header = ["measurement", "result", "floor / limit (same run)", "target", "verdict"];
  const cells = (row: Row) => [row.name, row.result, row.reference, row.target, `**${row.verdict}**`];
  if (!previous) return [tableRow(header), `|${" --- |".repeat(header.length)}`, ...rows.map((row) => tableRow(cells(row)))];
  const before = [...header.slice(0, 2), `previous run (${previous.date})`, ...header.slice(2)];
  return [
    tableRow(before),
    `|${" --- |".repeat(before.length)}`,
    ...rows.map((row) => {
      const now = cells(row);
      return tableRow([...now.slice(0, 2), previous.results.get(row.name) ?? "(not measured)", ...now.slice(2)]);
    }),
  ];
}

/** docs/BENCHMARKS.md: machine, date, command, then each section with its method, figures, details and notes. */
export function markdown(report: Report): string {
  const { machine } = report;
  const out: string[] = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand — run it again. Every figure sits beside a floor",
    "or limit measured in the same run on the same machine, so a slow machine shows as slow floors rather than as",
    "a regression. How each is measured, and how to add a measurement: `bench/README.md`.",
    "",
    `- **Command:** \`${report.command}\``,
    `- **Date:** ${report.startedAt.toISOString().replace("T", " ").slice(0, 16)} UTC (${report.seconds.toFixed(0)} s in all)`,
    `- **CPU:** ${machine.cpu}, ${machine.cores} cores; **memory** ${machine.memoryGiB} GiB; ${machine.os}`,
    `- **Node** ${machine.node}; **PostgreSQL** ${machine.postgres}`,
    `- **Database:** ${machine.databaseStorage}; ${machine.databaseSettings}`,
    `- **Load average at the start:** ${machine.load} (the load generator, the server, PostgreSQL and the browser share these cores)`,
    "",
    "## Summary",
    "",
    ...summaryTable(
      report.sections.flatMap((section) => section.rows.map((row) => ({ ...row, name: `${section.title}: ${row.name}` }))),
      report.previous,
    ),
    "",
  ];
  for (const section of report.sections) {
    out.push(`## ${section.title}`, "", section.method, "", ...summaryTable(section.rows), "");
    for (const detail of section.details) {
      out.push(`**${detail.title}**`, "", tableRow(detail.header), `| ${detail.header.map(() => "---").join(" | ")} |`, ...detail.rows.map(tableRow), "");
    }
    for (const note of section.notes) out.push(`- ${note}`);
    if (section.notes.length > 0) out.push("");
  }
  if (report.findings) out.push("## Bottlenecks and what would fix them", "", report.findings, "");
  if (report.planned.length > 0) {
    out.push("## Not measured yet", "");
    for (const planned of report.planned) out.push(`- **${planned.title}**: ${planned.what}`);
    out.push("");
  }
  return out.join("\n");
}

export function writeReport(report: Report, file: string): void {
  writeFileSync(file, markdown(report));
}
