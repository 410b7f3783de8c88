import { renderToStaticMarkup } from "react-dom/server";
import type { PublicTracking } from "~/tracking/public-tracking.server";
import type { FailedAttemptAnswerView } from "./failed-attempt-answer.server";
import { FailedAttemptForm } from "./failed-attempt-form.server";
import { fill, formatDay, formatMoment, currentStageText, stageText, stringsFor, type Language } from "~/tracking/tracking-locale";

/**
 * The tracking page on the shop's own domain: the same facts and words as `/track/{awb}`, as a fragment Shopify's
 * app proxy renders inside the shop's theme (`application/liquid`), so it carries the shop's name and look.
 */

/**
 * Shopify renders the answer as Liquid: a courier's words holding `{{` or `{%` would run as Liquid in the shop's
 * theme. Every brace of the rendered markup becomes its HTML entity, which the browser shows the same.
 */
export const neutraliseLiquid = (markup: string) => markup.replace(/[{}]/g, (brace) => (brace === "{" ? "&#123;" : "&#125;"));

/** Scoped to the fragment, and short: the theme styles the rest. */
const STYLE = `<style>
.dakiya-track { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
.dakiya-track dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
.dakiya-track dd { margin: 0; }
.dakiya-track ol { padding-left: 1.25rem; }
.dakiya-track li { margin-bottom: .75rem; }
.dakiya-track li p { margin: 0; }
.dakiya-track .answer-form label, .dakiya-track .answer-form input, .dakiya-track .answer-form select { display: block; max-width: 100%; }
.dakiya-track .answer-form .choice { display: flex; gap: .5rem; align-items: center; }
</style>`;

export function renderShopTracking(tracking: PublicTracking, language: Language, answerView: FailedAttemptAnswerView | null = null): string {
  const t = stringsFor(language);
  const stage = currentStageText(language, tracking);
  const markup = renderToStaticMarkup(
    <div className="dakiya-track" lang={language}>
      <h1>{stage.label}</h1>
      <p>{stage.summary}</p>
      {tracking.deliveredAt ? (
        <p>
          {t.facts.delivered}: <time dateTime={tracking.deliveredAt}>{formatDay(language, tracking.deliveredAt)}</time>
        </p>
      ) : tracking.expectedDeliveryAt ? (
        <p>
          {t.facts.expected}: <time dateTime={tracking.expectedDeliveryAt}>{formatDay(language, tracking.expectedDeliveryAt)}</time>
        </p>
      ) : null}
      {answerView ? <FailedAttemptForm view={answerView} language={language} /> : null}
      <h2>{t.facts.heading}</h2>
      <dl>
        <dt>{t.facts.awb}</dt>
        <dd>{tracking.awb}</dd>
        <dt>{t.facts.courier}</dt>
        <dd>{tracking.courier ?? t.facts.unknown}</dd>
        <dt>{tracking.direction === "return" ? t.facts.pickupFrom : t.facts.destination}</dt>
        <dd>{tracking.destinationCity ?? t.facts.unknown}</dd>
      </dl>
      <h2>{t.timeline.heading}</h2>
      <p>{tracking.checkedAt ? fill(t.freshness.updated, { time: formatMoment(language, tracking.checkedAt) }) : t.freshness.never}</p>
      {tracking.timeline.length === 0 ? (
        <p>{t.timeline.empty}</p>
      ) : (
        <ol>
          {tracking.timeline.map((entry) => (
            <li key={`${entry.at}|${entry.code}|${entry.activity}`}>
              <p>
                <strong>{stageText(language, entry.code, tracking.direction).label}</strong>
              </p>
              <p>{entry.activity}</p>
              <p>
                <time dateTime={entry.at}>{formatMoment(language, entry.at)}</time>
                {entry.place ? ` · ${entry.place}` : null}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>,
  );
  return STYLE + neutraliseLiquid(markup);
}

export function renderShopTrackingNotFound(language: Language): string {
  const t = stringsFor(language);
  return renderShopTrackingMessage(language, t.notFound.title, t.notFound.body);
}

/** A page of a heading and a sentence (not found, wait a moment, an address that is not valid), for the theme. */
export function renderShopTrackingMessage(language: Language, title: string, body: string): string {
  return STYLE + neutraliseLiquid(renderToStaticMarkup(
    <div className="dakiya-track" lang={language}>
      <h1>{title}</h1>
      <p>{body}</p>
    </div>,
  ));
}
