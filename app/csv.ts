/**
 * CSV both ways, for the files merchants move between Dakiya and their spreadsheets. Pure: no I/O of its own.
 *
 * Writing: every field Dakiya exports goes through `csvField`, which neutralises formulas (a cell a spreadsheet
 * would run) and quotes what needs quoting.
 *
 * Reading: files a merchant uploads (a courier's statement) are untrusted. `CsvReader` takes the text in pieces as it
 * arrives and hands back whole records, so a file of any length is read holding one record at a time; every record,
 * field and file has a bound, and a record that breaks the format is named by its row with the reason. Records
 * follow RFC 4180 (quoted fields may hold commas, quotes as "" and line breaks; CRLF, LF or CR end a record), with a
 * byte-order mark allowed and the delimiter (comma, semicolon or tab) taken from the first line.
 */

/** A field as CSV wants it; a leading =, +, - or @ (or tab, carriage return) is put behind an apostrophe so a spreadsheet never runs it. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A line of fields, ended as spreadsheets expect (CRLF). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(",")}\r\n`;

export interface CsvLimits {
  /** Characters in one field. */
  maxFieldLength: number;
  /** Fields in one record. */
  maxFields: number;
  /** Records in the file, the header included. */
  maxRecords: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = { maxFieldLength: 1_000, maxFields: 100, maxRecords: 1_000_000 };

/** One record of the file: its row (the first record is row 1, as a spreadsheet numbers it) and its fields. */
export interface CsvRecord {
  row: number;
  fields: string[];
}

export type CsvProblemCode = "field_too_long" | "too_many_fields" | "too_many_rows" | "text_after_quote" | "unclosed_quote" | "control_character";

/** Why a file cannot be read as CSV, at which row. */
export class CsvFormatError extends Error {
  override name = "CsvFormatError";
  constructor(
    readonly row: number,
    readonly code: CsvProblemCode,
    message: string,
  ) {
    super(`Row ${row}: ${message}`);
  }
}

const DELIMITERS = [",", ";", "\t"] as const;

/** The delimiter a file's first line uses most, outside quotes: comma when it has none of them. */
function delimiterOf(firstLine: string): string {
  let best = ",";
  let most = 0;
  for (const candidate of DELIMITERS) {
    let count = 0;
    let quoted = false;
    for (const char of firstLine) {
      if (char === '"') quoted = !quoted;
      else if (!quoted && char === candidate) count += 1;
    }
    if (count > most) [best, most] = [candidate, count];
  }
  return best;
}

// NUL and the other C0 controls but tab, LF and CR: never in a statement's text, and a sign of a binary file.
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Reads CSV text handed to it in pieces (`push`), giving back each record as soon as it is whole; `end` gives the
 * last. Throws CsvFormatError naming the row of the first record it cannot read.
 */
export class CsvReader {
  private readonly limits: CsvLimits;
  private delimiter: string | null = null;
  /** Text received and not yet made into records: at most one unfinished record. */
  private pending = "";
  private row = 0;
  private started = false;

  constructor(limits: Partial<CsvLimits> = {}) {
    this.limits = { ...DEFAULT_CSV_LIMITS, ...limits };
  }

  push(text: string): CsvRecord[] {
    this.pending += text;
    if (!this.started) {
      if (this.pending.length === 0) return [];
      if (this.pending.charCodeAt(0) === 0xfeff) this.pending = this.pending.slice(1);
      this.started = true;
    }
    if (this.delimiter === null) {
      const end = this.pending.search(/[\r\n]/);
      // The delimiter is read off the whole first line; a first line longer than any record may be is refused below.
      if (end === -1 && this.pending.length <= this.limits.maxFieldLength * this.limits.maxFields) return [];
      this.delimiter = delimiterOf(end === -1 ? this.pending : this.pending.slice(0, end));
    }
    return this.take(false);
  }

  end(): CsvRecord[] {
    if (this.delimiter === null) this.delimiter = delimiterOf(this.pending);
    return this.take(true);
  }

