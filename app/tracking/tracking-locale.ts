import en from "~/locales/tracking.en.json";
import hi from "~/locales/tracking.hi.json";
import { fill } from "~/locales/fill";

/**
 * The public tracking page's words, in English and Hindi (app/locales/tracking.*.json), how a request picks one,
 * and dates in the shop's time zone. Pure: no I/O, no clock.
 */

export type TrackingStrings = typeof en;
export const LANGUAGES = ["en", "hi"] as const;
export type Language = (typeof LANGUAGES)[number];

// Typed against the English file: a key missing from the Hindi one fails the typecheck (extra keys and
// placeholders are checked by tracking-locale.test.ts).
const STRINGS: Readonly<Record<Language, TrackingStrings>> = { en, hi };

export const stringsFor = (language: Language): TrackingStrings => STRINGS[language];

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/**
 * `?lang=hi|en` when given; otherwise the first of English and Hindi the browser's Accept-Language prefers
 * (`hi-IN`, `hi;q=0.9, en;q=0.8` …; `q=0` refuses a language); English when it names neither.
 */
export function pickLanguage(requested: string | null, acceptLanguage: string | null): Language {
  const asked = requested?.trim().toLowerCase() ?? "";
  if (isLanguage(asked)) return asked;
  // A browser sends a few dozen bytes; anything past 1 KB is not a browser's list.
  const ranked = (acceptLanguage ?? "")
    .slice(0, 1024)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      // A weight that is not a number from 0 to 1 makes the entry unusable, as a refusal would.
      const weight = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
      const q = weight === undefined ? 1 : Number(/^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(weight)?.[1] ?? 0);
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q, index };
    })
    .filter((entry) => entry.q > 0 && isLanguage(entry.primary))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const best = ranked[0]?.primary;
  return best && isLanguage(best) ? best : "en";
}

export { fill };

/**
 * "Try again in N second(s)", with the language's plural rule: `network` when the caller's own address asked too
 * often, `store` when the store's lookups by number are used up (its shoppers' tracking links still open).
 */
export function retryMessage(language: Language, seconds: number, counted: "network" | "store" = "network"): string {
  const { rateLimited } = stringsFor(language);
  const one = new Intl.PluralRules(LOCALES[language]).select(seconds) === "one";
  const form = counted === "store" ? (one ? rateLimited.storeOne : rateLimited.storeOther) : one ? rateLimited.one : rateLimited.other;
  return fill(form, { seconds });
}

/** The shop's time zone: Dakiya's merchants ship from India, and shoppers read Indian time. */
export const SHOP_TIME_ZONE = "Asia/Kolkata";

// Indian English ("25 Nov 2026", "2:15 pm") and Hindi with Devanagari month and day names.
const LOCALES: Readonly<Record<Language, string>> = { en: "en-IN", hi: "hi-IN" };

const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(language: Language, kind: "day" | "moment"): Intl.DateTimeFormat {
  const key = `${language}|${kind}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      kind === "day"
        ? { weekday: "short", day: "numeric", month: "short", year: "numeric" }
        : // ICU writes Hindi's 12-hour clock with English "am"/"pm"; a day period reads "सुबह 9:15", "दोपहर 2:15", "रात 11:40".
          { day: "numeric", month: "short", hour: "numeric", minute: "2-digit", ...(language === "hi" ? { dayPeriod: "short" } : { hour12: true }) };
    format = new Intl.DateTimeFormat(LOCALES[language], { ...options, timeZone: SHOP_TIME_ZONE });
    formats.set(key, format);
  }
  return format;
}

/** A day, in India: "Wed, 25 Nov 2026" / "बुध, 25 नव॰ 2026". */
export const formatDay = (language: Language, iso: string): string => formatter(language, "day").format(new Date(iso));

/** A moment, in India: "25 Nov, 2:15 pm" / "25 नव॰, दोपहर 2:15". */
export const formatMoment = (language: Language, iso: string): string => formatter(language, "moment").format(new Date(iso));

/** Rupees as India writes them, from paise: "₹1,299", "₹1,29,999", "₹1,299.50". */
export function formatRupees(paise: number): string {
  const whole = paise % 100 === 0;
  return new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 }).format(paise / 100);
}

type StageKey = keyof TrackingStrings["stages"];

type ReturnStageKey = keyof TrackingStrings["returnStages"];

/**
 * A return's pickup in return words: the shopper hands the parcel over rather than receives it. The courier's
 * stages map onto the few a shopper sending something back cares about; the exceptions keep their own words.
 */
const RETURN_STAGE_OF: Partial<Record<number, ReturnStageKey>> = { 2: "pending", 3: "3", 4: "4", 5: "5", 6: "6", 7: "6", 9: "6", 8: "8", 10: "10" };

/**
 * Where the parcel is now, as the page heads it: its stage, and for a delivery attempted more than once, how many
 * times (the courier tries again each time).
 */
export function currentStageText(language: Language, tracking: { stage: number | null; direction: "forward" | "return"; outcome: string; deliveryAttempts: number }): { label: string; summary: string } {
  const stage = stageText(language, tracking.stage, tracking.direction);
  if (tracking.outcome !== "delivery_attempted" || tracking.deliveryAttempts < 2 || tracking.direction === "return") return stage;
  return { label: stage.label, summary: fill(stringsFor(language).attempts.summary, { count: tracking.deliveryAttempts }) };
}

/** A stage's name and its meaning for the shopper, in plain words; `null` is "booked, nothing from the courier yet". */
export function stageText(language: Language, code: number | null, direction: "forward" | "return" = "forward"): { label: string; summary: string } {
  const { stages, returnStages } = stringsFor(language);
  if (direction === "return") {
    const returnKey = code === null ? "pending" : RETURN_STAGE_OF[code];
    if (returnKey) return returnStages[returnKey];
  }
  const key = (code === null ? "pending" : String(code)) as StageKey;
  return stages[key] ?? stages.pending;
}
