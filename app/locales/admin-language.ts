import en from "~/locales/admin.en.json";
import hi from "~/locales/admin.hi.json";
import attentionEn from "~/locales/admin-attention.en.json";
import attentionHi from "~/locales/admin-attention.hi.json";
import autoBookingEn from "~/locales/admin-auto-booking.en.json";
import autoBookingHi from "~/locales/admin-auto-booking.hi.json";
import commonEn from "~/locales/admin-common.en.json";
import commonHi from "~/locales/admin-common.hi.json";
import homeEn from "~/locales/admin-home.en.json";
import homeHi from "~/locales/admin-home.hi.json";
import ordersEn from "~/locales/admin-orders.en.json";
import ordersHi from "~/locales/admin-orders.hi.json";
import returnsEn from "~/locales/admin-returns.en.json";
import returnsHi from "~/locales/admin-returns.hi.json";
import settingsEn from "~/locales/admin-settings.en.json";
import settingsHi from "~/locales/admin-settings.hi.json";
import shipEn from "~/locales/admin-ship.en.json";
import shipHi from "~/locales/admin-ship.hi.json";
import shipmentsEn from "~/locales/admin-shipments.en.json";
import shipmentsHi from "~/locales/admin-shipments.hi.json";
import storefrontEn from "~/locales/admin-storefront.en.json";
import storefrontHi from "~/locales/admin-storefront.hi.json";
import problemsEn from "~/locales/admin-problems.en.json";
import problemsHi from "~/locales/admin-problems.hi.json";
import activityEn from "~/locales/admin-activity.en.json";
import activityHi from "~/locales/admin-activity.hi.json";
import errorsEn from "~/locales/admin-errors.en.json";
import errorsHi from "~/locales/admin-errors.hi.json";
import outcomesEn from "~/locales/admin-outcomes.en.json";
import outcomesHi from "~/locales/admin-outcomes.hi.json";
import decisionsEn from "~/locales/admin-decisions.en.json";
import decisionsHi from "~/locales/admin-decisions.hi.json";
import failedDeliveriesEn from "~/locales/admin-failed-deliveries.en.json";
import failedDeliveriesHi from "~/locales/admin-failed-deliveries.hi.json";
import reconciliationEn from "~/locales/admin-reconciliation.en.json";
import reconciliationHi from "~/locales/admin-reconciliation.hi.json";
import codEn from "~/locales/admin-cod.en.json";
import codHi from "~/locales/admin-cod.hi.json";
import ndrEmailEn from "~/locales/admin-ndr-email.en.json";
import ndrEmailHi from "~/locales/admin-ndr-email.hi.json";
import { fill } from "./fill";

/**
 * The admin pages' language: Shopify opens an embedded app with `?locale=` set to the merchant's admin language
 * ("en", "hi", "hi-IN" …), and the local admin passes its own `?locale=hi` the same way. Hindi for Hindi, English
 * for everything else. The words are in app/locales/admin*.json (beside this file), one file per area of the admin so that a page's
 * words sit together. Pure.
 */

const ENGLISH = {
  ...en,
  common: commonEn,
  home: homeEn,
  orders: ordersEn,
  ship: shipEn,
  shipments: shipmentsEn,
  attention: attentionEn,
  autoBooking: autoBookingEn,
  settings: settingsEn,
  storefront: storefrontEn,
  returns: returnsEn,
  problems: problemsEn,
  activity: activityEn,
  errors: errorsEn,
  outcomes: outcomesEn,
  decisions: decisionsEn,
  failedDeliveries: failedDeliveriesEn,
  reconciliation: reconciliationEn,
  cod: codEn,
  ndrEmail: ndrEmailEn,
};

export type AdminStrings = typeof ENGLISH;
export const ADMIN_LANGUAGES = ["en", "hi"] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

// Typed against the English files: a key missing from a Hindi one fails the typecheck.
const HINDI: AdminStrings = {
  ...hi,
  common: commonHi,
  home: homeHi,
  orders: ordersHi,
  ship: shipHi,
  shipments: shipmentsHi,
  attention: attentionHi,
  autoBooking: autoBookingHi,
  settings: settingsHi,
  storefront: storefrontHi,
  returns: returnsHi,
  problems: problemsHi,
  activity: activityHi,
  errors: errorsHi,
  outcomes: outcomesHi,
  decisions: decisionsHi,
  failedDeliveries: failedDeliveriesHi,
  reconciliation: reconciliationHi,
  cod: codHi,
  ndrEmail: ndrEmailHi,
};

const STRINGS: Readonly<Record<AdminLanguage, AdminStrings>> = { en: ENGLISH, hi: HINDI };

/** The language tag each admin language formats numbers, dates and plurals with. */
export const ADMIN_LOCALES: Readonly<Record<AdminLanguage, string>> = { en: "en-IN", hi: "hi-IN" };

export const adminStrings = (language: AdminLanguage): AdminStrings => STRINGS[language];

