import { adminStrings, fill, type AdminLanguage } from "~/locales/admin-language";

/**
 * Background work as the merchant reads it when it needs them: the work's name by its queue and what it acted on,
 * in the admin's language (the page) or in English (the server's own answer). Pure.
 */

/** What a job acted on. */
export type JobSubject = { kind: "shipment"; id: number } | { kind: "order"; id: string } | { kind: "shop" };

/** The work's name; a queue the locale files do not name is said by its own name. */
export function jobLabelInWords(queue: string, language: AdminLanguage): string {
  const labels: Record<string, string> = adminStrings(language).activity.jobs.labels;
  return Object.hasOwn(labels, queue) ? labels[queue]! : queue;
}

export function jobSubjectInWords(subject: JobSubject, language: AdminLanguage): string {
  const subjects = adminStrings(language).activity.jobs.subjects;
  return subject.kind === "shop" ? subjects.shop : fill(subjects[subject.kind], { id: subject.id });
}
