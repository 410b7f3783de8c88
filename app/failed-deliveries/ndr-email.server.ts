import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { secretBox } from "~/settings/shop-settings.server";
import { dayIn, isTimeZone, DEFAULT_SHOP_TIME_ZONE } from "~/shop-time";
import { hourIn, readNdrEmailForm, type NdrEmailField, type NdrEmailFields, type SmtpSecurity } from "./ndr-email-form";
import { takeNdrInstructionsIn } from "./ndr-instructions.server";
import { checkSmtpServer, sendMail, SMTP_FAILURE_KINDS, type SmtpFailure, type SmtpFailureKind, type SmtpServer } from "./smtp.server";

/**
 * The day's NDR instructions by e-mail, for a courier with no NDR API whose desk takes them by mail: the merchant
 * gives the address, the hour of the shop's day and their own SMTP server (checked on save: it connected, secured the
 * connection and signed in; the password sealed at rest). Every few minutes a sweep finds the shops whose hour has
 * come and whose day's mail has not gone; each gets an `ndr-email` job, which sends the instructions not yet handed
 * off as a CSV attachment.
 *
 * Exactly once: the day's dispatch row is locked for the whole send, and the decisions are marked handed off in the
 * same transaction that sends the mail, committed only once the server accepted it. Two jobs at once, or a job run
 * again, find the day sent and do nothing; a failed send rolls the marks back and is recorded (attempts, the reason)
 * for Needs attention, and the queue tries again. Only a crash between the server's acceptance and the commit can send
 * the same mail twice; its Message-ID is the same, so the mailbox sees a repeat, and the decisions are marked once.
 */

/** How long the send's transaction may take: the SMTP server's connect and answer timeouts fit in it. */
const SEND_TRANSACTION_MS = 90_000;

export interface NdrEmailView extends Omit<NdrEmailFields, "smtpPassword"> {
  /** Whether a password is stored: the password itself never leaves the server. */
  hasPassword: boolean;
  checkedAt: string;
  timeZone: string;
}

export interface NdrEmailDispatchView {
  day: string;
  sentAt: string | null;
  handedOff: number;
  attempts: number;
  lastError: string | null;
  lastErrorKind: SmtpFailureKind | null;
  lastAttemptAt: string | null;
}

/** The shop's e-mail settings (never the password) and its latest days' dispatches, newest first. */
export async function getNdrEmail(shop: string): Promise<{ settings: NdrEmailView | null; dispatches: NdrEmailDispatchView[] }> {
  const [settings, dispatches] = await Promise.all([
    prisma.ndrEmailSettings.findUnique({ where: { shop } }),
    prisma.ndrEmailDispatch.findMany({ where: { shop }, orderBy: { day: "desc" }, take: 7 }),
  ]);
  return {
    settings: settings && {
      recipient: settings.recipient,
      sendHour: settings.sendHour,
      smtpHost: settings.smtpHost,
      smtpPort: settings.smtpPort,
      smtpSecurity: settings.smtpSecurity as SmtpSecurity,
      smtpUser: settings.smtpUser,
      fromAddress: settings.fromAddress,
      hasPassword: settings.smtpPasswordCipher !== "",
      checkedAt: settings.checkedAt.toISOString(),
      timeZone: settings.timeZone,
    },
    dispatches: dispatches.map((dispatch) => ({
      day: dispatch.day,
      sentAt: dispatch.sentAt?.toISOString() ?? null,
      handedOff: dispatch.handedOff,
      attempts: dispatch.attempts,
      lastError: dispatch.lastError,
      lastErrorKind: (SMTP_FAILURE_KINDS as readonly string[]).includes(dispatch.lastErrorKind ?? "") ? (dispatch.lastErrorKind as SmtpFailureKind) : null,
      lastAttemptAt: dispatch.lastAttemptAt?.toISOString() ?? null,
    })),
  };
}

export type SaveOutcome =
  | { ok: true }
  /** Fields to fix, each by name. */
  | { ok: false; kind: "fields"; problems: NdrEmailField[] }
  /** No password given and none stored. */
  | { ok: false; kind: "password" }
  /** The server refused the check: what failed, and in English. */
  | { ok: false; kind: "smtp"; failure: SmtpFailureKind; message: string };

/**
 * Saves the settings from the page's form once the SMTP server took a sign-in with them; nothing is saved otherwise.
 * An empty password keeps the stored one.
 */
