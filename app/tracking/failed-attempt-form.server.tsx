import { ADDRESS_LINE_LIMIT, LANDMARK_LIMIT } from "~/failed-deliveries/shopper-answer";
import { DELIVERY_SLOTS } from "~/failed-deliveries/failed-delivery-lifecycle";
import type { FailedAttemptAnswerView } from "./failed-attempt-answer.server";
import { fill, formatDay, stringsFor, type Language } from "./tracking-locale";

/**
 * The shopper's answer to a failed delivery, as a plain form on the tracking page (no script: it posts to the page's
 * own address, the link's token with it): deliver again on a day and at a time, with a corrected phone, another
 * number, the house and street and a landmark (the PIN code stays), or "I no longer want it". Shared by the app's own
 * page and the page on the shop's domain. Errors are said beside the form and each field they concern.
 */

const dayOf = (language: Language, day: string) => formatDay(language, `${day}T12:00:00+05:30`);

export function FailedAttemptForm({ view, language }: { view: FailedAttemptAnswerView; language: Language }) {
  const t = stringsFor(language).answer;
  const problems = new Set(view.problems);
  const described = (field: "phone" | "alternatePhone" | "addressLine" | "landmark") => (problems.has(field) ? { "aria-invalid": true, "aria-describedby": `${field}-error` } : {});
  const fieldError = (field: "phone" | "alternatePhone" | "addressLine" | "landmark") =>
    problems.has(field) ? (
      <p id={`${field}-error`} className="field-error">
        {t.problems[field]}
      </p>
    ) : null;
  const answered = view.answered;
  const slot = answered?.preferredSlot && (DELIVERY_SLOTS as readonly string[]).includes(answered.preferredSlot) ? t.slots[answered.preferredSlot as (typeof DELIVERY_SLOTS)[number]] : "";
  return (
    <section aria-labelledby="answer" className="answer">
      <h2 id="answer">{t.heading}</h2>
      {view.saved ? (
        <p role="status" className="answer-saved">
          {t.saved}
        </p>
      ) : null}
      {answered ? <p>{answered.kind === "cancel" ? t.yourAnswerCancel : fill(t.yourAnswerAgain, { date: answered.preferredDate ? dayOf(language, answered.preferredDate) : "", slot })}</p> : null}
      {view.state === "handed_off" ? <p>{t.handedOff}</p> : null}
      {view.state === "limited" ? <p>{t.limited}</p> : null}
      {view.state === "open" ? (
        <>
          <p>{t.intro}</p>
          {answered ? <p className="note">{fill(t.answersLeft[view.answersLeft === 1 ? "one" : "other"], { count: view.answersLeft })}</p> : null}
          {view.problems.length > 0 ? (
            <div role="alert" className="answer-problems">
              <p>{t.fix}</p>
              <ul>
                {view.problems.map((problem) => (
                  <li key={problem}>{t.problems[problem]}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <form method="post" className="answer-form">
            <fieldset>
              <legend>{t.choose}</legend>
              <label className="choice">
                <input type="radio" name="answer" value="deliver_again" defaultChecked /> {t.deliverAgain}
              </label>
              <label className="choice">
                <input type="radio" name="answer" value="cancel" /> {t.cancel}
              </label>
            </fieldset>
            <label htmlFor="preferredDate">{t.day}</label>
            <select id="preferredDate" name="preferredDate" aria-invalid={problems.has("date") || undefined}>
              {view.days.map((day) => (
                <option key={day} value={day}>
                  {dayOf(language, day)}
                </option>
              ))}
            </select>
            <label htmlFor="preferredSlot">{t.slot}</label>
            <select id="preferredSlot" name="preferredSlot" aria-invalid={problems.has("slot") || undefined}>
              {DELIVERY_SLOTS.map((option) => (
                <option key={option} value={option}>
                  {t.slots[option]}
                </option>
              ))}
            </select>
            <fieldset>
              <legend>{t.corrections}</legend>
              <label htmlFor="phone">{t.phone}</label>
              <input id="phone" name="phone" type="tel" inputMode="tel" autoComplete="tel" maxLength={20} aria-invalid={problems.has("phone") || undefined} aria-describedby={problems.has("phone") ? "phone-help phone-error" : "phone-help"} />
              <p id="phone-help" className="note">
                {t.phoneHelp}
              </p>
              {fieldError("phone")}
              <label htmlFor="alternatePhone">{t.alternatePhone}</label>
              <input id="alternatePhone" name="alternatePhone" type="tel" inputMode="tel" autoComplete="off" maxLength={20} {...described("alternatePhone")} />
              {fieldError("alternatePhone")}
              <label htmlFor="addressLine">{t.addressLine}</label>
              <input id="addressLine" name="addressLine" type="text" autoComplete="address-line1" maxLength={ADDRESS_LINE_LIMIT} {...described("addressLine")} />
              {fieldError("addressLine")}
              <label htmlFor="landmark">{t.landmark}</label>
              <input id="landmark" name="landmark" type="text" autoComplete="off" maxLength={LANDMARK_LIMIT} {...described("landmark")} />
              {fieldError("landmark")}
              <p className="note">{t.pincodeFixed}</p>
            </fieldset>
            <button type="submit">{t.send}</button>
          </form>
        </>
      ) : null}
    </section>
  );
}
