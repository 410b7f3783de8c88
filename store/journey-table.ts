import { DECISION, READINESS } from "../app/orders/readiness";
import { PROBLEM_LABELS } from "../app/shopify/order-mapping";
import { SERVICE_STATUS_LABELS, type ServiceStatusCode } from "../app/shipping/status";
import { progressOf, type ExpectedEnd, type OrderObservation, type PlannedOrder, type Progress } from "./journey-plan";

/**
 * The journey's live table, as text: one row per planned order — the order, its readiness or problem, the rule and
 * courier that decided it, the awb, the latest status — under a progress bar. Pure, so that what a person reads is
 * tested; store/journey.ts decides when to draw it. Nothing here names a shopper: no name, phone or address is in
 * an observation to begin with.
 */

export interface Row {
  order: string;
  readiness: string;
  rule: string;
  /** The rule cell without the rule's name, for a terminal too narrow for the whole reason. */
  ruleShort: string;
  awb: string;
  status: string;
  progress: Progress;
}

const COLUMNS = [
  { key: "order", title: "Order" },
  { key: "readiness", title: "Readiness / problem" },
  { key: "rule", title: "Rule → courier" },
  { key: "awb", title: "AWB" },
  { key: "status", title: "Latest status" },
] as const;

/** The readiness cell of an order the app has not read yet. */
export const NOT_CHECKED = "not checked yet";

const MARKS: Record<Progress, string> = { waiting: " ", booking: " ", shipped: " ", done: "✓", "off-course": "✗" };

const stageName = (code: number) => SERVICE_STATUS_LABELS[code as ServiceStatusCode] ?? `Status ${code}`;

function readinessCell(seen: OrderObservation): string {
  if (seen.shipment && seen.shipment.status !== "failed" && seen.shipment.status !== "cancelled") return seen.shipment.status === "fulfilled" ? "Booked, fulfilled" : "Booking";
  switch (seen.readiness) {
    case null:
    case READINESS.UNCHECKED:
      return NOT_CHECKED;
    case READINESS.READY:
      return "Ready";
    case READINESS.PROBLEMS:
      return seen.problems.map((code) => PROBLEM_LABELS[code] ?? code).join(", ") || "Problems";
    case READINESS.CANCELLED:
      return "Cancelled";
    case READINESS.FULFILLED:
      return "Fulfilled outside Dakiya";
    case READINESS.NOT_FOUND:
      return "Gone from Shopify";
    default:
      return seen.readiness;
  }
}

function ruleCell(seen: OrderObservation): string {
  // A failed booking's reason may quote what the courier or the order mapping refused (a phone number, say).
  if (seen.decision === DECISION.FAILED) return "auto-booking failed: see Needs attention";
  if (seen.decision === DECISION.BOOKED || seen.decision === DECISION.HELD) return seen.decisionReason ?? seen.decision;
  // Booked without a rule's decision (by hand), or with the decision not recorded yet: the courier is what is known.
  if (seen.shipment?.courierName) return `courier: ${seen.shipment.courierName}`;
  if (seen.decision === DECISION.PROBLEMS) return "not booked: fix the order first";
  return "";
}

/** What the courier last said, or where the booking is; with the end still to come in brackets. */
function statusCell(expected: ExpectedEnd, seen: OrderObservation, progress: Progress): string {
  const shipment = seen.shipment;
  const goal = expected.kind === "booked" && progress !== "done" && progress !== "off-course" ? ` (→ ${stageName(expected.finalStage)})` : "";
  if (shipment) {
    if (shipment.latestStage !== null) return `${stageName(shipment.latestStage)}${goal}`;
    // The reason stays in the admin (Needs attention): it may quote what the courier refused.
    if (shipment.status === "failed") return "Booking failed: see Needs attention";
    if (shipment.status === "booking") return `Booking…${goal}`;
    if (shipment.status === "booked_unfulfilled") return `Booked, fulfillment pending${goal}`;
    return `Awaiting the courier's first scan${goal}`;
  }
  if (seen.decision === DECISION.HELD) return "Held: ship it by hand";
  if (seen.readiness === READINESS.PROBLEMS) return "Needs fixing in Shopify";
  if (seen.readiness === READINESS.CANCELLED) return "Not shipped";
  return goal.trim();
}