/** The language a `locale` parameter asks for; null when it names none (the parameter is absent or empty). */
export function adminLanguageOf(locale: string | null | undefined): AdminLanguage | null {
  const primary = (locale ?? "").trim().slice(0, 35).toLowerCase().split(/[-_]/)[0] ?? "";
  if (!primary) return null;
  return primary === "hi" ? "hi" : "en";
}

/** The language a form was sent in: its hidden `locale` field, English when that names none. */
export const formLanguage = (form: FormData): AdminLanguage => adminLanguageOf(form.get("locale")?.toString()) ?? "en";

/** `build`'s result for each admin language, made once: a form's schemas with their messages in that language. */
export const perAdminLanguage = <T>(build: (language: AdminLanguage) => T): Record<AdminLanguage, T> =>
  Object.fromEntries(ADMIN_LANGUAGES.map((language) => [language, build(language)])) as Record<AdminLanguage, T>;

/** A word's forms by the language's plural rule, as the locale files hold them: `{ "one": "{count} order", "other": "{count} orders" }`. */
export interface PluralForms {
  one: string;
  other: string;
}

/** The form for `count` in the language, with `{count}` (and any other `{name}`) filled in; the count in the language's digits grouping. */
export function plural(language: AdminLanguage, forms: PluralForms, count: number, values: Record<string, string | number> = {}): string {
  const form = new Intl.PluralRules(ADMIN_LOCALES[language]).select(count) === "one" ? forms.one : forms.other;
  return fill(form, { count: count.toLocaleString(ADMIN_LOCALES[language]), ...values });
}

export { fill };

/** The word a table of the locale files has for `key`; undefined for a key it does not name. */
const wordIn = (table: Readonly<Record<string, string>>, key: string | number): string | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** The courier's status for a code, in the admin's language; undefined for a code the files do not name. */
export const courierStatusName = (strings: AdminStrings, code: number): string | undefined => wordIn(strings.common.courierStatuses, code);

/** A shipment's status (`Shipment.status`) in the admin's language; undefined for one the files do not name. */
export const shipmentStatusName = (strings: AdminStrings, status: string): string | undefined => wordIn(strings.common.shipmentStatuses, status);

/** Where the courier has a parcel (`Shipment.outcome`) in the admin's language; undefined for one the files do not name. */
export const shipmentOutcomeName = (strings: AdminStrings, outcome: string): string | undefined => wordIn(strings.common.shipmentOutcomes, outcome);


/**
 * A sentence kept in the database as its words' key in the admin's locale files (a dotted path: "outcomes.booking.
 * interrupted") and its values, beside the English it was said in, so that a page says it again in the admin's
 * language. A value may itself be stored words (a reason inside a decision).
 */
export interface StoredWords {
  key: string;
  values?: Record<string, string | number | StoredWords>;
}

/** A sentence to store: Dakiya's words, or text that is wholly someone else's (the courier's, Shopify's) as they said it. */
export type Sentence = StoredWords | string;

export const words = (key: string, values?: StoredWords["values"]): StoredWords => (values ? { key, values } : { key });

export const isStoredWords = (value: unknown): value is StoredWords =>
  Boolean(value) && typeof value === "object" && typeof (value as { key?: unknown }).key === "string";

/** The template at a dotted key of the strings, or undefined when there is none. */
function templateAt(strings: AdminStrings, key: string): string | undefined {
  const found = key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" && Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined), strings);
  return typeof found === "string" ? found : undefined;
}

/**
 * Stored words said in the language; the stored English (`fallback`) when there are none, or when their key is not
 * in the files (written by a later version, or damaged), so a page never shows a key.
 */
export function sayStored(language: AdminLanguage, stored: unknown, fallback: string): string {
  if (!isStoredWords(stored)) return fallback;
  const said = sayWords(adminStrings(language), stored);
  return said ?? fallback;
}

function sayWords(strings: AdminStrings, stored: StoredWords): string | undefined {
  const template = templateAt(strings, stored.key);
  if (template === undefined) return undefined;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(stored.values ?? {})) {
    if (isStoredWords(value)) {
      const inner = sayWords(strings, value);
      if (inner === undefined) return undefined;
      values[name] = inner;
    } else values[name] = value;
  }
  return fill(template, values);
}

/** Items said as a list ("a, b, c"), each of them words or text; a single one is itself. */
export function listWords(items: readonly Sentence[]): Sentence {
  if (items.length === 0) return "";
  const [first, ...rest] = items as [Sentence, ...Sentence[]];
  return rest.length === 0 ? first : words("common.list", { first, rest: listWords(rest) });
}

/** The English of stored words, as the column beside them keeps it. */
export const englishOf = (stored: StoredWords): string => sayWords(ENGLISH, stored) ?? stored.key;

/**
 * Words stored earlier (a decision, a shipment's error), to go inside new words: kept when they say the English
 * stored beside them, else that English as it is (a row from before the words were kept, or redacted).
 */
export function storedOr(stored: unknown, english: string): Sentence {
  return isStoredWords(stored) && englishOf(stored) === english ? stored : english;
}
