import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ANSWER_FORM_BYTES, answerFailedAttempt, answerFormRefused, failedAttemptAnswerView, type FailedAttemptAnswerView } from "~/tracking/failed-attempt-answer.server";
import { readPublicForm } from "~/security/public-form.server";
import { FailedAttemptForm } from "~/tracking/failed-attempt-form.server";
import { TRACKING_LINK_TOKEN_PARAM } from "~/shipping/tracking-url";
import { lookUpTracking, MILESTONES, parseAwb, trackingLookupLimiter, type PublicTracking } from "~/tracking/public-tracking.server";
import { htmlResponse, LookupForm, TrackingDocument } from "~/tracking/tracking-document.server";
import { displayPhone } from "~/tracking/seller-contact";
import { fill, formatDay, formatMoment, formatRupees, pickLanguage, retryMessage, currentStageText, stageText, stringsFor, type Language } from "~/tracking/tracking-locale";

/**
 * The public tracking page, `GET /track/{awb}`: the link in Shopify's shipping email. No login and no Shopify
 * session; a plain document rendered on the server (app/tracking/tracking-document.server.tsx says why without
 * JavaScript). Lookups by number are rate-limited per caller, a tracking link's opens per parcel (so a caller who
 * floods never holds up a shopper with their link); an unknown or malformed number is a 404 page, in the shopper's
 * language. The details (courier, city, dates, the courier's updates) only with the link's `?token=`; without it the stage.
 */
export const loader = async ({ request, params, context }: LoaderFunctionArgs) => trackingPage(request, params.awb, context.clientAddress);

/**
 * `POST /track/{awb}?token=…`: the shopper's answer to a failed delivery, from the form on the page. Counted as an
 * open of the link (or a lookup by number, without it); taken only from the holder of the parcel's own link while the
 * parcel is in a failed attempt — anything else is a 403 page that says which link can answer. Answers the page
 * again, with what was kept or what to correct (422).
 */
export const action = async ({ request, params, context }: ActionFunctionArgs) => {
  const url = new URL(request.url);
  const language = pickLanguage(url.searchParams.get("lang"), request.headers.get("accept-language"));
  const read = await readPublicForm(request, ANSWER_FORM_BYTES);
  if (!read.ok) return answerFormRefused(read.problem);
  const form = read.fields;
  return trackingPage(request, params.awb, context.clientAddress, async (holder) => {
    const answered = await answerFailedAttempt(params.awb, holder, form, language);
    return answered.kind === "refused" ? { refused: true } : { view: answered.view, status: answered.kind === "invalid" ? 422 : answered.kind === "closed" ? 409 : 200 };
  });
};

type Answering = (holder: { token: string | null }) => Promise<{ refused: true } | { view: FailedAttemptAnswerView; status: number }>;

