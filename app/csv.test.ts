import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvEncodingError, CsvFormatError, CsvReader, csvField, csvLine, csvRecordBatches, type CsvRecord } from "./csv";

const readAll = (text: string, limits = {}): CsvRecord[] => {
  const reader = new CsvReader(limits);
  return [...reader.push(text), ...reader.end()];
};

const bytesOf = async function* (...chunks: (string | Uint8Array)[]) {
  for (const chunk of chunks) yield typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
};

describe("reading an uploaded CSV file", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, numbering records as a spreadsheet numbers rows", () => {
    const text = '\uFEFFAWB,Note,Amount\r\n123,"Left at ""gate"", Pune",1299.50\r\n456,"two\nlines",10\n\n789,,0\n';
    expect(readAll(text)).toEqual([
      { row: 1, fields: ["AWB", "Note", "Amount"] },
      { row: 2, fields: ["123", 'Left at "gate", Pune', "1299.50"] },
      { row: 3, fields: ["456", "two\nlines", "10"] },
      { row: 5, fields: ["789", "", "0"] },
    ]);
  });

  it("takes the delimiter from the first line: semicolons and tabs as well as commas", () => {
    expect(readAll("awb;amount\n1;2,5\n").map((record) => record.fields)).toEqual([["awb", "amount"], ["1", "2,5"]]);
    expect(readAll("awb\tamount\r\n1\t2\r\n").map((record) => record.fields)).toEqual([["awb", "amount"], ["1", "2"]]);
  });

  it("reads the same records however the text is cut into pieces", () => {
    // eslint-disable-next-line no-control-regex -- fields free of the control characters the reader refuses
    const field = fc.oneof(fc.string({ maxLength: 6 }).filter((value) => !/["\r\n,;\t]/.test(value) && !/[\u0000-\u001F\u007F]/.test(value)), fc.string({ maxLength: 6 }).map((value) => `"${value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").replace(/"/g, '""')}"`));
    const record = fc.array(field, { minLength: 2, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), fc.constantFrom("\n", "\r\n", "\r"), fc.array(fc.nat(40), { maxLength: 8 }), (records, newline, cuts) => {
        const text = `h1,h2${newline}${records.map((fields) => fields.join(",")).join(newline)}${newline}`;
        const whole = readAll(text);
        const reader = new CsvReader();
        const pieces: CsvRecord[] = [];
        let start = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          pieces.push(...reader.push(text.slice(start, Math.max(start, cut))));
          start = Math.max(start, cut);
        }
        pieces.push(...reader.push(text.slice(start)), ...reader.end());
        expect(pieces).toEqual(whole);
      }),
    );
  });

  it("refuses what breaks the format, naming the row and why", () => {
    const problem = (text: string, limits = {}) => {
      try {
        readAll(text, limits);
      } catch (error) {
        if (error instanceof CsvFormatError) return { row: error.row, code: error.code };
        throw error;
      }
      return null;
    };
    expect(problem('a,b\n1,"open\n')).toEqual({ row: 2, code: "unclosed_quote" });
    expect(problem('a,b\n1,2\n"x"y,3\n')).toEqual({ row: 3, code: "text_after_quote" });
    expect(problem("a,b\n1,2,3,4\n", { maxFields: 3 })).toEqual({ row: 2, code: "too_many_fields" });
    expect(problem(`a,b\n1,${"x".repeat(51)}\n`, { maxFieldLength: 50 })).toEqual({ row: 2, code: "field_too_long" });
    expect(problem("a,b\n1,2\n3,4\n5,6\n", { maxRecords: 3 })).toEqual({ row: 4, code: "too_many_rows" });
    expect(problem("a,b\n1,\u0000\n")).toEqual({ row: 2, code: "control_character" });
    expect(problem("a,b\n1,2")).toBeNull();
  });

  it("does not hold an endless record while waiting for its end", () => {
    const reader = new CsvReader({ maxFieldLength: 10, maxFields: 3 });
    reader.push("a,b,c\n");
    expect(() => reader.push("x".repeat(100))).toThrow(CsvFormatError);
  });

  it("reads bytes in batches as they arrive, a character split between chunks included, and refuses text that is not UTF-8", async () => {
    const rupee = new TextEncoder().encode("₹");
    const batches: CsvRecord[][] = [];
    let bytes = 0;
    for await (const batch of csvRecordBatches(bytesOf("note,n\n", rupee.slice(0, 1), rupee.slice(1), ",1\nb,2\nc,3\n"), { batchSize: 2, onBytes: (chunk) => (bytes += chunk.byteLength) })) batches.push(batch);
    expect(batches.map((batch) => batch.map((record) => record.fields[0]))).toEqual([["note", "₹"], ["b", "c"]]);
    expect(bytes).toBe(new TextEncoder().encode("note,n\n₹,1\nb,2\nc,3\n").byteLength);
    const latin1 = new Uint8Array([0x61, 0x2c, 0x62, 0x0a, 0xa3, 0x31, 0x0a]);
    await expect(async () => {
      for await (const batch of csvRecordBatches(bytesOf(latin1))) void batch;
    }).rejects.toThrow(CsvEncodingError);
  });
});

describe("writing CSV for spreadsheets", () => {
  it("puts a formula behind an apostrophe and quotes what must be quoted", () => {
    expect(["=HYPERLINK(1)", "+91", "-5", "@SUM", "\tx", 'say "hi", ok', "plain"].map(csvField)).toEqual(["'=HYPERLINK(1)", "'+91", "'-5", "'@SUM", "'\tx", '"say ""hi"", ok"', "plain"]);
    expect(csvLine(["a", "b,c"])).toBe('a,"b,c"\r\n');
  });

  it("what it writes reads back as the same text, behind the apostrophe for a formula", () => {
    fc.assert(
      // eslint-disable-next-line no-control-regex -- text free of the control characters the reader refuses
      fc.property(fc.array(fc.string({ maxLength: 12 }).map((value) => value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\r]/g, "")), { minLength: 1, maxLength: 5 }), (fields) => {
        // Under a header of commas, as every file Dakiya writes has.
        const [, record] = readAll(`h,h\r\n${csvLine(fields)}`);
        expect(record?.fields ?? [""]).toEqual(fields.map((value) => (/^[=+\-@\t]/.test(value) ? `'${value}` : value)));
      }),
    );
  });
});
