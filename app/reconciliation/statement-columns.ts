/**
 * The columns of the aggregator's statements, and which of a file's headers holds each. Aggregators' panels name them
 * differently ("AWB No", "awb_code", "Airway Bill"); the common names are recognised, and whatever the merchant maps
 * once is remembered for the next file. Pure: the page suggests a mapping from a file's first line with the same rules
 * the server applies.
 */

export const STATEMENT_KINDS = ["remittance", "invoice"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export const isStatementKind = (value: unknown): value is StatementKind => (STATEMENT_KINDS as readonly unknown[]).includes(value);

export const REMITTANCE_FIELDS = ["awb", "orderId", "amount", "reference", "remittedOn"] as const;
export const INVOICE_FIELDS = ["awb", "orderId", "chargedWeight", "chargedAmount", "chargedOn"] as const;
export type RemittanceField = (typeof REMITTANCE_FIELDS)[number];
export type InvoiceField = (typeof INVOICE_FIELDS)[number];
export type StatementField = RemittanceField | InvoiceField;

export const STATEMENT_FIELDS: Readonly<Record<StatementKind, readonly StatementField[]>> = { remittance: REMITTANCE_FIELDS, invoice: INVOICE_FIELDS };

/**
 * Which fields a file must have: a remittance names its parcel by awb or by order id (at least one of the two
 * columns), and says how much and under which bank reference; a freight charge is for an awb, at a weight and a price.
 */
export const REQUIRED_FIELDS: Readonly<Record<StatementKind, readonly StatementField[]>> = { remittance: ["amount", "reference"], invoice: ["awb", "chargedWeight", "chargedAmount"] };

/** The headers recognised for each field, as normalised by `normaliseHeader`, most specific first. */
const SYNONYMS: Readonly<Record<StatementField, readonly string[]>> = {
  awb: ["awb", "awb no", "awb number", "awb code", "awb num", "airway bill", "airway bill no", "airway bill number", "air waybill", "waybill", "waybill no", "tracking number", "tracking no", "tracking id"],
  orderId: ["order id", "order no", "order number", "channel order id", "channel order no", "order reference", "order ref", "reference order id", "order"],
  // What reached the merchant's bank comes before what the courier collected: a file with both ("COD Amount",
  // "Deductions", "Remitted Amount") is judged on the money remitted, so a deduction shows as short.
  amount: ["remitted amount", "remittance amount", "amount remitted", "cod remitted", "net remitted", "net remittance", "net amount", "net payable", "cod amount", "collected amount", "cod value", "amount"],
  reference: ["utr", "utr no", "utr number", "utr reference", "bank reference", "bank ref", "bank reference no", "crf id", "remittance id", "remittance reference", "transaction id", "reference no", "reference number", "reference", "neft reference"],
  remittedOn: ["remittance date", "remitted on", "remitted date", "date of remittance", "payment date", "paid on", "utr date", "value date", "date"],
  chargedWeight: ["charged weight", "charged weight kg", "billed weight", "billed weight kg", "applied weight", "applied weight kg", "chargeable weight", "chargeable weight kg", "courier weight", "weight charged", "weight kg", "weight"],
  chargedAmount: ["total charges", "total charge", "charged amount", "billed amount", "freight charges", "freight charge", "freight amount", "freight", "charges", "amount", "total"],
  chargedOn: ["invoice date", "billing date", "billed on", "charged on", "date"],
};

/** A header as compared: lower case, words separated by single spaces, without punctuation or units' brackets. */
export function normaliseHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Field → the header (as the file spells it) that holds it. */
export type ColumnMapping = Partial<Record<StatementField, string>>;

/** The fields of a kind the file's headers name in words Dakiya knows; each header used once. */
export function recogniseColumns(kind: StatementKind, headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const used = new Set<string>();
  const byName = new Map(headers.map((header) => [normaliseHeader(header), header] as const).reverse());
  // A field with fewer ways of being named picks first, so a bare "amount" or "date" goes to the field it must.
  for (const field of [...STATEMENT_FIELDS[kind]].sort((a, b) => SYNONYMS[a].length - SYNONYMS[b].length)) {
    const header = SYNONYMS[field].map((name) => byName.get(name)).find((found) => found !== undefined && !used.has(found));
    if (header !== undefined) {
      mapping[field] = header;
      used.add(header);
    }
  }
  return mapping;
}

export type MappingProblem = { code: "missing_field"; field: StatementField } | { code: "missing_awb_or_order" } | { code: "unknown_header"; field: StatementField; header: string } | { code: "header_twice"; header: string };

/** What keeps a mapping from reading the file: a required field unmapped, a header the file does not have, one header for two fields. */
export function mappingProblems(kind: StatementKind, headers: readonly string[], mapping: ColumnMapping): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const fields = STATEMENT_FIELDS[kind];
  for (const field of REQUIRED_FIELDS[kind]) if (!mapping[field]) problems.push({ code: "missing_field", field });
  if (kind === "remittance" && !mapping.awb && !mapping.orderId) problems.push({ code: "missing_awb_or_order" });
  const seen = new Set<string>();
  for (const field of fields) {
    const header = mapping[field];
    if (!header) continue;
    if (!headers.includes(header)) problems.push({ code: "unknown_header", field, header });
    else if (seen.has(header)) problems.push({ code: "header_twice", header });
    seen.add(header);
  }
  return problems;
}

/**
 * The mapping to read a file with: the one the merchant chose for this file, else the one remembered from the last
 * file when every header it names is in this one, else what the headers say by themselves.
 */
export function chooseMapping(kind: StatementKind, headers: readonly string[], { chosen, remembered }: { chosen?: ColumnMapping | null; remembered?: ColumnMapping | null }): ColumnMapping {
  if (chosen && Object.keys(chosen).length > 0) return onlyFieldsOf(kind, chosen);
  if (remembered && Object.values(remembered).every((header) => header === undefined || headers.includes(header))) {
    const recalled = onlyFieldsOf(kind, remembered);
    if (mappingProblems(kind, headers, recalled).length === 0) return recalled;
  }
  return recogniseColumns(kind, headers);
}

/** A mapping's fields of this kind, each to a header of at most 200 characters. */
export function onlyFieldsOf(kind: StatementKind, mapping: unknown): ColumnMapping {
  if (!mapping || typeof mapping !== "object") return {};
  const kept: ColumnMapping = {};
  for (const field of STATEMENT_FIELDS[kind]) {
    const header = (mapping as Record<string, unknown>)[field];
    if (typeof header === "string" && header.length > 0 && header.length <= 200) kept[field] = header;
  }
  return kept;
}