async function trackingPage(request: Request, rawAwb: string | undefined, clientAddress: string | undefined, answering?: Answering) {
  const url = new URL(request.url);
  const language = pickLanguage(url.searchParams.get("lang"), request.headers.get("accept-language"));
  const token = url.searchParams.get(TRACKING_LINK_TOKEN_PARAM);
  const path = url.pathname;

  const lookup = await lookUpTracking(rawAwb, { token, takeByNumber: () => trackingLookupLimiter.take(clientAddress ?? "unknown") });
  if (lookup.kind === "limited") {
    const t = stringsFor(language);
    return htmlResponse(
      <TrackingDocument language={language} title={t.rateLimited.title} path={path}>
        <h1>{t.rateLimited.title}</h1>
        <p className="lead">{retryMessage(language, lookup.wait)}</p>
      </TrackingDocument>,
      { status: 429, language, cacheControl: "no-store", headers: { "Retry-After": String(lookup.wait) } },
    );
  }
  if (lookup.kind === "not_found") {
    const t = stringsFor(language);
    return htmlResponse(
      <TrackingDocument language={language} title={t.notFound.title} path={path}>
        <h1>{t.notFound.title}</h1>
        <p className="lead">{t.notFound.body}</p>
        <LookupForm language={language} value={parseAwb(rawAwb) ?? undefined} />
      </TrackingDocument>,
      { status: 404, language, cacheControl: "no-store" },
    );
  }

  const { tracking } = lookup;
  const answered = answering && tracking.detail === "full" ? await answering({ token }) : null;
  if (answering && (!answered || "refused" in answered)) {
    const t = stringsFor(language).answer;
    return htmlResponse(
      <TrackingDocument language={language} title={t.refusedTitle} path={path}>
        <h1>{t.refusedTitle}</h1>
        <p className="lead">{t.refused}</p>
      </TrackingDocument>,
      { status: 403, language, cacheControl: "no-store" },
    );
  }
  const answerView = answered && "view" in answered ? answered.view : tracking.detail === "full" ? await failedAttemptAnswerView(rawAwb, { token }) : null;
  const stage = currentStageText(language, tracking);
  // The language switch keeps the token: the same page, in another language.
  const pagePath = tracking.detail === "full" && token ? `${path}?${new URLSearchParams({ [TRACKING_LINK_TOKEN_PARAM]: token })}` : path;
  return htmlResponse(
    <TrackingDocument language={language} title={`${fill(stringsFor(language).document.titleFor, { stage: stage.label, awb: tracking.awb })}`} path={pagePath} seller={tracking.seller}>
      {tracking.detail === "full" ? <TrackingPage tracking={tracking} language={language} answerView={answerView} /> : <StageOnlyPage tracking={tracking} language={language} />}
    </TrackingDocument>,
    // A page with the answer form is not kept: the shopper's next look must show their answer.
    { status: answered && "status" in answered ? answered.status : 200, language, cacheControl: answerView ? "no-store" : "private, max-age=60", logoUrl: tracking.seller?.logoUrl },
  );
}