export async function saveNdrEmailSettings(shop: string, form: Record<string, string | undefined>, shopTimeZone: string, now = new Date()): Promise<SaveOutcome> {
  const read = readNdrEmailForm(form);
  if (!read.ok) return { ok: false, kind: "fields", problems: read.problems };
  const { fields } = read;
  const stored = await prisma.ndrEmailSettings.findUnique({ where: { shop }, select: { smtpPasswordCipher: true } });
  const password = fields.smtpPassword ?? (stored ? secretBox().open(stored.smtpPasswordCipher) : null);
  if (password === null) return { ok: false, kind: "password" };
  const failure = await checkSmtpServer({ host: fields.smtpHost, port: fields.smtpPort, security: fields.smtpSecurity, user: fields.smtpUser, password });
  if (failure) return { ok: false, kind: "smtp", failure: failure.kind, message: failure.message };
  const columns = {
    recipient: fields.recipient,
    sendHour: fields.sendHour,
    timeZone: isTimeZone(shopTimeZone) ? shopTimeZone : DEFAULT_SHOP_TIME_ZONE,
    smtpHost: fields.smtpHost,
    smtpPort: fields.smtpPort,
    smtpSecurity: fields.smtpSecurity,
    smtpUser: fields.smtpUser,
    smtpPasswordCipher: secretBox().seal(password),
    fromAddress: fields.fromAddress,
    checkedAt: now,
  };
  await prisma.ndrEmailSettings.upsert({ where: { shop }, create: { shop, ...columns }, update: columns });
  return { ok: true };
}

/** Reseals every stored SMTP password with the current key (run after rotating ENCRYPTION_KEY, as the courier secrets are). */
export async function resealSmtpPasswords(): Promise<number> {
  const box = secretBox();
  const rows = await prisma.ndrEmailSettings.findMany({ select: { shop: true, smtpPasswordCipher: true } });
  let resealed = 0;
  for (const row of rows) {
    if (!box.needsResealing(row.smtpPasswordCipher)) continue;
    await prisma.ndrEmailSettings.update({ where: { shop: row.shop }, data: { smtpPasswordCipher: box.seal(box.open(row.smtpPasswordCipher)) } });
    resealed += 1;
  }
  return resealed;
}

/** The merchant stops the e-mails: the settings (and the sealed password) go; the days' record stays. */
export async function stopNdrEmail(shop: string): Promise<boolean> {
  return (await prisma.ndrEmailSettings.deleteMany({ where: { shop } })).count > 0;
}

/** shop/redact: the shop's settings and dispatches. */
export async function eraseShopNdrEmail(tx: Prisma.TransactionClient, shop: string): Promise<void> {
  await tx.ndrEmailSettings.deleteMany({ where: { shop } });
  await tx.ndrEmailDispatch.deleteMany({ where: { shop } });
}

/** The shops whose hour has come today (their time) and whose day's mail has not gone. */
export async function listShopsDueForNdrEmail(now = new Date()): Promise<string[]> {
  const settings = await prisma.ndrEmailSettings.findMany({ select: { shop: true, sendHour: true, timeZone: true } });
  const due = settings.filter((each) => hourIn(now, each.timeZone) >= each.sendHour);
  if (due.length === 0) return [];
  const sent = await prisma.ndrEmailDispatch.findMany({
    where: { OR: due.map((each) => ({ shop: each.shop, day: dayIn(now, each.timeZone), sentAt: { not: null } })) },
    select: { shop: true },
  });
  const done = new Set(sent.map((each) => each.shop));
  return due.map((each) => each.shop).filter((shop) => !done.has(shop));
}

export type SendOutcome =
  | { kind: "not_configured" | "not_yet" | "already_sent" | "nothing_to_send" }
  | { kind: "sent"; handedOff: number }
  | { kind: "failed"; message: string };

/**
 * Sends the shop's day's instructions if its hour has come and the day's mail has not gone (the `ndr-email` job). A
 * day with nothing to hand off sends nothing and stays open: a decision made later that day goes with a later sweep.
 */
