import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import trackingStyles from "~/styles/tracking.css";
import confirmationStyles from "~/styles/cod-confirmation.css";
import { createCallerLimiter } from "~/caller-limits.server";
import { neutraliseLiquid } from "~/tracking/shop-tracking.server";
import { fill, formatMoment, formatRupees, LANGUAGES, pickLanguage, type Language } from "~/tracking/tracking-locale";
import type { ConfirmationState } from "./confirmation-lifecycle";
import { readPublicForm } from "~/security/public-form.server";
import { confirmationStrings, MAX_FORM_BYTES, parseShopperAnswer, STATE_CODES, type CorrectionField, type ParsedAnswer } from "./confirmation-form";
import { answerConfirmation, confirmationPageOf, takeSubmission, type ConfirmationPage } from "./confirmation.server";

/**
 * The shopper's page behind their confirmation link, for both addresses it is served at: `/confirm/{token}` on the
 * app (a plain document, no script: it is opened on a phone from WhatsApp or an e-mail), and `{proxy path}/confirm/
 * {token}` on the shop's own domain through Shopify's app proxy (a fragment Shopify renders inside the shop's theme).
 *
 * GET shows the order (its number, the destination city and PIN code, what to pay at the door, the deadline) with four
 * answers, each a POST of the same address: confirm, correct the address or mobile, pay online instead (when the
 * order has an e-mail address for Shopify's invoice), cancel. Nothing of the shopper is shown beyond that: Dakiya
 * keeps no address in clear to show. An answer is recorded at once and carried out in Shopify in the background; the
 * page then says what happens next. A link that is altered, forged, expired or not this shop's is one "not valid"
 * page (404), saying nothing more.
 *
 * Limits: a link opens at most 60 times a minute (counted by the link: shoppers on a shared network are not counted
 * together), a caller tries at most 30 links that do not verify a minute, an answer's form is at most 8 KB, and a
 * link takes at most 20 answers in all.
 */

const LINK_OPENS = createCallerLimiter({ limits: { limit: 60, windowMs: 60_000, maxTracked: 20_000 }, keyOf: (token) => token });
const BAD_LINKS = createCallerLimiter({ limits: { limit: 30, windowMs: 60_000, maxTracked: 10_000 } });

export interface ConfirmationRequest {
  request: Request;
  token: string | undefined;
  /** The shop the app proxy signed the request for; null on the app's own address. */
  shop: string | null;
  /** The caller's address, for the limit on links that do not verify. */
  clientAddress: string;
  now?: Date;
}

/** What the route sends: a page and its status, as a whole document or as a fragment for the shop's theme. */
export interface ConfirmationAnswer {
  status: number;
  title: string;
  language: Language;
  body: ReactNode;
  retryAfter?: number;
}

/** Answers a GET or a POST of the shopper's link. */
export async function answerConfirmationRequest({ request, token, shop, clientAddress, now = new Date() }: ConfirmationRequest): Promise<ConfirmationAnswer> {
  const url = new URL(request.url);
  const asked = url.searchParams.get("lang");
  const fallback = pickLanguage(asked, request.headers.get("accept-language"));
  const page = await confirmationPageOf(token, { shop, now });
  if (page.kind === "invalid") {
    const wait = BAD_LINKS.take(clientAddress);
    return wait > 0 ? rateLimited(fallback, wait) : invalid(fallback);
  }
  const language = (LANGUAGES as readonly string[]).includes(asked ?? "") ? (asked as Language) : (page.confirmation.language as Language);
  const wait = LINK_OPENS.take(token!);
  if (wait > 0) return rateLimited(language, wait);

  if (request.method !== "POST") return pageFor(page, language, { now });
  if (!(await takeSubmission(page.confirmation.id))) return rateLimited(language, 60);
  const form = await readForm(request);
  if (!form) return pageFor(page, language, { now, status: 413, parsed: { ok: false, formError: confirmationStrings(language).errors.unknownAnswer, fieldErrors: {}, values: {} } });
  const parsed = parseShopperAnswer(form, language);
  if (!parsed.ok) return pageFor(page, language, { now, status: 422, parsed });
  const outcome = await answerConfirmation(page.confirmation.id, parsed.answer === "correct" ? { answer: "correct", correction: parsed.correction } : { answer: parsed.answer }, { shop, now });
  switch (outcome.kind) {
    case "not_found":
      return invalid(language);
    case "cannot_pay_online":
      return pageFor(page, language, { now, status: 422, parsed: { ok: false, formError: confirmationStrings(language).errors.noEmail, fieldErrors: {}, values: {} } });
    case "not_open":
    case "answered":
      return pageFor({ ...page, confirmation: outcome.confirmation }, language, { now, status: outcome.kind === "answered" ? 200 : 409 });
  }
}

