import en from "~/locales/cod-confirmation.en.json";
import hi from "~/locales/cod-confirmation.hi.json";
import { fill } from "~/locales/fill";
import { MAX_TEXT_LENGTH } from "~/shipping/contract";
import { normaliseMobile, toPlainText } from "~/shopify/order-mapping";
import type { Language } from "~/tracking/tracking-locale";
import { pincodeDisagreesWithState } from "./postal-circles";
import { SHOPPER_ANSWERS, type ShopperAnswer } from "./confirmation-lifecycle";

/**
 * The shopper's confirmation page's words (app/locales/cod-confirmation.*.json) and what it accepts: an answer, and for
 * a correction the new address and mobile, checked as the order check checks an order's (a six-digit PIN code in the
 * state named, a mobile an Indian courier can call, the parts the courier needs, within the courier's lengths). Pure.
 */

export type ConfirmationStrings = typeof en;
const STRINGS: Readonly<Record<Language, ConfirmationStrings>> = { en, hi };
export const confirmationStrings = (language: Language): ConfirmationStrings => STRINGS[language];

export type StateCode = keyof ConfirmationStrings["states"];
export const STATE_CODES = Object.keys(en.states) as StateCode[];
const isStateCode = (value: string): value is StateCode => Object.hasOwn(en.states, value);

/** The state's name in English, as Shopify and the courier write it. */
export const stateNameOf = (code: StateCode) => en.states[code];

/** A form a browser sends is a few hundred bytes; anything much larger is not this page's. */
export const MAX_FORM_BYTES = 8_192;

const LIMITS = { address1: MAX_TEXT_LENGTH.address_line_1, address2: MAX_TEXT_LENGTH.address_line_2, city: MAX_TEXT_LENGTH.city } as const;

/** A correction as the shopper gave it: the address (all of it, or none) and the mobile (or none, to keep the old one). */
export interface ShopperCorrection {
  address: { address1: string; address2: string; city: string; provinceCode: StateCode; zip: string } | null;
  /** The ten-digit mobile, or null to keep the order's. */
  phone: string | null;
}

export type CorrectionField = "address1" | "address2" | "city" | "state" | "pincode" | "phone";

export type ParsedAnswer =
  | { ok: true; answer: Exclude<ShopperAnswer, "correct"> }
  | { ok: true; answer: "correct"; correction: ShopperCorrection }
  | { ok: false; formError: string | null; fieldErrors: Partial<Record<CorrectionField, string>>; values: Partial<Record<CorrectionField, string>> };

/** A field as one line of plain text (control characters out, as the order check cleans Shopify's text), at most one past `max` so "too long" can be told. */
const text = (form: URLSearchParams, name: string, max: number) => toPlainText(form.get(name) ?? "").replace(/\s+/g, " ").trim().slice(0, max + 1);

/** The shopper's answer from the page's form, or what is wrong with it, in their language. */
export function parseShopperAnswer(form: URLSearchParams, language: Language): ParsedAnswer {
  const t = confirmationStrings(language).errors;
  const answer = form.get("answer") ?? "";
  if (!(SHOPPER_ANSWERS as readonly string[]).includes(answer)) return { ok: false, formError: t.unknownAnswer, fieldErrors: {}, values: {} };
  if (answer !== "correct") return { ok: true, answer: answer as Exclude<ShopperAnswer, "correct"> };

  const values = {
    address1: text(form, "address1", LIMITS.address1),
    address2: text(form, "address2", LIMITS.address2),
    city: text(form, "city", LIMITS.city),
    state: text(form, "state", 4),
    pincode: text(form, "pincode", 12).replace(/\s/g, ""),
    phone: text(form, "phone", 20),
  };
  const errors: Partial<Record<CorrectionField, string>> = {};
  const givesAddress = Boolean(values.address1 || values.address2 || values.city || values.pincode);
  if (!givesAddress && !values.phone) return { ok: false, formError: t.nothingToCorrect, fieldErrors: {}, values };
  if (givesAddress) {
    if (!values.address1) errors.address1 = t.address1;
    else if (values.address1.length > LIMITS.address1) errors.address1 = fill(t.address1Long, { max: LIMITS.address1 });
    if (values.address2.length > LIMITS.address2) errors.address2 = fill(t.address2Long, { max: LIMITS.address2 });
    if (!values.city) errors.city = t.city;
    else if (values.city.length > LIMITS.city) errors.city = fill(t.cityLong, { max: LIMITS.city });
    if (!isStateCode(values.state)) errors.state = t.state;
    if (!/^[1-9]\d{5}$/.test(values.pincode)) errors.pincode = t.pincode;
    else if (isStateCode(values.state) && pincodeDisagreesWithState(values.pincode, stateNameOf(values.state))) {
      errors.pincode = fill(t.pincodeState, { pincode: values.pincode, state: confirmationStrings(language).states[values.state] });
    }
  }
  const mobile = values.phone ? normaliseMobile(values.phone) : null;
  if (values.phone && !mobile) errors.phone = t.phone;
  if (Object.keys(errors).length > 0) return { ok: false, formError: null, fieldErrors: errors, values };
  return {
    ok: true,
    answer: "correct",
    correction: {
      address: givesAddress ? { address1: values.address1, address2: values.address2, city: values.city, provinceCode: values.state as StateCode, zip: values.pincode } : null,
      phone: mobile,
    },
  };
}

/** The shopper's messages (WhatsApp, Shopify's e-mails) in their language, with the order, the shop, the amount and the link. */
export function shopperMessage(kind: keyof ConfirmationStrings["messages"], language: Language, values: { shop: string; order: string; amount: string; link: string }): string {
  return fill(confirmationStrings(language).messages[kind], values);
}
