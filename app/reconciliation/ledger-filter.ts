/**
 * The COD ledger's filters, as the page's address (or the export's form) carries them, checked as untrusted input.
 * Pure: the page and the export read them alike.
 */

export const LEDGER_STATES = ["outstanding", "overdue", "awaiting", "short", "remitted", "over"] as const;
export type LedgerStateFilter = (typeof LEDGER_STATES)[number];

/** What a row of the ledger is: nothing remitted yet, part of it (short), all of it, more than it (over). */
export type LedgerState = "awaiting" | "short" | "remitted" | "over";

export interface LedgerFilter {
  state?: LedgerStateFilter;
  courier?: string;
  /** Delivered on or after / on or before (dates in the shop's time zone, YYYY-MM-DD). */
  from?: string;
  to?: string;
  /** An awb or an order's name, or the start of one. */
  search?: string;
}

export type LedgerFilterIssue = "state" | "courier" | "from" | "to" | "search" | "range";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (value: string) => DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

export function readLedgerFilter(params: URLSearchParams | FormData): { filter: LedgerFilter; issues: LedgerFilterIssue[] } {
  const text = (key: string) => {
    const value = params.get(key);
    return typeof value === "string" ? value.trim() : "";
  };
  const filter: LedgerFilter = {};
  const issues: LedgerFilterIssue[] = [];
  const state = text("state");
  if (state) {
    if ((LEDGER_STATES as readonly string[]).includes(state)) filter.state = state as LedgerStateFilter;
    else issues.push("state");
  }
  const courier = text("courier");
  if (courier) {
    if (courier.length <= 100) filter.courier = courier;
    else issues.push("courier");
  }
  for (const key of ["from", "to"] as const) {
    const value = text(key);
    if (!value) continue;
    if (isRealDate(value)) filter[key] = value;
    else issues.push(key);
  }
  if (filter.from && filter.to && filter.from > filter.to) issues.push("range");
  const search = text("q");
  if (search) {
    if (search.length <= 64) filter.search = search;
    else issues.push("search");
  }
  return { filter, issues };
}

/** How many days since delivery, counted as whole days. */
export const daysSince = (deliveredAt: Date, now: Date): number => Math.max(0, Math.floor((now.getTime() - deliveredAt.getTime()) / 86_400_000));