/** The form's fields (none, for a body that is not this page's form), or null when it is larger than any this page sends. */
async function readForm(request: Request): Promise<URLSearchParams | null> {
  const read = await readPublicForm(request, MAX_FORM_BYTES);
  if (read.ok) return read.fields;
  return read.problem === "too_large" ? null : new URLSearchParams();
}

const invalid = (language: Language): ConfirmationAnswer => {
  const t = confirmationStrings(language).invalid;
  return { status: 404, title: t.title, language, body: <Message title={t.title} body={t.body} /> };
};

const rateLimited = (language: Language, wait: number): ConfirmationAnswer => {
  const t = confirmationStrings(language).rateLimited;
  return { status: 429, title: t.title, language, body: <Message title={t.title} body={t.body} />, retryAfter: wait };
};

function Message({ title, body }: { title: string; body: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p className="lead">{body}</p>
    </>
  );
}

const DONE: Partial<Record<ConfirmationState, keyof ReturnType<typeof confirmationStrings>["done"]>> = {
  confirmed: "confirmed",
  corrected: "corrected",
  awaiting_payment: "awaitingPayment",
  paid_online: "paidOnline",
  cancelled: "cancelled",
  expired: "expired",
  withdrawn: "withdrawn",
};

function pageFor(page: Extract<ConfirmationPage, { kind: "found" }>, language: Language, { now, status = 200, parsed }: { now: Date; status?: number; parsed?: Extract<ParsedAnswer, { ok: false }> }): ConfirmationAnswer {
  const t = confirmationStrings(language);
  const values = { shop: page.shopName, order: page.orderName, destination: page.destination, amount: formatRupees(page.amountPaise) };
  const title = fill(t.document.titleFor, { order: page.orderName });
  const state = page.confirmation.state as ConfirmationState;
  const done = DONE[state];
  // An open confirmation past its last moment reads as over: the deadline's job acts on it shortly.
  const over = !done && page.confirmation.linkExpiresAt.getTime() <= now.getTime();
  if (done || over) {
    const words = t.done[done ?? "expired"];
    return { status, title, language, body: <Message title={words.title} body={fill(words.body, values)} /> };
  }
  return { status, title, language, body: <AskPage page={page} language={language} values={values} parsed={parsed} /> };
}

