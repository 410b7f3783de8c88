import { describe, expect, it } from "vitest";
import { nextPaymentStep, noteWithRemittance, paymentMethodNameOf } from "./cod-payments";
import { chargeableGrams, judgeFreightCharge, volumetricGrams, type BookedParcel } from "./freight-verdicts";
import { readPhoto } from "./packing-photo";
import { parcelStanding } from "./parcel-standing";
import { judgeRemittance, lineIdentity, type RemittedParcel } from "./remittance-verdicts";

const line = (amountPaise: number, reference = "UTR1") => ({ row: 2, awb: "1561", orderRef: "", amountPaise, reference, remittedOn: null });
const parcel = (overrides: Partial<RemittedParcel> = {}): RemittedParcel => ({ shipmentId: 7, orderGid: "gid://shopify/Order/1", cashToCollectPaise: 129_900, standing: "delivered", ...overrides });
const fresh = { remittedPaise: 0, identities: new Set<string>() };

describe("a remittance line against its parcel", () => {
  it("names every difference: paid in full, short, over, paid twice", () => {
    expect(judgeRemittance(line(129_900), parcel(), fresh)).toMatchObject({ verdict: "paid_in_full", expectedPaise: 129_900, differencePaise: 0, settlesParcel: true });
    expect(judgeRemittance(line(100_000), parcel(), fresh)).toMatchObject({ verdict: "short", differencePaise: -29_900, settlesParcel: false });
    expect(judgeRemittance(line(130_000), parcel(), fresh)).toMatchObject({ verdict: "over", differencePaise: 100, settlesParcel: true });
    expect(judgeRemittance(line(129_900, "UTR2"), parcel(), { remittedPaise: 129_900, identities: new Set() })).toMatchObject({ verdict: "paid_twice", differencePaise: 129_900, settlesParcel: false });
  });

  it("counts earlier payments: a shortfall made up later pays the parcel in full then", () => {
    expect(judgeRemittance(line(29_900, "UTR2"), parcel(), { remittedPaise: 100_000, identities: new Set() })).toMatchObject({ verdict: "paid_in_full", remittedBeforePaise: 100_000, settlesParcel: true });
  });

  it("says what the parcel is when it owed nothing: unknown, not delivered yet, RTO, prepaid", () => {
    expect(judgeRemittance(line(500), null, fresh)).toMatchObject({ verdict: "unknown_awb", counts: false });
    expect(judgeRemittance(line(129_900), parcel({ standing: "not_delivered" }), fresh)).toMatchObject({ verdict: "not_delivered", settlesParcel: false, counts: true });
    expect(judgeRemittance(line(129_900), parcel({ standing: "rto" }), fresh)).toMatchObject({ verdict: "rto", expectedPaise: 0, differencePaise: 129_900 });
    expect(judgeRemittance(line(100), parcel({ cashToCollectPaise: null }), fresh)).toMatchObject({ verdict: "not_cod" });
  });

  it("knows a line of an earlier statement (the same parcel, bank reference and amount) and counts it once", () => {
    const seen = { remittedPaise: 129_900, identities: new Set([lineIdentity("shipment:7", { reference: "utr1", amountPaise: 129_900 })]) };
    expect(judgeRemittance(line(129_900, "UTR1"), parcel(), seen)).toMatchObject({ verdict: "already_imported", counts: false, settlesParcel: false });
  });
});

