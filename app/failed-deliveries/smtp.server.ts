import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
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

export const SMTP_FAILURE_KINDS = ["not_found", "internal", "refused", "timeout", "tls", "certificate", "auth", "deferred", "rejected", "other"] as const;
export type SmtpFailureKind = (typeof SMTP_FAILURE_KINDS)[number];
export interface SmtpFailure {
  kind: SmtpFailureKind;
  /** In English, for the logs and the record; the page words the kind in the admin's language. */
  message: string;
}

/** Seconds an SMTP server gets to connect, greet and answer each step. */
const CONNECT_SECONDS = 10;
const SOCKET_SECONDS = 30;

/**
 * Addresses an SMTP server of a merchant's cannot have: this machine, the private networks it sits on, link-local
 * (cloud metadata) and the reserved ranges. A merchant's settings would otherwise make Dakiya connect inside its own
 * network, and the save's answer (refused, timed out, signed in) would map it port by port.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.168.0.0", 16], ["224.0.0.0", 3]] as const) INTERNAL.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [["::", 127], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) INTERNAL.addSubnet(network, prefix, "ipv6");

function isInternal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, "ipv4");
  return INTERNAL.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * The one address Dakiya connects to for the merchant's host, or why none: the name is resolved here and the
 * connection made to what was checked, so a name cannot resolve elsewhere between the check and the connection. An
 * operator whose mail server is on the private network says so (SMTP_INTERNAL_HOSTS_ALLOWED=1).
 */
async function addressOf(server: SmtpServer): Promise<{ address: string } | SmtpFailure> {
  let addresses: string[];
  try {
    addresses = isIP(server.host) ? [server.host] : (await lookup(server.host, { all: true })).map((found) => found.address);
  } catch {
    return { kind: "not_found", message: `The host ${server.host} was not found: check its name` };
  }
  if (process.env.SMTP_INTERNAL_HOSTS_ALLOWED !== "1" && addresses.some(isInternal)) return { kind: "internal", message: `The host ${server.host} is on a private or reserved network: give the mail server's public name` };
  return { address: addresses[0]! };
}

function transportOf(server: SmtpServer, address: string) {
  return nodemailer.createTransport({
    host: address,
    // The certificate is checked against the name the merchant gave, not the address it resolved to. A host given as
    // an address is checked as that address: TLS's server name may not be one (RFC 6066), and Node warns when it is.
    tls: isIP(server.host) ? {} : { servername: server.host },

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
  message?: string;
  /** OpenSSL's, on a handshake that failed: "SSL routines". */
  library?: string;
  /** Node's, on a certificate that does not name the host: which names it has. */
  reason?: string;
}

/**
 * nodemailer reports a failed handshake as a socket error (ESOCKET), keeping the TLS error's message but not its code:
 * a certificate refused (not from a trusted authority, expired, for another name) and a connection that was not TLS
 * at all (TLS asked of a port that speaks plain SMTP first) are told apart by what Node and OpenSSL wrote.
 */
const CERTIFICATE_PROBLEM = /certificate|altnames/i;
const TLS_PROTOCOL_PROBLEM = /SSL routines|wrong version number|unsupported protocol|handshake/i;
/** A server that takes a sign-in only once the connection is secured: 538 (RFC 4954), or 530 asking for STARTTLS. */
const needsSecureConnection = ({ responseCode, message = "" }: MailError) => responseCode === 538 || (responseCode === 530 && /STARTTLS/i.test(message));

/** What went wrong, in words that say what to fix. */
export function smtpFailureOf(error: unknown, { host, port }: Pick<SmtpServer, "host" | "port">): SmtpFailure {
  const mailError = (error ?? {}) as MailError;
  const { code, responseCode, message = "" } = mailError;
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  const where = `${host}:${port}`;
  if (needsSecureConnection(mailError)) return { kind: "tls", message: `${where} takes a sign-in only over a secure connection: choose STARTTLS (usually port 587) or TLS (usually port 465)` };
  if (code === "ESOCKET" && CERTIFICATE_PROBLEM.test(`${message} ${mailError.reason ?? ""}`))
    return { kind: "certificate", message: `The certificate ${where} presented is not valid for ${host} or not from a trusted authority: give the host name your mail provider publishes, the one on its certificate` };
  if (code === "ESOCKET" && (mailError.library === "SSL routines" || TLS_PROTOCOL_PROBLEM.test(message)))
    return { kind: "tls", message: `The secure connection to ${where} failed: check the security (TLS usually on port 465, STARTTLS on 587)` };
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
  const resolved = await addressOf(server);
  if ("kind" in resolved) return resolved;
  const transport = transportOf(server, resolved.address);
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
  const resolved = await addressOf(server);
  if ("kind" in resolved) return resolved;
  const transport = transportOf(server, resolved.address);
  try {
    await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId, attachments: [mail.attachment] });
    return null;
  } catch (error) {
    return smtpFailureOf(error, server);
  } finally {
    transport.close();
  }
}
