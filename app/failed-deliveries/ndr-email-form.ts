import * as z from "zod";

/**
 * The e-mail hand-off's settings as the merchant types them: where the day's NDR instructions go, at which hour of the
 * shop's day, and the merchant's own SMTP server that sends them. Every field bounded and checked; a refusal names its
 * field by code, and the page words it in the admin's language. The password is never read back: left empty, the
 * stored one stays. Pure: the page and the server read it.
 */

export const SMTP_SECURITIES = ["starttls", "tls", "none"] as const;
export type SmtpSecurity = (typeof SMTP_SECURITIES)[number];

/** The port each security usually takes: what the form suggests. */
export const USUAL_PORTS: Readonly<Record<SmtpSecurity, number>> = { starttls: 587, tls: 465, none: 25 };

export const EMAIL_LIMIT = 254;
export const HOST_LIMIT = 253;
export const USER_LIMIT = 254;
export const PASSWORD_LIMIT = 256;

export interface NdrEmailFields {
  recipient: string;
  sendHour: number;
  smtpHost: string;
  smtpPort: number;
  smtpSecurity: SmtpSecurity;
  smtpUser: string;
  /** Null: keep the stored password. */
  smtpPassword: string | null;
  fromAddress: string;
}

export type NdrEmailField = keyof NdrEmailFields;
export const NDR_EMAIL_FIELDS: readonly NdrEmailField[] = ["recipient", "sendHour", "smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword", "fromAddress"];

// eslint-disable-next-line no-control-regex -- the characters refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const email = z.email().max(EMAIL_LIMIT);
/** A host name (letters, digits, hyphens, dots) or an IPv4 address; an IPv6 address in its usual form. */
const host = z
  .string()
  .min(1)
  .max(HOST_LIMIT)
  .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^[0-9A-Fa-f:]+$/);

/** The form's fields, or the fields it refuses. A field missing from the form counts as empty. */
export function readNdrEmailForm(form: Record<string, string | undefined>): { ok: true; fields: NdrEmailFields } | { ok: false; problems: NdrEmailField[] } {
  const text = (name: NdrEmailField, limit: number) => (form[name] ?? "").slice(0, limit + 1).trim();
  const problems: NdrEmailField[] = [];
  const recipient = text("recipient", EMAIL_LIMIT);
  if (!email.safeParse(recipient).success) problems.push("recipient");
  const hourText = text("sendHour", 2);
  const sendHour = /^\d{1,2}$/.test(hourText) ? Number(hourText) : NaN;
  if (!(sendHour >= 0 && sendHour <= 23)) problems.push("sendHour");
  const smtpHost = text("smtpHost", HOST_LIMIT);
  if (!host.safeParse(smtpHost).success) problems.push("smtpHost");
  const portText = text("smtpPort", 5);
  const smtpPort = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(smtpPort >= 1 && smtpPort <= 65_535)) problems.push("smtpPort");
  const security = z.enum(SMTP_SECURITIES).safeParse(text("smtpSecurity", 10));
  if (!security.success) problems.push("smtpSecurity");
  const smtpUser = text("smtpUser", USER_LIMIT);
  if (!smtpUser || smtpUser.length > USER_LIMIT || CONTROL.test(smtpUser)) problems.push("smtpUser");
  // A password is taken as typed (blanks and all), only bounded: it is the server's to judge.
  const password = (form.smtpPassword ?? "").slice(0, PASSWORD_LIMIT + 1);
  if (password.length > PASSWORD_LIMIT || CONTROL.test(password)) problems.push("smtpPassword");
  const fromAddress = text("fromAddress", EMAIL_LIMIT);
  if (!email.safeParse(fromAddress).success) problems.push("fromAddress");
  if (problems.length > 0 || !security.success) return { ok: false, problems };
  return { ok: true, fields: { recipient, sendHour, smtpHost: smtpHost.replace(/\.$/, "").toLowerCase(), smtpPort, smtpSecurity: security.data, smtpUser, smtpPassword: password === "" ? null : password, fromAddress } };
}

/** The hour (0–23) an instant falls in, in the shop's time zone. */
export function hourIn(instant: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(instant));
}
