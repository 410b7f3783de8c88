import prisma from "~/db.server";
import { getPublicSeller } from "~/tracking/seller.server";
import { formatRupees, type Language } from "~/tracking/tracking-locale";
import { listCodHistory, type CodHistoryEntry } from "./cod-history.server";
import { getOrderRisk, type OrderRisk } from "./cod-risk.server";
import { shopperMessage } from "./confirmation-form";
import { isOpen, type ConfirmationState } from "./confirmation-lifecycle";
import { confirmationUrlOf } from "./confirmation.server";
import { whatsappUrl } from "~/failed-deliveries/whatsapp";

/**
 * An order's cash on delivery as the merchant's pages show it (the ship page, the order-page block): its RTO risk
 * and why, whether its shopper was asked and what came of it, the shopper's link and a WhatsApp message carrying it
 * in the shopper's language (one click), and the order's COD history. Read from Dakiya's records; the mobile for
 * WhatsApp is the one the page read from Shopify for the order.
 */

export interface CodConfirmationView {
  state: ConfirmationState;
  open: boolean;
  askedAt: string;
  deadlineAt: string;
  answeredAt: string | null;
  releasedAt: string | null;
  /** The shopper's language for the link and the messages. */
  language: Language;
  link: string;
  /** WhatsApp's click-to-chat to the shopper's mobile with the message and link; null without a mobile. */
  whatsappUrl: string | null;
}

export interface CodOrderView {
  risk: OrderRisk | null;
  confirmation: CodConfirmationView | null;
  /** The merchant may ask the shopper now: a checked cash-on-delivery order not asked yet and not booked. */
  canAsk: boolean;
  history: CodHistoryEntry[];
}

export async function codOrderView(shop: string, orderGid: string, { mobile, booked }: { mobile: string | null; booked: boolean }): Promise<CodOrderView> {
  const [risk, confirmation, record, history] = await Promise.all([getOrderRisk(shop, orderGid), prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } }), prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } } }), listCodHistory(shop, orderGid)]);
  let view: CodConfirmationView | null = null;
  if (confirmation) {
    const link = await confirmationUrlOf(confirmation);
    const seller = await getPublicSeller(shop);
    const language = confirmation.language === "hi" ? "hi" : "en";
    const text = shopperMessage("whatsapp", language, { shop: seller.name, order: confirmation.orderName, amount: formatRupees(record?.totalPaise ?? 0), link });
    view = {
      state: confirmation.state as ConfirmationState,
      open: isOpen(confirmation.state),
      askedAt: confirmation.askedAt.toISOString(),
      deadlineAt: confirmation.deadlineAt.toISOString(),
      answeredAt: confirmation.answeredAt?.toISOString() ?? null,
      releasedAt: confirmation.releasedAt?.toISOString() ?? null,
      language,
      link,
      whatsappUrl: whatsappUrl(mobile, text),
    };
  }
  const canAsk = !confirmation && !booked && record?.paymentMode === "cod" && !record.cancelledAt && (record.readiness === "ready" || record.readiness === "problems");
  return { risk, confirmation: view, canAsk, history };
}