function AskPage({ page, language, values, parsed }: { page: Extract<ConfirmationPage, { kind: "found" }>; language: Language; values: Record<string, string>; parsed?: Extract<ParsedAnswer, { ok: false }> }) {
  const t = confirmationStrings(language);
  const errors = parsed?.fieldErrors ?? {};
  const typed = parsed?.values ?? {};
  const field = (name: CorrectionField) => ({
    id: `field-${name}`,
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `error-${name}` : undefined,
  });
  const error = (name: CorrectionField) =>
    errors[name] ? (
      <p id={`error-${name}`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  const correcting = Object.keys(errors).length > 0 || (parsed !== undefined && parsed.formError === t.errors.nothingToCorrect);
  return (
    <>
      <h1>{fill(t.ask.heading, { order: page.orderName })}</h1>
      <p className="lead">{fill(t.ask.intro, values)}</p>
      <p>{t.ask.question}</p>
      <p className="note">{fill(t.ask.deadline, { deadline: formatMoment(language, page.confirmation.deadlineAt.toISOString()) })}</p>
      {parsed?.formError || Object.keys(errors).length > 0 ? (
        <p className="form-error" role="alert">
          {parsed?.formError ?? t.fields.errorSummary}
        </p>
      ) : null}
      <form method="post" className="answer">
        <input type="hidden" name="answer" value="confirm" />
        <button type="submit" className="choice choice-main">
          {t.ask.confirm}
        </button>
      </form>
      <section className="answer" aria-labelledby="correct-heading">
        <h2 id="correct-heading">{t.ask.correctHeading}</h2>
        <p className="hint">{t.ask.correctHelp}</p>
        <form method="post" className="correction" noValidate={correcting}>
          <input type="hidden" name="answer" value="correct" />
          <label htmlFor="field-address1">{t.fields.address1}</label>
          <input {...field("address1")} type="text" autoComplete="address-line1" maxLength={501} defaultValue={typed.address1} />
          {error("address1")}
          <label htmlFor="field-address2">{t.fields.address2}</label>
          <input {...field("address2")} type="text" autoComplete="address-line2" maxLength={501} defaultValue={typed.address2} />
          {error("address2")}
          <label htmlFor="field-city">{t.fields.city}</label>
          <input {...field("city")} type="text" autoComplete="address-level2" maxLength={101} defaultValue={typed.city ?? page.city} />
          {error("city")}
          <label htmlFor="field-state">{t.fields.state}</label>
          <select {...field("state")} autoComplete="address-level1" defaultValue={typed.state ?? ""}>
            <option value="">{t.fields.chooseState}</option>
            {STATE_CODES.map((code) => (
              <option key={code} value={code}>
                {t.states[code]}
              </option>
            ))}
          </select>
          {error("state")}
          <label htmlFor="field-pincode">{t.fields.pincode}</label>
          <input {...field("pincode")} type="text" inputMode="numeric" autoComplete="postal-code" maxLength={12} defaultValue={typed.pincode ?? page.pincode} />
          {error("pincode")}
          <label htmlFor="field-phone">{t.fields.phone}</label>
          <input {...field("phone")} type="tel" inputMode="tel" autoComplete="tel" maxLength={20} defaultValue={typed.phone} aria-describedby={errors.phone ? "error-phone" : "phone-help"} />
          <p id="phone-help" className="hint">
            {t.fields.phoneHelp}
          </p>
          {error("phone")}
          <button type="submit" className="choice">
            {t.ask.correct}
          </button>
        </form>
      </section>
      {page.confirmation.canPayOnline ? (
        <section className="answer" aria-labelledby="online-heading">
          <h2 id="online-heading">{t.ask.payOnlineHeading}</h2>
          <p className="hint">{fill(t.ask.payOnlineHelp, values)}</p>
          <form method="post">
            <input type="hidden" name="answer" value="pay_online" />
            <button type="submit" className="choice">
              {t.ask.payOnline}
            </button>
          </form>
        </section>
      ) : null}
      <section className="answer" aria-labelledby="cancel-heading">
        <h2 id="cancel-heading">{t.ask.cancelHeading}</h2>
        <p className="hint">{t.ask.cancelHelp}</p>
        <form method="post">
          <input type="hidden" name="answer" value="cancel" />
          <button type="submit" className="choice choice-cancel">
            {t.ask.cancel}
          </button>
        </form>
      </section>
    </>
  );
}

const SECURITY_HEADERS = {
  // A shopper's order is nobody's search result, and the link is in the address.
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  Vary: "Accept-Language",
};

/** `?lang=xx` on the page's own path. */
const inLanguage = (path: string, language: Language) => `${path}?lang=${language}`;

/** The page as a whole document on the app's address: its own language on `<html lang>`, no script allowed. */
export function confirmationDocument(answer: ConfirmationAnswer, path: string): Response {
  const t = confirmationStrings(answer.language);
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <html lang={answer.language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="color-scheme" content="light" />
        <title>{answer.title}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Empty only under the test runner, which loads CSS as nothing. */}
        {trackingStyles ? <link rel="stylesheet" href={trackingStyles} /> : null}
        {confirmationStyles ? <link rel="stylesheet" href={confirmationStyles} /> : null}
      </head>
      <body>
        <header className="bar">
          <p className="brand">{t.document.title}</p>
          <nav aria-label={t.language.switchLabel} className="languages">
            <ul>
              {LANGUAGES.map((other) => (
                <li key={other}>
                  <a href={inLanguage(path, other)} lang={other} hrefLang={other} aria-current={other === answer.language ? "true" : undefined}>
                    {confirmationStrings(other).language.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main>{answer.body}</main>
      </body>
    </html>,
  )}`;
  return new Response(html, {
    status: answer.status,
    headers: {
      ...SECURITY_HEADERS,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": answer.language,
      "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      ...(answer.retryAfter ? { "Retry-After": String(answer.retryAfter) } : {}),
    },
  });
}

/** Scoped to the fragment, and short: the shop's theme styles the rest. */
const FRAGMENT_STYLE = `<style>
.dakiya-confirm { max-width: 32rem; margin: 1.5rem auto; padding: 0 1rem; }
.dakiya-confirm form { display: grid; gap: .5rem; margin: 1rem 0; }
.dakiya-confirm .answer { border-top: 1px solid rgba(0,0,0,.15); padding-top: 1rem; margin-top: 1.5rem; }
.dakiya-confirm input, .dakiya-confirm select, .dakiya-confirm button { min-height: 48px; width: 100%; font: inherit; }
.dakiya-confirm .field-error, .dakiya-confirm .form-error { color: #a4161a; font-weight: 600; }
.dakiya-confirm .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
</style>`;

/**
 * The page as Liquid for the shop's theme (Shopify renders an `application/liquid` answer inside the theme's layout).
 * Every brace is an entity, so nothing of the page runs as Liquid.
 */
export function confirmationFragment(answer: ConfirmationAnswer): string {
  return FRAGMENT_STYLE + neutraliseLiquid(renderToStaticMarkup(<div className="dakiya-confirm" lang={answer.language}>{answer.body}</div>));
}

/** The headers of the fragment's answer too: never kept, never indexed. */
export const FRAGMENT_HEADERS = { "Cache-Control": SECURITY_HEADERS["Cache-Control"], "X-Robots-Tag": SECURITY_HEADERS["X-Robots-Tag"], "Referrer-Policy": SECURITY_HEADERS["Referrer-Policy"] };
