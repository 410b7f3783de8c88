import { performance } from "node:perf_hooks";
import type { BenchContext } from "../lib/context";
import { caughtShare, generateCodYear, randomCaughtShare, scoreCodYear, type ScoredOrder } from "../lib/cod-year";
import { fmtPercent, section, verdict, type Section } from "../lib/results";
import type { Measurement } from "./measurement";

/**
 * How many of the parcels that come back (RTO) Dakiya's cash-on-delivery risk score would have caught, on generated
 * years of a shop's orders (bench/lib/cod-year.ts): each order scored when it arrived, from the history the shop had
 * by then, as the order check scores it. Flagging the riskiest 10 % and 20 % of COD orders, beside a random flag of as
 * many (the floor: what flagging without a score catches) and beside the PIN code's (district's, state's) history
 * alone, which is what a score on the place alone would catch.
 */
const ID = "cod-risk";
const TITLE = "COD risk: RTOs caught by flagging the riskiest orders";
const ORDERS_A_YEAR = 2_000;
const YEARS = 5;
const FULL_YEARS = 20;
const SHARES = [0.1, 0.2] as const;
/** The score must catch at least this many times what a random flag of as many orders catches. */
const OVER_RANDOM = 1.5;

interface YearFigures {
  seed: number;
  shipped: number;
  returned: number;
  score: number[];
  pincode: number[];
  random: number[];
  levels: Record<string, { orders: number; returned: number }>;
}

function figuresOf(seed: number, orders: readonly ScoredOrder[]): YearFigures {
  const shipped = orders.filter((order) => !order.cancelled);
  const levels: YearFigures["levels"] = {};
  for (const order of shipped) {
    const level = (levels[order.level] ??= { orders: 0, returned: 0 });
    level.orders += 1;
    if (order.returned) level.returned += 1;
  }
  return {
    seed,
    shipped: shipped.length,
    returned: shipped.filter((order) => order.returned).length,
    score: SHARES.map((share) => caughtShare(orders, (order) => order.score, share)),
    pincode: SHARES.map((share) => caughtShare(orders, (order) => order.pincodeScore, share)),
    random: SHARES.map((share) => randomCaughtShare(orders, share)),
    levels,
  };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const spread = (values: readonly number[]) => `${fmtPercent(Math.min(...values))}–${fmtPercent(Math.max(...values))}`;

export const codRisk: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const years = context.full ? FULL_YEARS : YEARS;
    const result = section(
      ID,
      TITLE,
      `${years} generated years${context.full ? "" : ` (${FULL_YEARS} with \`--full\`)`} of one shop's ${ORDERS_A_YEAR.toLocaleString("en-IN")} cash-on-delivery orders each, with how every parcel ended (bench/lib/cod-year.ts: about one in four comes back; places, shoppers, the way an address is written, the value and Shopify's signal each lean some orders towards coming back, drawn at random per year). Every order is scored by \`scoreCodRisk\` (app/cod/risk-score.ts) when it arrives, from the parcels that had ended by then, as the order check scores it. "Caught" is the share of all the parcels that came back whose orders were among the riskiest 10 % or 20 % of the year's shipped COD orders (ties in a fixed random order). Beside it, in the same run on the same orders: a random flag of as many orders (200 draws; its expectation is the share itself) and the PIN code's history alone (\`pincodeOnlyScore\`: the PIN code, falling back to its district and state). Figures are the mean over the years, with the lowest and highest year.`,
    );
    const started = performance.now();
    const figures: YearFigures[] = [];
    for (let year = 0; year < years; year += 1) {
      const seed = 20_261_128 + year;
      figures.push(figuresOf(seed, scoreCodYear(generateCodYear({ seed, codOrders: ORDERS_A_YEAR }))));
    }
    const seconds = (performance.now() - started) / 1000;

    SHARES.forEach((share, index) => {
      const score = figures.map((year) => year.score[index]!);
      const pincode = figures.map((year) => year.pincode[index]!);
      const random = figures.map((year) => year.random[index]!);
      const pass = mean(score) >= mean(pincode) && mean(score) >= OVER_RANDOM * mean(random);
      result.rows.push({
        name: `RTOs caught flagging the riskiest ${fmtPercent(share)} of COD orders`,
        result: `${fmtPercent(mean(score))} (years ${spread(score)})`,
        reference: `random ${fmtPercent(mean(random))}; PIN-code history alone ${fmtPercent(mean(pincode))} (years ${spread(pincode)})`,
        target: `≥ PIN-code history alone and ≥ ${OVER_RANDOM}× random`,
        verdict: verdict(pass),
      });
    });
    const shipped = figures.reduce((sum, year) => sum + year.shipped, 0);
    const returned = figures.reduce((sum, year) => sum + year.returned, 0);
    result.rows.push({
      name: "orders scored",
      result: `${shipped.toLocaleString("en-IN")} shipped COD orders, ${fmtPercent(returned / shipped)} came back, in ${seconds.toFixed(1)} s`,
      reference: `${years} years × ${ORDERS_A_YEAR.toLocaleString("en-IN")} orders`,
      target: "reported",
      verdict: "INFO",
    });

    result.details.push({
      title: "Each year: RTOs caught at 10 % and 20 % flagged (score / PIN code alone / random)",
      header: ["year (seed)", "shipped", "came back", "10 %", "20 %"],
      rows: figures.map((year) => [
        String(year.seed),
        String(year.shipped),
        fmtPercent(year.returned / year.shipped),
        `${fmtPercent(year.score[0]!)} / ${fmtPercent(year.pincode[0]!)} / ${fmtPercent(year.random[0]!)}`,
        `${fmtPercent(year.score[1]!)} / ${fmtPercent(year.pincode[1]!)} / ${fmtPercent(year.random[1]!)}`,
      ]),
    });
    const levels = ["high", "medium", "low", "none"].map((level) => {
      const orders = figures.reduce((sum, year) => sum + (year.levels[level]?.orders ?? 0), 0);
      const back = figures.reduce((sum, year) => sum + (year.levels[level]?.returned ?? 0), 0);
      return [level, `${fmtPercent(orders / shipped)} of orders`, orders === 0 ? "—" : fmtPercent(back / orders)];
    });
    result.details.push({ title: "Each risk level over every year: its share of orders and how often its parcels came back", header: ["level", "orders", "came back"], rows: levels });
    result.notes.push(
      "The world is generated, so these figures say how much of its leanings the score recovers from a year of the shop's own history, not how it does on a real shop; a real shop's year can be measured the same way from its shipments' outcomes.",
    );
    return result;
  },
};
