import prisma from "~/db.server";
import { countParcelOutcomes, listPincodesByReturns, type ParcelOutcomes } from "~/shipments/shipments.server";
import { CONFIRMATION_STATES, type ConfirmationState } from "./confirmation-lifecycle";
import { csvLine } from "~/csv";

/**
 * What cash-on-delivery risk and confirmation do for the shop, as Home shows it and its CSV gives it: how often parcels
 * came back (RTO) by payment mode, and for cash-on-delivery orders their shopper confirmed against the rest; how
 * asking went (asked, confirmed, corrected, paid online, cancelled, no answer); and the PIN codes that send most
 * parcels back. Over the last 90 days; a rate is of the parcels that ended (delivered or back at the warehouse).
 */

export const REPORT_DAYS = 90;
const TOP_PINCODES = 10;

export interface ReturnRate extends ParcelOutcomes {
  /** Parcels that ended: delivered or back. */
  ended: number;
  /** Back at the warehouse over ended, 0 – 1; null while none ended. */
  rate: number | null;
}

export interface CodReport {
  /** The window's length, and its start. */
  days: number;
  since: string;
  byPayment: { cod: ReturnRate; prepaid: ReturnRate };
  /** Cash-on-delivery parcels of orders their shopper confirmed (or corrected), and of every other COD order. */
  byConfirmation: { confirmed: ReturnRate; unconfirmed: ReturnRate };
  /** Shoppers asked in the window, by where their confirmation ended (still waiting counted apart). */
  funnel: { asked: number; waiting: number; confirmed: number; corrected: number; paidOnline: number; cancelled: number; expired: number; withdrawn: number };
  topPincodes: ({ pincode: string } & ReturnRate)[];
}

const rateOf = (outcomes: ParcelOutcomes): ReturnRate => {
  const ended = outcomes.delivered + outcomes.returned;
  return { ...outcomes, ended, rate: ended === 0 ? null : outcomes.returned / ended };
};

const minus = (whole: ParcelOutcomes, part: ParcelOutcomes): ParcelOutcomes => ({
  delivered: Math.max(0, whole.delivered - part.delivered),
  returned: Math.max(0, whole.returned - part.returned),
  failedAttempts: Math.max(0, whole.failedAttempts - part.failedAttempts),
});

export async function codReport(shop: string, now = new Date()): Promise<CodReport> {
  const since = new Date(now.getTime() - REPORT_DAYS * 86_400_000);
  const asked = await prisma.codConfirmation.groupBy({ by: ["state"], where: { shop, askedAt: { gte: since } }, _count: { _all: true } });
  const confirmedOrders = await prisma.codConfirmation.findMany({ where: { shop, askedAt: { gte: since }, state: { in: ["confirmed", "corrected"] } }, select: { orderGid: true }, take: 20_000 });
  const [cod, prepaid, confirmed, pincodes] = await Promise.all([
    countParcelOutcomes(shop, { all: true, paymentMode: "cod" }, { since }),
    countParcelOutcomes(shop, { all: true, paymentMode: "prepaid" }, { since }),
    countParcelOutcomes(shop, { orderGids: confirmedOrders.map((row) => row.orderGid), paymentMode: "cod" }, { since }),
    listPincodesByReturns(shop, { since, take: TOP_PINCODES }),
  ]);
  const count = (state: ConfirmationState) => asked.find((group) => group.state === state)?._count._all ?? 0;
  return {
    days: REPORT_DAYS,
    since: since.toISOString(),
    byPayment: { cod: rateOf(cod), prepaid: rateOf(prepaid) },
    byConfirmation: { confirmed: rateOf(confirmed), unconfirmed: rateOf(minus(cod, confirmed)) },
    funnel: {
      asked: CONFIRMATION_STATES.reduce((sum, state) => sum + count(state), 0),
      waiting: count("asking") + count("asked") + count("reminded") + count("awaiting_payment"),
      confirmed: count("confirmed"),
      corrected: count("corrected"),
      paidOnline: count("paid_online"),
      cancelled: count("cancelled"),
      expired: count("expired"),
      withdrawn: count("withdrawn"),
    },
    topPincodes: pincodes.map(({ pincode, ...outcomes }) => ({ pincode, ...rateOf(outcomes) })),
  };
}

/**
 * The report as one CSV table (for spreadsheets: headings and values in English whatever the admin's language): a row
 * per figure, its group, and either how its parcels ended or a count of shoppers.
 */
export function codReportCsv(report: CodReport): string {
  const header = ["Figure", "Group", "Parcels ended", "Delivered", "Returned (RTO)", "RTO rate (%)", "Failed delivery attempts", "Shoppers"];
  const rateRow = (figure: string, group: string, rate: ReturnRate) => [figure, group, rate.ended, rate.delivered, rate.returned, rate.rate === null ? "" : (rate.rate * 100).toFixed(1), rate.failedAttempts, ""];
  const countRow = (group: string, shoppers: number) => ["Confirmation", group, "", "", "", "", "", shoppers];
  const rows = [
    rateRow("By payment", "Cash on delivery", report.byPayment.cod),
    rateRow("By payment", "Prepaid", report.byPayment.prepaid),
    rateRow("Cash on delivery", "Confirmed by the shopper", report.byConfirmation.confirmed),
    rateRow("Cash on delivery", "Not confirmed", report.byConfirmation.unconfirmed),
    countRow("Asked", report.funnel.asked),
    countRow("Still waiting", report.funnel.waiting),
    countRow("Confirmed", report.funnel.confirmed),
    countRow("Corrected the address or phone", report.funnel.corrected),
    countRow("Paid online", report.funnel.paidOnline),
    countRow("Cancelled", report.funnel.cancelled),
    countRow("No answer", report.funnel.expired),
    countRow("Stopped waiting", report.funnel.withdrawn),
    ...report.topPincodes.map((pincode) => rateRow("PIN code", pincode.pincode, pincode)),
  ];
  return [header, ...rows].map((row) => csvLine(row.map(String))).join("");
}