  /** The records whole in `pending`; at the end, the last one too. */
  private take(atEnd: boolean): CsvRecord[] {
    const records: CsvRecord[] = [];
    const text = this.pending;
    const delimiter = this.delimiter!;
    const { maxFieldLength, maxFields } = this.limits;
    let position = 0;
    for (;;) {
      const parsed = this.record(text, position, delimiter, atEnd);
      if (parsed === null) break;
      position = parsed.next;
      this.row += 1;
      if (this.row > this.limits.maxRecords) throw new CsvFormatError(this.row, "too_many_rows", `the file has more than ${this.limits.maxRecords} rows`);
      // A blank line is nothing (a file's last line break, a spreadsheet's trailing empty rows).
      if (!(parsed.fields.length === 1 && parsed.fields[0] === "")) records.push({ row: this.row, fields: parsed.fields });
      if (position >= text.length) break;
    }
    this.pending = text.slice(position);
    // An unfinished record longer than any record may be: refused now, rather than held growing.
    if (this.pending.length > maxFieldLength * maxFields + maxFields) throw new CsvFormatError(this.row + 1, "field_too_long", `a field is longer than ${maxFieldLength} characters`);
    return records;
  }

  /**
   * One record from `start`: its fields and where the next begins, or null when the text ends before the record does
   * (and the file does not end there).
   */
  private record(text: string, start: number, delimiter: string, atEnd: boolean): { fields: string[]; next: number } | null {
    const { maxFieldLength, maxFields } = this.limits;
    const row = this.row + 1;
    const fields: string[] = [];
    let position = start;
    if (position >= text.length) return null;
    for (;;) {
      let value: string;
      if (text[position] === '"') {
        // A quoted field: up to the quote not doubled.
        let cursor = position + 1;
        let parts = "";
        for (;;) {
          const quote = text.indexOf('"', cursor);
          if (quote === -1) {
            if (!atEnd) return null;
            throw new CsvFormatError(row, "unclosed_quote", "a quoted field is never closed");
          }
          parts += text.slice(cursor, quote);
          if (parts.length > maxFieldLength) throw new CsvFormatError(row, "field_too_long", `a field is longer than ${maxFieldLength} characters`);
          if (quote + 1 >= text.length && !atEnd) return null;
          if (text[quote + 1] === '"') {
            parts += '"';
            cursor = quote + 2;
            continue;
          }
          position = quote + 1;
          break;
        }
        value = parts;
        const after = text[position];
        if (after !== undefined && after !== delimiter && after !== "\r" && after !== "\n") throw new CsvFormatError(row, "text_after_quote", "text follows a closing quote in the same field");
      } else {
        let end = position;
        while (end < text.length) {
          const char = text[end];
          if (char === delimiter || char === "\r" || char === "\n") break;
          end += 1;
        }
        if (end >= text.length && !atEnd) return null;
        value = text.slice(position, end);
        position = end;
      }
      if (value.length > maxFieldLength) throw new CsvFormatError(row, "field_too_long", `a field is longer than ${maxFieldLength} characters`);
      if (CONTROL.test(value)) throw new CsvFormatError(row, "control_character", "a field holds a control character (is this a spreadsheet saved as CSV?)");
      fields.push(value);
      if (fields.length > maxFields) throw new CsvFormatError(row, "too_many_fields", `a row has more than ${maxFields} fields`);
      const char = text[position];
      if (char === delimiter) {
        position += 1;
        // A delimiter as the text's last character: the next field may still be coming.
        if (position >= text.length && !atEnd) return null;
        continue;
      }
      if (char === undefined) return { fields, next: position };
      // CRLF: the LF may still be coming.
      if (char === "\r" && position + 1 >= text.length && !atEnd) return null;
      return { fields, next: position + (char === "\r" && text[position + 1] === "\n" ? 2 : 1) };
    }
  }
}

/** Text that is not UTF-8: a statement saved in another encoding. */
export class CsvEncodingError extends Error {
  override name = "CsvEncodingError";
}

/**
 * The records of a CSV file arriving as bytes, in batches of at most `batchSize`, as they arrive: what is held at
 * any time is one batch and one unfinished record. `onBytes` sees every chunk first (to count or hash the file).
 */
export async function* csvRecordBatches(
  source: AsyncIterable<Uint8Array>,
  { batchSize = 1_000, limits = {}, onBytes }: { batchSize?: number; limits?: Partial<CsvLimits>; onBytes?: (chunk: Uint8Array) => void } = {},
): AsyncGenerator<CsvRecord[]> {
  const reader = new CsvReader(limits);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new CsvEncodingError("The file is not UTF-8 text: save it as CSV (UTF-8) and upload it again.");
    }
  };
  let batch: CsvRecord[] = [];
  for await (const chunk of source) {
    onBytes?.(chunk);
    for (const record of reader.push(decode(chunk))) {
      batch.push(record);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  batch.push(...reader.push(decode()), ...reader.end());
  while (batch.length > 0) {
    yield batch.slice(0, batchSize);
    batch = batch.slice(batchSize);
  }
}
