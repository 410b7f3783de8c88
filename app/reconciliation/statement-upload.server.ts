import { adminStrings } from "~/locales/admin-language";
import { onlyFieldsOf, type ColumnMapping, type StatementKind } from "./statement-columns";
import { chunksOf, importStatement, type ImportOutcome } from "./statement-import.server";
import { UPLOAD_STATUS, uploadAnswerWords, type UploadAnswer } from "./upload-answers";

/**
 * POST of a statement file (the body is the file, as it arrives; `?name=` its name, `?columns=` the merchant's column
 * mapping as JSON): imported, and answered as JSON with the outcome, its status (200 imported or already imported,
 * 422 refused with the rows and reasons, 413 too large, 400 when the upload broke off, 409 busy) and its words in English for readers other than
 * the page, which words it in the admin's language.
 */
export async function answerStatementUpload(shop: string, kind: StatementKind, request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  // A file's name is shown back to the merchant: control characters out, and bounded.
  // eslint-disable-next-line no-control-regex -- the control characters are what it removes
  const fileName = (params.get("name") ?? "").replace(/[\u0000-\u001F\u007F]/g, "").trim().slice(0, 200) || `${kind}.csv`;
  const columnsText = params.get("columns");
  let columns: ColumnMapping | null = null;
  if (columnsText) {
    try {
      if (columnsText.length > 4_000) throw new Error("too long");
      columns = onlyFieldsOf(kind, JSON.parse(columnsText));
    } catch {
      return Response.json({ outcome: "bad_request", message: "columns must be a JSON object of fields and the file's headers." }, { status: 400 });
    }
  }
  const outcome = request.body ? await importStatement({ shop, kind, fileName, body: chunksOf(request.body), columns }) : ({ kind: "unreadable", code: "empty" } as const);
  const answer = answerOf(outcome);
  const words = uploadAnswerWords(answer, adminStrings("en"), "en", { formatDate: (iso) => iso.slice(0, 10) });
  return Response.json({ ...answer, ...words }, { status: UPLOAD_STATUS[answer.outcome], headers: { "Cache-Control": "no-store" } });
}

function answerOf(outcome: ImportOutcome): UploadAnswer {
  switch (outcome.kind) {
    case "imported":
      return { outcome: "imported", statementId: outcome.statementId, lineCount: outcome.lineCount, summary: outcome.summary };
    case "already_imported":
      return { outcome: "already_imported", statementId: outcome.statementId, importedAt: outcome.importedAt.toISOString(), fileName: outcome.fileName };
    case "refused":
      return { outcome: "refused", problems: outcome.problems, more: outcome.more };
    case "unreadable":
      return { outcome: "unreadable", code: outcome.code, ...(outcome.row === undefined ? {} : { row: outcome.row }) };
    case "needs_columns":
      return { outcome: "needs_columns", headers: outcome.headers, suggested: outcome.suggested, problems: outcome.problems };
    case "too_large":
      return { outcome: "too_large", limitBytes: outcome.limitBytes };
    case "interrupted":
      return { outcome: "interrupted" };
    case "busy":
      return { outcome: "busy" };
  }
}