describe("a parcel's standing for its cash", () => {
  it("owes from delivery, never after an RTO", () => {
    expect(parcelStanding({ outcome: "delivered" })).toBe("delivered");
    expect(parcelStanding({ outcome: "rto_initiated" })).toBe("rto");
    expect(parcelStanding({ outcome: "rto_delivered" })).toBe("rto");
    for (const outcome of ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_attempted", "lost", "damaged", "cancelled"]) expect(parcelStanding({ outcome })).toBe("not_delivered");
  });
});

describe("a freight charge against the booking's quote", () => {
  const booked = (overrides: Partial<BookedParcel> = {}): BookedParcel => ({ shipmentId: 3, orderGid: "gid://shopify/Order/1", courierName: "Delhivery", declaredGrams: 450, box: { length: 20, breadth: 15, height: 10 }, quotedGrams: 500, quotedPaise: 9_800, ...overrides });
  const charge = (grams: number, paise: number) => ({ row: 2, awb: "1561", orderRef: "", chargedWeightGrams: grams, chargedPaise: paise, chargedOn: null });
  const none = { identities: new Set<string>(), billed: false };

  it("works out the volumetric and chargeable weights as couriers do", () => {
    expect(volumetricGrams({ length: 20, breadth: 15, height: 10 })).toBe(600);
    expect(chargeableGrams(450, 600)).toBe(1000);
    expect(chargeableGrams(100, 50)).toBe(500);
  });

  it("flags a parcel charged 1.5 kg against a quoted 0.5 kg, by how much in kg and rupees", () => {
    expect(judgeFreightCharge(charge(1500, 14_400), booked(), none)).toEqual({
      verdict: "overcharged",
      declaredWeightGrams: 450,
      volumetricWeightGrams: 600,
      quotedWeightGrams: 500,
      quotedPaise: 9_800,
      extraWeightGrams: 1000,
      extraPaise: 4_600,
    });
    expect(judgeFreightCharge(charge(500, 9_800), booked(), none)).toMatchObject({ verdict: "as_quoted", extraWeightGrams: 0, extraPaise: 0 });
  });

  it("works the quote's weight out from the declared figures for a booking that did not keep it, and names a second bill", () => {
    expect(judgeFreightCharge(charge(1000, 9_800), booked({ quotedGrams: null }), none)).toMatchObject({ verdict: "as_quoted", quotedWeightGrams: 1000 });
    expect(judgeFreightCharge(charge(500, 9_800), booked(), { identities: new Set(), billed: true })).toMatchObject({ verdict: "billed_again" });
    expect(judgeFreightCharge(charge(500, 9_800), null, none)).toMatchObject({ verdict: "unknown_awb" });
  });
});

describe("recording a remitted parcel paid in Shopify", () => {
  const remitted = { parcelName: "#1042-2", amountPaise: 59_900, reference: "SBXN20261120AB" };
  const order = (overrides: Partial<{ cancelled: boolean; outstandingPaise: number; payments: { gateway: string; amountPaise: number }[] }> = {}) => ({ cancelled: false, outstandingPaise: 149_900, payments: [], ...overrides });

  it("marks the order paid when the parcel covers what is owed, else records the parcel's own payment", () => {
    expect(nextPaymentStep(order({ outstandingPaise: 59_900 }), remitted)).toEqual({ kind: "mark_as_paid" });
    expect(nextPaymentStep(order(), remitted)).toEqual({ kind: "manual_payment", amountPaise: 59_900, methodName: "COD remittance #1042-2 UTR SBXN20261120AB" });
  });

  it("never records it twice: a payment Shopify took already is recognised by its name, a paid order left as it is", () => {
    expect(nextPaymentStep(order({ payments: [{ gateway: paymentMethodNameOf(remitted), amountPaise: 59_900 }] }), remitted)).toEqual({ kind: "already_recorded" });
    expect(nextPaymentStep(order({ outstandingPaise: 0 }), remitted)).toEqual({ kind: "already_paid" });
    expect(nextPaymentStep(null, remitted)).toEqual({ kind: "not_recordable", reason: "order_gone" });
    expect(nextPaymentStep(order({ cancelled: true }), remitted)).toEqual({ kind: "not_recordable", reason: "order_cancelled" });
  });

  it("adds the remittance to the order's note once, keeping what the merchant wrote", () => {
    const noted = noteWithRemittance("Gift wrap please", remitted);
    expect(noted).toBe("Gift wrap please\nCOD remitted for #1042-2: ₹599.00, UTR SBXN20261120AB");
    expect(noteWithRemittance(noted!, remitted)).toBeNull();
    expect(noteWithRemittance("x".repeat(4_990), remitted)).toBeNull();
  });
});

describe("a packing photo as uploaded", () => {
  const png = (width: number, height: number) => {
    const bytes = new Uint8Array(33);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(bytes.buffer).setUint32(16, width);
    new DataView(bytes.buffer).setUint32(20, height);
    return bytes;
  };
  const jpeg = (width: number, height: number) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0, 0, 0, 0]);

  it("is a JPEG or PNG by its own header, of bounded size and pixels", () => {
    expect(readPhoto(jpeg(4000, 3000))).toEqual({ ok: true, contentType: "image/jpeg", width: 4000, height: 3000 });
    expect(readPhoto(png(800, 600))).toEqual({ ok: true, contentType: "image/png", width: 800, height: 600 });
    expect(readPhoto(png(5000, 600))).toEqual({ ok: false, code: "too_many_pixels" });
    expect(readPhoto(new TextEncoder().encode("<svg onload=alert(1)>"))).toEqual({ ok: false, code: "not_an_image" });
    expect(readPhoto(new Uint8Array())).toEqual({ ok: false, code: "empty" });
    expect(readPhoto(new Uint8Array(5 * 1024 * 1024 + 1))).toEqual({ ok: false, code: "too_large" });
    expect(readPhoto(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0, 0, 0, 0, 0]))).toEqual({ ok: false, code: "not_an_image" });
  });
});
