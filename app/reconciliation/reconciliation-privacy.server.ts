import prisma from "~/db.server";

/**
 * A customer's data request: what the remittance and freight checks hold about their orders' parcels — the courier's
 * remittance lines and freight charges for them, whether Shopify was told they were paid, and the merchant's packing
 * photos (the photo itself, as a data: address: it may show the parcel's label with the shopper's name and address).
 * The erasures are the records' own (reconciliation-records.server.ts).
 */
export async function reconciliationHeldFor(shop: string, shipmentIds: readonly number[]) {
  const ids = [...shipmentIds];
  const [remittances, charges, payments, photos] = await Promise.all([
    prisma.remittanceLine.findMany({ where: { shop, shipmentId: { in: ids } }, orderBy: [{ statementId: "asc" }, { row: "asc" }] }),
    prisma.freightCharge.findMany({ where: { shop, shipmentId: { in: ids } }, orderBy: [{ statementId: "asc" }, { row: "asc" }] }),
    prisma.shopifyCodPayment.findMany({ where: { shop, shipmentId: { in: ids } } }),
    prisma.packingPhoto.findMany({ where: { shop, shipmentId: { in: ids } } }),
  ]);
  return (shipmentId: number) => ({
    remittances: remittances
      .filter((line) => line.shipmentId === shipmentId)
      .map((line) => ({ awb: line.awb, orderId: line.orderRef, amountPaise: line.amountPaise, reference: line.reference, remittedOn: line.remittedOn?.toISOString().slice(0, 10) ?? null, verdict: line.verdict })),
    freightCharges: charges
      .filter((charge) => charge.shipmentId === shipmentId)
      .map((charge) => ({ awb: charge.awb, chargedWeightGrams: charge.chargedWeightGrams, chargedPaise: charge.chargedPaise, verdict: charge.verdict })),
    paidInShopify: payments.filter((payment) => payment.shipmentId === shipmentId).map((payment) => ({ state: payment.state, amountPaise: payment.amountPaise, reference: payment.reference, detail: payment.detail })),
    packingPhoto: photos
      .filter((photo) => photo.shipmentId === shipmentId)
      .map((photo) => ({ uploadedAt: photo.uploadedAt.toISOString(), image: `data:${photo.contentType};base64,${Buffer.from(photo.bytes).toString("base64")}` }))[0] ?? null,
  });
}