/**
 * A rule's reason with the courier first and without the rule's name, so that a narrow terminal cutting its end keeps
 * what matters: "Rule 2 'COD under ₹2,000' → cheapest: Delhivery ₹98" → "Delhivery ₹98 · rule 2, cheapest".
 */
function shortReason(reason: string): string {
  const booked = /^Rule (\d+) '.*' → ([^:]+): (.+)$/.exec(reason);
  if (booked) return `${booked[3]} · rule ${booked[1]}, ${booked[2]}`;
  const held = /^Rule (\d+) '.*' → (.+)$/.exec(reason);
  return held ? `${held[2]} · rule ${held[1]}` : reason;
}

export function rowOf(planned: PlannedOrder, seen: OrderObservation): Row {
  const progress = progressOf(planned.expected, seen);
  const rule = ruleCell(seen);
  return {
    order: planned.name,
    readiness: readinessCell(seen),
    rule,
    ruleShort: shortReason(rule),
    awb: seen.shipment?.awb ?? "",
    status: statusCell(planned.expected, seen, progress),
    progress,
  };
}

function fit(text: string, width: number): string {
  if (text.length <= width) return text.padEnd(width);
  return width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

/**
 * The table's lines, no wider than `width` when given: the rule column, the widest and least needed at a glance,
 * gives way first (its rules' names, then its end), then the readiness and status columns.
 */
export function renderTable(rows: readonly Row[], width?: number): string[] {
  const widthsOf = (cells: readonly string[][]) => COLUMNS.map((column, index) => Math.max(column.title.length, ...cells.map((row) => row[index]!.length)));
  // Two characters of mark and space, then the columns with two spaces between them.
  const totalOf = (widths: number[]) => 2 + widths.reduce((sum, each) => sum + each + 2, 0) - 2;
  let cells = rows.map((row) => COLUMNS.map((column) => row[column.key]));
  let widths = widthsOf(cells);
  if (width !== undefined && totalOf(widths) > width) {
    // Too narrow for the rules' names: the rule's number says which it is.
    cells = rows.map((row) => COLUMNS.map((column) => (column.key === "rule" ? row.ruleShort : row[column.key])));
    widths = widthsOf(cells);
  }
  const total = () => totalOf(widths);
  const shrink = (index: number, floor: number) => {
    if (width === undefined) return;
    widths[index] = Math.max(floor, widths[index]! - Math.max(0, total() - width));
  };
  shrink(2, 16);
  shrink(1, 14);
  shrink(4, 12);
  // Still too wide: every column but the order's gives way to a few characters.
  for (const index of [2, 1, 4, 3]) shrink(index, 3);
  const line = (values: readonly string[], mark: string) => `${mark} ${values.map((value, index) => fit(value, widths[index]!)).join("  ")}`.trimEnd();
  return [line(COLUMNS.map((column) => column.title), " "), ...rows.map((row, index) => line(cells[index]!, MARKS[row.progress]))];
}

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "[██████░░░░░░] 6/15 orders at their end · 0:42", with the ones that cannot get there said. */
export function progressLine({ done, offCourse, total }: { done: number; offCourse: number; total: number }, elapsedMs: number, barWidth = 30): string {
  const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
  const bar = `[${"█".repeat(filled)}${"░".repeat(barWidth - filled)}]`;
  const trouble = offCourse > 0 ? ` · ${offCourse} off course` : "";
  return `${bar} ${done}/${total} orders at their end${trouble} · ${formatElapsed(elapsedMs)}`;
}

/** One row as a line of its own, for output that is not a terminal: printed whenever the row changes. */
export function rowLine(row: Row): string {
  return `${MARKS[row.progress]} ${row.order}  ${[row.readiness, row.rule, row.awb && `awb ${row.awb}`, row.status].filter(Boolean).join(" · ")}`;
}
