import nodemailer from "nodemailer";
import type { SmtpSecurity } from "./ndr-email-form";

/**
 * The merchant's own SMTP server, through nodemailer: checked (connect, TLS as chosen, sign in) when the settings are
 * saved, and used to send the day's NDR instructions. A failure comes back as a kind and a sentence that names the
 * host and port but never the password or the server's own reply (which may quote the user name back); nodemailer's
 * logging stays off, so nothing of the conversation reaches the logs.
 */

export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string;
  password: string;
}

export const SMTP_FAILURE_KINDS = ["not_found", "refused", "timeout", "tls", "auth", "deferred", "rejected", "other"] as const;
export type SmtpFailureKind = (typeof SMTP_FAILURE_KINDS)[number];
export interface SmtpFailure {
  kind: SmtpFailureKind;
  /** In English, for the logs and the record; the page words the kind in the admin's language. */
  message: string;
}

/** Seconds an SMTP server gets to connect, greet and answer each step. */
const CONNECT_SECONDS = 10;
const SOCKET_SECONDS = 30;

function transportOf(server: SmtpServer) {
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.security === "tls",
    requireTLS: server.security === "starttls",
    ignoreTLS: server.security === "none",
    auth: { user: server.user, pass: server.password },
    connectionTimeout: CONNECT_SECONDS * 1000,
    greetingTimeout: CONNECT_SECONDS * 1000,
    socketTimeout: SOCKET_SECONDS * 1000,
    logger: false,
    debug: false,
  });
}

interface MailError {
  code?: string;
  responseCode?: number;
  command?: string;
}

/** What went wrong, in words that say what to fix. */
export function smtpFailureOf(error: unknown, { host, port }: Pick<SmtpServer, "host" | "port">): SmtpFailure {
  const { code, responseCode } = (error ?? {}) as MailError;
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  const where = `${host}:${port}`;
  if (code === "EAUTH") return { kind: "auth", message: `${where} refused the user name and password: check them (a mailbox with two-step sign-in needs an app password)` };
  if (code === "EDNS" || cause === "ENOTFOUND") return { kind: "not_found", message: `The host ${host} was not found: check its name` };
  if (code === "ETIMEDOUT") return { kind: "timeout", message: `${where} did not answer within ${CONNECT_SECONDS} seconds: check the host, the port and the security` };
  if (code === "ETLS" || /^ERR_SSL|^ERR_TLS|CERT|SSL/.test(cause ?? "")) return { kind: "tls", message: `The secure connection to ${where} failed: check the security (TLS usually on port 465, STARTTLS on 587)` };
  if (code === "ECONNECTION" || code === "ESOCKET" || cause === "ECONNREFUSED") return { kind: "refused", message: `Nothing answered at ${where}: check the host and the port` };
  // 4xx: the server is busy or over quota for now (greylisting, a full mailbox); the next try may go.
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500) return { kind: "deferred", message: `${where} asked to try again later (SMTP ${responseCode})` };
  if (code === "EENVELOPE" || (responseCode !== undefined && responseCode >= 500)) return { kind: "rejected", message: `${where} refused the message${responseCode ? ` (SMTP ${responseCode})` : ""}: check the sender and recipient addresses` };
  return { kind: "other", message: `${where} failed${responseCode ? ` (SMTP ${responseCode})` : ""}${code ? ` (${code})` : ""}: try again, or check the settings` };
}

/** Connects, secures the connection as chosen and signs in: null when the server took it all. */
export async function checkSmtpServer(server: SmtpServer): Promise<SmtpFailure | null> {
  const transport = transportOf(server);
  try {
    await transport.verify();
    return null;
  } catch (error) {
    return smtpFailureOf(error, server);
  } finally {
    transport.close();
  }
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The same for every send of the same mail, so a mailbox recognises a repeat. */
  messageId: string;
  attachment: { filename: string; content: string; contentType: string };
}

/** Sends one mail: null when the server accepted it. */
export async function sendMail(server: SmtpServer, mail: OutgoingMail): Promise<SmtpFailure | null> {
  const transport = transportOf(server);
  try {
    await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId, attachments: [mail.attachment] });
    return null;
  } catch (error) {
    return smtpFailureOf(error, server);
  } finally {
    transport.close();
  }
}
