import { fill, plural, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import type { MappingProblem, StatementField } from "./statement-columns";
import type { RowProblem } from "./statement-rows";
import { STATEMENT_MAX_BYTES } from "./upload-limits";

/**
 * What a statement upload answers, as JSON (the page reads it, and so can any other client), and its words in the
 * admin's language. Pure: the page words the answer it received; the route adds the English for other readers.
 */
export type UploadAnswer =
  | { outcome: "imported"; statementId: number; lineCount: number; summary: Record<string, number> }
  | { outcome: "already_imported"; statementId: number; importedAt: string; fileName: string }
  | { outcome: "refused"; problems: RowProblem[]; more: number }
  | { outcome: "unreadable"; code: keyof AdminStrings["reconciliation"]["upload"]["unreadable"]; row?: number }
  | { outcome: "needs_columns"; headers: string[]; suggested: Partial<Record<StatementField, string>>; problems: MappingProblem[] }
  | { outcome: "too_large"; limitBytes: number }
  | { outcome: "interrupted" }
  | { outcome: "busy" };

export const UPLOAD_STATUS: Readonly<Record<UploadAnswer["outcome"], number>> = {
  imported: 200,
  already_imported: 200,
  refused: 422,
  unreadable: 422,
  needs_columns: 422,
  too_large: 413,
  interrupted: 400,
  busy: 409,
};

/** One problem of a refused row, in words: "Row 12, column “COD Amount”: 1,2,3 is not an amount". */
export function rowProblemWords(problem: RowProblem, strings: AdminStrings): string {
  const t = strings.reconciliation.upload;
  const where = problem.column !== undefined ? fill(t.rowColumn, { row: problem.row, column: problem.column }) : fill(t.row, { row: problem.row });
  return `${where}: ${fill(t.problems[problem.code], problem.values ?? {})}`;
}

export function mappingProblemWords(problem: MappingProblem, strings: AdminStrings): string {
  const t = strings.reconciliation.upload;
  switch (problem.code) {
    case "missing_field":
      return fill(t.mapping.missing_field, { field: t.fields[problem.field] });
    case "missing_awb_or_order":
      return t.mapping.missing_awb_or_order;
    case "unknown_header":
      return fill(t.mapping.unknown_header, { header: problem.header });
    case "header_twice":
      return fill(t.mapping.header_twice, { header: problem.header });
  }
}

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** The answer in words: a sentence, and the lines under it (each refused row, each column to choose). */
export function uploadAnswerWords(answer: UploadAnswer, strings: AdminStrings, language: AdminLanguage, { formatDate }: { formatDate: (iso: string) => string }): { message: string; details: string[] } {
  const t = strings.reconciliation.upload.outcomes;
  switch (answer.outcome) {
    case "imported":
      return { message: plural(language, t.imported, answer.lineCount), details: [] };
    case "already_imported":
      return { message: fill(t.alreadyImported, { date: formatDate(answer.importedAt) }), details: [] };
    case "refused":
      return { message: t.refused, details: [...answer.problems.map((problem) => rowProblemWords(problem, strings)), ...(answer.more > 0 ? [plural(language, t.more, answer.more)] : [])] };
    case "unreadable":
      return { message: fill(strings.reconciliation.upload.unreadable[answer.code], { row: answer.row ?? 1 }), details: [] };
    case "needs_columns":
      return { message: t.needsColumns, details: answer.problems.map((problem) => mappingProblemWords(problem, strings)) };
    case "too_large":
      return { message: fill(t.tooLarge, { size: megabytes(answer.limitBytes) }), details: [] };
    case "interrupted":
      return { message: t.failed, details: [] };
    case "busy":
      return { message: t.busy, details: [] };
  }
}

/** The largest statement the page lets a merchant send, in MB (the server holds the same limit). */
export const STATEMENT_MAX_MEGABYTES = megabytes(STATEMENT_MAX_BYTES);
