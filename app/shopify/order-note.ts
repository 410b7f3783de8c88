/** Shopify keeps an order's note to this many characters. */
export const ORDER_NOTE_LIMIT = 5_000;

/**
 * The order's note with `line` added on a line of its own, for a note Dakiya adds to (Shopify's orderUpdate replaces
 * the note whole, so the line goes onto the note as read): `unchanged` when the line is there already (a retry after
 * Shopify took the first write), null when it would not fit. Pure.
 */
export function noteWithLine(note: string, line: string): string | "unchanged" | null {
  if (note.includes(line)) return "unchanged";
  const next = note.trim() === "" ? line : `${note.replace(/\s+$/, "")}\n${line}`;
  return next.length <= ORDER_NOTE_LIMIT ? next : null;
}
