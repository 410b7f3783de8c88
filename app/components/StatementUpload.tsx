import { useRevalidator } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, Card, DropZone, InlineGrid, Link, List, ProgressBar, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import { CsvReader } from "~/csv";
import { fill } from "~/locales/admin-language";
import { chooseMapping, mappingProblems, REQUIRED_FIELDS, STATEMENT_FIELDS, type ColumnMapping, type StatementField, type StatementKind } from "~/reconciliation/statement-columns";
import { STATEMENT_MAX_MEGABYTES, uploadAnswerWords, type UploadAnswer } from "~/reconciliation/upload-answers";
import { STATEMENT_MAX_BYTES } from "~/reconciliation/upload-limits";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatDate } from "./formatting";

/** The first line of a CSV file, read in the browser: its headers, for choosing the columns before anything is sent. */
async function headersOf(file: File): Promise<string[]> {
  const reader = new CsvReader({ maxFields: 60, maxFieldLength: 500 });
  const start = await file.slice(0, 64 * 1024).text();
  const [first] = [...reader.push(start), ...(start.length < 64 * 1024 ? reader.end() : [])];
  return (first?.fields ?? []).map((header) => header.trim());
}

type Phase = { kind: "idle" } | { kind: "sending"; percent: number } | { kind: "checking" } | { kind: "answered"; answer: UploadAnswer } | { kind: "failed" };

/**
 * Uploading an aggregator's statement: the file chosen, its columns suggested (the mapping remembered from the last
 * file, else what its headers say) and changeable, then sent as it is — streamed, with a progress bar — and the
 * server's answer shown: what was imported, or each refused row and why, or the columns to choose.
 */
export function StatementUpload({ kind, uploadUrl, remembered, statementUrl, timeZone }: { kind: StatementKind; uploadUrl: string; remembered: ColumnMapping | null; statementUrl?: (id: number) => string; timeZone: string }) {
  const strings = useAdminStrings();
  const language = useAdminLanguage();
  const t = strings.reconciliation.upload;
  const shopify = useAppBridge();
  const revalidator = useRevalidator();
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const fields = STATEMENT_FIELDS[kind];

  const choose = async (files: File[]) => {
    const chosen = files[0];
    if (!chosen) return;
    setFile(chosen);
    setPhase({ kind: "idle" });
    const found = await headersOf(chosen).catch(() => []);
    setHeaders(found);
    setMapping(chooseMapping(kind, found, { remembered }));
  };

  const send = async () => {
    if (!file) return;
    if (file.size > STATEMENT_MAX_BYTES) return setPhase({ kind: "answered", answer: { outcome: "too_large", limitBytes: STATEMENT_MAX_BYTES } });
    setPhase({ kind: "sending", percent: 0 });
    const token = await shopify.idToken();
    const url = `${uploadUrl}?${new URLSearchParams({ name: file.name, columns: JSON.stringify(mapping) })}`;
    // XMLHttpRequest rather than fetch: only it tells how much of the file has gone, for the progress bar.
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("Authorization", `Bearer ${token}`);
    request.setRequestHeader("Content-Type", "text/csv");
    request.upload.onprogress = (event) => event.lengthComputable && setPhase({ kind: "sending", percent: Math.round((100 * event.loaded) / event.total) });
    request.upload.onload = () => setPhase({ kind: "checking" });
    request.onerror = () => setPhase({ kind: "failed" });
    request.onload = () => {
      try {
        const answer = JSON.parse(request.responseText) as UploadAnswer;
        if (!("outcome" in answer) || answer.outcome === ("bad_request" as string)) throw new Error("not an answer");
        setPhase({ kind: "answered", answer });
        if (answer.outcome === "needs_columns") {
          setHeaders(answer.headers);
          setMapping(answer.suggested);
        }
        if (answer.outcome === "imported") revalidator.revalidate();
      } catch {
        setPhase({ kind: "failed" });
      }
    };
    request.send(file);
  };

  const problems = headers.length > 0 ? mappingProblems(kind, headers, mapping) : [];
  const busy = phase.kind === "sending" || phase.kind === "checking";
  const answer = phase.kind === "answered" ? phase.answer : null;
  const words = answer ? uploadAnswerWords(answer, strings, language, { formatDate: (iso) => formatDate(iso, timeZone, language) }) : null;
  const required = new Set<StatementField>(REQUIRED_FIELDS[kind]);
  const columnOptions = [{ label: t.notInFile, value: "" }, ...headers.map((header) => ({ label: header || "—", value: header }))];

  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {t.heading[kind]}
        </Text>
        <Text as="p" tone="subdued">
          {t.intro[kind]}
        </Text>
        <DropZone label={t.choose} accept=".csv,text/csv" type="file" allowMultiple={false} onDrop={(dropped: File[]) => void choose(dropped)} disabled={busy}>
          {file ? (
            <div style={{ padding: "var(--p-space-400)" }}>
              <Text as="p">{fill(t.file, { name: file.name, size: `${Math.max(1, Math.round(file.size / 1024)).toLocaleString(language === "hi" ? "hi-IN" : "en-IN")} KB` })}</Text>
            </div>
          ) : (
            <DropZone.FileUpload />
          )}
        </DropZone>
        {headers.length > 0 ? (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t.columnsHeading}
            </Text>
            <Text as="p" tone="subdued">
              {t.columnsHelp}
            </Text>
            <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
              {fields.map((field) => (
                <Select
                  key={field}
                  label={t.fields[field]}
                  options={columnOptions}
                  value={mapping[field] ?? ""}
                  disabled={busy}
                  requiredIndicator={required.has(field)}
                  onChange={(value) => setMapping((current) => ({ ...current, [field]: value || undefined }))}
                />
              ))}
            </InlineGrid>
          </BlockStack>
        ) : null}
        {phase.kind === "sending" || phase.kind === "checking" ? (
          <BlockStack gap="100">
            <Text as="p" id={`${kind}-progress`}>
              {phase.kind === "sending" ? fill(t.progress, { name: file?.name ?? "" }) : t.checking}
            </Text>
            <ProgressBar progress={phase.kind === "sending" ? phase.percent : 100} ariaLabelledBy={`${kind}-progress`} animated={phase.kind === "checking"} />
          </BlockStack>
        ) : null}
        {phase.kind === "failed" ? <Banner tone="critical">{t.outcomes.failed}</Banner> : null}
        {answer && words ? (
          <Banner tone={answer.outcome === "imported" ? "success" : answer.outcome === "already_imported" || answer.outcome === "needs_columns" ? "info" : "critical"}>
            <BlockStack gap="200">
              <Text as="p">{words.message}</Text>
              {words.details.length > 0 ? (
                <List>
                  {words.details.map((detail) => (
                    <List.Item key={detail}>{detail}</List.Item>
                  ))}
                </List>
              ) : null}
              {(answer.outcome === "imported" || answer.outcome === "already_imported") && statementUrl ? <Link url={statementUrl(answer.statementId)}>{t.outcomes.open}</Link> : null}
            </BlockStack>
          </Banner>
        ) : null}
        <div>
          <Button variant="primary" onClick={() => void send()} disabled={!file || problems.length > 0 || busy} loading={busy}>
            {t.import}
          </Button>
        </div>
        {file && file.size > STATEMENT_MAX_BYTES ? <Text as="p" tone="critical">{fill(t.outcomes.tooLarge, { size: STATEMENT_MAX_MEGABYTES })}</Text> : null}
      </BlockStack>
    </Card>
  );
}
