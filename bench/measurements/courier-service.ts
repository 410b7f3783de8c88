import type { BenchContext } from "../lib/context";
import type { LoadSummary } from "../lib/load-client";
import { COST_HEADER, COST_NOTE, costRow, fmtMs, fmtPercent, fmtRate, section, verdict, type Row, type Section } from "../lib/results";
import type { AppRun } from "../lib/context";
import type { RequestKind } from "../load/requests";
import type { Measurement } from "./measurement";

/**
 * The courier service under /v1 on the production server: create-order (a new order_id each time, a valid
 * Bengaluru order dated today in India) and calculate-rate, at 10 and at 50 connections, each beside the bare
 * route at the same connections.
 */
const CREATE_ORDER_TARGET = { rate: 300, p99: 25 };
// At 50 connections the service must keep what it does at 10: no errors, and no collapse of throughput.
const HOLDS_AT_50 = 0.9;

const describe = (run: LoadSummary) => `${fmtRate(run.ratePerSecond)}, p50 ${fmtMs(run.p50)}, p99 ${fmtMs(run.p99)}`;
const failuresOf = (run: LoadSummary) => run.requests - run.ok;
const withFailures = (run: LoadSummary) => `${describe(run)}${failuresOf(run) ? `, ${failuresOf(run)} not 2xx` : ""}`;

export const courierService: Measurement = {
  id: "courier",
  title: "Courier service (/v1)",
  async run(context: BenchContext): Promise<Section> {
    const { seconds, warmupSeconds } = context.durations;
    const result = section(
      "courier",
      "Courier service (/v1)",
      `\`POST /v1/create-order\` (test/support/orders.ts's \`sampleOrder\`: a Bengaluru COD order of two products dated today in India, a new \`order_id\` each time) and \`POST /v1/calculate-rate\` (Bhiwandi → Bengaluru, 0.9 kg COD) with the sandbox credentials, on the production build, from the load generator's process. Closed model: ${warmupSeconds} s warm-up then ${seconds} s measured at each number of keep-alive connections, beside the bare route \`GET /ping\` at the same connections.`,
    );
    const credentials = { apiKey: context.secrets.SANDBOX_API_KEY, secretKey: context.secrets.SANDBOX_SECRET_KEY };
    const createOrder: RequestKind = { kind: "create-order", prefix: `bench-${context.runId}`, ...credentials };
    const calculateRate: RequestKind = { kind: "calculate-rate", ...credentials };

    const runs = new Map<string, AppRun>();
    for (const connections of [10, 50]) {
      for (const [name, request] of [["create-order", createOrder], ["calculate-rate", calculateRate]] as const) {
        context.log(`${name} at ${connections} connections`);
        runs.set(`${name}@${connections}`, await context.runOnApp(request, { model: "closed", connections, warmupSeconds, seconds }));
      }
    }

    for (const name of ["create-order", "calculate-rate"] as const) {
      const at10 = runs.get(`${name}@10`)!;
      const at50 = runs.get(`${name}@50`)!;
      const bare10 = await context.bareRoute(10);
      const bare50 = await context.bareRoute(50);
      const bareShare = (run: LoadSummary, bare: LoadSummary) => `bare route ${describe(bare)}; ${fmtPercent(run.ratePerSecond / bare.ratePerSecond)} of it`;
      const first: Row =
        name === "create-order"
          ? {
              name: `${name} at 10 connections`,
              result: withFailures(at10),
              reference: bareShare(at10, bare10),
              target: `≥ ${fmtRate(CREATE_ORDER_TARGET.rate)}, p99 ≤ ${CREATE_ORDER_TARGET.p99} ms`,
              verdict: verdict(at10.ratePerSecond >= CREATE_ORDER_TARGET.rate && at10.p99 <= CREATE_ORDER_TARGET.p99 && failuresOf(at10) === 0),
            }
          : {
              // No product target of its own: a quote writes nothing, so it must do at least what create-order must.
              name: `${name} at 10 connections`,
              result: withFailures(at10),
              reference: bareShare(at10, bare10),
              target: `≥ ${fmtRate(CREATE_ORDER_TARGET.rate)}, p99 ≤ ${CREATE_ORDER_TARGET.p99} ms (as create-order)`,
              verdict: verdict(at10.ratePerSecond >= CREATE_ORDER_TARGET.rate && at10.p99 <= CREATE_ORDER_TARGET.p99 && failuresOf(at10) === 0),
            };
      result.rows.push(first, {
        name: `${name} at 50 connections`,
        result: withFailures(at50),
        reference: bareShare(at50, bare50),
        target: `no errors, ≥ ${fmtPercent(HOLDS_AT_50)} of its rate at 10 connections`,
        verdict: verdict(failuresOf(at50) === 0 && at50.ratePerSecond >= HOLDS_AT_50 * at10.ratePerSecond),
      });
    }
    const bare = [await context.bareRoute(10), await context.bareRoute(50)];
    result.details.push({
      title: "Cost per request",
      header: COST_HEADER,
      rows: [
        costRow("GET /ping, 10 connections", bare[0]!),
        costRow("GET /ping, 50 connections", bare[1]!),
        ...[...runs].map(([key, run]) => costRow(`${key.replace("@", ", ")} connections`, run)),
      ],
    });
    const [orders] = await context.database.query<{ orders: number }>(`SELECT count(*)::int AS orders FROM "ServiceOrder" WHERE "orderId" LIKE $1`, [`bench-${context.runId}-%`]).catch(() => [{ orders: -1 }]);
    const created = (runs.get("create-order@10")?.okTotal ?? 0) + (runs.get("create-order@50")?.okTotal ?? 0);
    result.notes.push(
      `create-order acknowledged ${created.toLocaleString("en-US")} orders in all (warm-ups included)${orders!.orders >= 0 ? `; the service holds ${orders!.orders.toLocaleString("en-US")} orders with the run's order ids` : ""}.`,
      COST_NOTE,
      "calculate-rate has no target of its own; it is held to create-order's, since a quote reads and writes less. At 50 connections the target is that the service keeps its 10-connection throughput (a queue, not a collapse).",
      ...[...runs.values()].flatMap((run) => run.failures.map((failure) => `Failure: ${failure}`)),
    );
    return result;
  },
};