function TrackingPage({ tracking, language, answerView }: { tracking: PublicTracking; language: Language; answerView: FailedAttemptAnswerView | null }) {
  const t = stringsFor(language);
  const stage = currentStageText(language, tracking);
  return (
    <>
      <section className={`stage stage-${tracking.tone}`} aria-labelledby="stage">
        <h1 id="stage">{stage.label}</h1>
        <p className="lead">{stage.summary}</p>
        {tracking.deliveredAt ? (
          <p className="when">
            {t.facts.delivered}: <time dateTime={tracking.deliveredAt}>{formatDay(language, tracking.deliveredAt)}</time>
          </p>
        ) : tracking.expectedDeliveryAt ? (
          <p className="when">
            {t.facts.expected}: <time dateTime={tracking.expectedDeliveryAt}>{formatDay(language, tracking.expectedDeliveryAt)}</time>
          </p>
        ) : null}
        {tracking.codDuePaise !== null ? (
          <p className="cod">
            <strong>{fill(t.cod.keepReady, { amount: formatRupees(tracking.codDuePaise) })}</strong> {t.cod.explain}
          </p>
        ) : null}
      </section>

      {tracking.milestone ? <Progress milestone={tracking.milestone} language={language} /> : null}

      {answerView ? <FailedAttemptForm view={answerView} language={language} /> : null}

      <section aria-labelledby="details">
        <h2 id="details">{t.facts.heading}</h2>
        <dl className="facts">
          {tracking.orderName ? (
            <div>
              <dt>{t.facts.order}</dt>
              <dd>{tracking.orderName}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t.facts.awb}</dt>
            <dd className="awb">{tracking.awb}</dd>
          </div>
          <div>
            <dt>{t.facts.courier}</dt>
            <dd>{tracking.courier ?? t.facts.unknown}</dd>
          </div>
          <div>
            <dt>{tracking.direction === "return" ? t.facts.pickupFrom : t.facts.destination}</dt>
            <dd>{tracking.destinationCity ?? t.facts.unknown}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="updates">
        <h2 id="updates">{t.timeline.heading}</h2>
        <p className="note">
          {tracking.checkedAt ? fill(t.freshness.updated, { time: formatMoment(language, tracking.checkedAt) }) : t.freshness.never}
          {tracking.refreshRequested ? ` ${t.freshness.checking}` : null}
        </p>
        {tracking.timeline.length === 0 ? (
          <p>{t.timeline.empty}</p>
        ) : (
          <>
            <p className="visually-hidden">{t.timeline.intro}</p>
            <ol className="timeline">
              {tracking.timeline.map((entry) => (
                <li key={`${entry.at}|${entry.code}|${entry.activity}`}>
                  <p className="entry-stage">{stageText(language, entry.code, tracking.direction).label}</p>
                  {/* The courier writes in English: a Hindi page says the stage in Hindi and keeps their words, marked as English. */}
                  {language === "en" ? (
                    <p className="entry-activity">{entry.activity}</p>
                  ) : (
                    <>
                      <p className="entry-line">{stageText(language, entry.code, tracking.direction).summary}</p>
                      <p className="entry-activity" lang="en">
                        <span className="visually-hidden">{t.timeline.courierWords}: </span>
                        {entry.activity}
                      </p>
                    </>
                  )}
                  <p className="entry-meta">
                    <time dateTime={entry.at}>{formatMoment(language, entry.at)}</time>
                    {entry.place ? <span className="entry-place">{entry.place}</span> : null}
                  </p>
                </li>
              ))}
            </ol>
          </>
        )}
      </section>

      {tracking.seller && (tracking.seller.email || tracking.seller.phone) ? <SellerContact seller={tracking.seller} language={language} /> : null}
    </>
  );
}

function SellerContact({ seller, language }: { seller: NonNullable<PublicTracking["seller"]>; language: Language }) {
  const t = stringsFor(language);
  return (
    <section aria-labelledby="seller">
      <h2 id="seller">{t.seller.heading}</h2>
      <p>{fill(t.seller.contact, { shop: seller.name })}</p>
      <ul className="contact">
        {seller.phone ? (
          <li>
            {t.seller.phone}: <a href={`tel:${seller.phone}`}>{displayPhone(seller.phone)}</a>
          </li>
        ) : null}
        {seller.email ? (
          <li>
            {t.seller.email}: <a href={`mailto:${seller.email}`}>{seller.email}</a>
          </li>
        ) : null}
      </ul>
    </section>
  );
}

/** A number typed or guessed, or an older link: the stage and the progress, nothing that says where or when. */
function StageOnlyPage({ tracking, language }: { tracking: PublicTracking; language: Language }) {
  const t = stringsFor(language);
  const stage = currentStageText(language, tracking);
  return (
    <>
      <section className={`stage stage-${tracking.tone}`} aria-labelledby="stage">
        <h1 id="stage">{stage.label}</h1>
        <p className="lead">{stage.summary}</p>
      </section>

      {tracking.milestone ? <Progress milestone={tracking.milestone} language={language} /> : null}

      <section aria-labelledby="details">
        <h2 id="details">{t.facts.heading}</h2>
        <dl className="facts">
          <div>
            <dt>{t.facts.awb}</dt>
            <dd className="awb">{tracking.awb}</dd>
          </div>
        </dl>
        <p className="note">{t.limited.note}</p>
      </section>
    </>
  );
}

function Progress({ milestone, language }: { milestone: NonNullable<PublicTracking["milestone"]>; language: Language }) {
  const t = stringsFor(language);
  const current = MILESTONES.indexOf(milestone);
  return (
    <section aria-labelledby="progress">
      <h2 id="progress" className="visually-hidden">
        {t.progress.heading}
      </h2>
      <ol className="progress">
        {MILESTONES.map((step, index) => {
          const state = index < current ? "done" : index === current ? "current" : "todo";
          return (
            <li key={step} className={`step-${state}`} aria-current={state === "current" ? "step" : undefined}>
              {t.progress[step]}
              {state === "todo" ? null : <span className="visually-hidden"> ({state === "done" ? t.progress.done : t.progress.current})</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