export async function sendDayNdrEmail(shop: string, now = new Date()): Promise<SendOutcome> {
  const settings = await prisma.ndrEmailSettings.findUnique({ where: { shop } });
  if (!settings) return { kind: "not_configured" };
  if (hourIn(now, settings.timeZone) < settings.sendHour) return { kind: "not_yet" };
  const day = dayIn(now, settings.timeZone);
  await prisma.ndrEmailDispatch.createMany({ data: [{ shop, day }], skipDuplicates: true });
  const server: SmtpServer = { host: settings.smtpHost, port: settings.smtpPort, security: settings.smtpSecurity as SmtpSecurity, user: settings.smtpUser, password: secretBox().open(settings.smtpPasswordCipher) };
  const failed: { failure: SmtpFailure | null } = { failure: null };
  const outcome = await prisma
    .$transaction(
      async (tx): Promise<SendOutcome> => {
        // Held until the mail is sent and its decisions marked: a second job waits here, then finds the day sent.
        const [dispatch] = await tx.$queryRaw<{ id: number; sentAt: Date | null }[]>`SELECT id, "sentAt" FROM "NdrEmailDispatch" WHERE shop = ${shop} AND day = ${day} FOR UPDATE`;
        if (!dispatch || dispatch.sentAt) return { kind: "already_sent" };
        const { csv, count } = await takeNdrInstructionsIn(tx, shop, "email", { actor: { kind: "job", name: "NDR instructions e-mail" }, at: now });
        if (count === 0) return { kind: "nothing_to_send" };
        // The same decisions on the same day make the same Message-ID.
        const messageId = `<ndr-${createHash("sha256").update(`${shop}|${day}|${csv}`).digest("hex").slice(0, 32)}@dakiya>`;
        const sendFailure = await sendMail(server, {
          from: settings.fromAddress,
          to: settings.recipient,
          subject: `NDR instructions ${day}: ${count} parcel${count === 1 ? "" : "s"}`,
          text: `The day's NDR instructions from ${shop}: ${count} parcel${count === 1 ? "" : "s"} to re-attempt or return to origin, in the attached CSV (awb, order, action, the shopper's preferred date and window, phone, address line, landmark, remarks).\r\n`,
          messageId,
          attachment: { filename: `ndr-instructions-${day}.csv`, content: csv, contentType: "text/csv; charset=utf-8" },
        });
        if (sendFailure) {
          failed.failure = sendFailure;
          // Rolls back the marks: the decisions wait for the next try.
          throw new NdrEmailNotSent(sendFailure.message);
        }
        await tx.ndrEmailDispatch.update({ where: { id: dispatch.id }, data: { sentAt: now, handedOff: count, messageId, lastError: null, lastErrorKind: null, lastAttemptAt: now, attempts: { increment: 1 } } });
        return { kind: "sent", handedOff: count };
      },
      { timeout: SEND_TRANSACTION_MS, maxWait: SEND_TRANSACTION_MS },
    )
    .catch((error: unknown) => {
      if (error instanceof NdrEmailNotSent) return null;
      throw error;
    });
  if (outcome) return outcome;
  const failure = failed.failure ?? { kind: "other" as const, message: "The mail was not sent" };
  await prisma.ndrEmailDispatch.update({ where: { shop_day: { shop, day } }, data: { attempts: { increment: 1 }, lastError: failure.message, lastErrorKind: failure.kind, lastAttemptAt: now } });
  return { kind: "failed", message: failure.message };
}

class NdrEmailNotSent extends Error {
  override name = "NdrEmailNotSent";
}

/** A day's mail that failed and has not gone since, for Needs attention: the latest such day in the last two. */
export interface FailingNdrEmail {
  day: string;
  attempts: number;
  /** What failed, by kind (the page words it) and in English. */
  kind: SmtpFailureKind;
  lastError: string;
  lastAttemptAt: string;
  /** The server it was sent through, for the page's words. */
  host: string;
  port: number;
}

export async function failingNdrEmail(shop: string, now = new Date()): Promise<FailingNdrEmail | null> {
  const failing = await prisma.ndrEmailDispatch.findFirst({
    where: { shop, sentAt: null, lastError: { not: null }, lastAttemptAt: { gte: new Date(now.getTime() - 2 * 86_400_000) } },
    orderBy: { lastAttemptAt: "desc" },
  });
  if (!failing) return null;
  const server = await prisma.ndrEmailSettings.findUnique({ where: { shop }, select: { smtpHost: true, smtpPort: true } });
  // Stopped since: nothing more will be tried.
  if (!server) return null;
  const kind = (SMTP_FAILURE_KINDS as readonly string[]).includes(failing.lastErrorKind ?? "") ? (failing.lastErrorKind as SmtpFailureKind) : "other";
  return { day: failing.day, attempts: failing.attempts, kind, lastError: failing.lastError!, lastAttemptAt: failing.lastAttemptAt!.toISOString(), host: server.smtpHost, port: server.smtpPort };
}
