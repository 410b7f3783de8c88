/** The largest id a row of PostgreSQL's `integer` (Prisma's `Int`) can have. */
const MAX_ROW_ID = 2_147_483_647;

/**
 * A row id as a request gives it (a path segment, a form field): a whole number a row can have, or null. A larger
 * number would reach the database and fail there, a 500 where the answer is that no such row exists.
 */
export function rowIdOf(value: unknown): number | null {
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isInteger(id) && id >= 1 && id <= MAX_ROW_ID ? id : null;
}
