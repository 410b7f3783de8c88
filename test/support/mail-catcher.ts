import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on a port of the system's choosing, as a merchant's mail provider is at the edge of the world: it
 * speaks SMTP (the npm package smtp-server), takes one user name and password, and keeps every message it accepts. It
 * can be told to refuse messages for a while (a mailbox over quota, a provider's outage) and counts sign-ins.
 *
 * Secured as providers serve it (`security`): STARTTLS, as on port 587, or TLS from the first byte, as on 465, with a
 * certificate for `localhost` from the test's own authority (test/support/mail-tls/, made with openssl, valid for a
 * hundred years), which `trustTestMailAuthority` adds to what this process trusts; or a self-signed one no authority
 * vouches for. A secured server takes a sign-in only over the secured connection.
 */
export interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
  /** Whether it came over a connection secured with TLS. */
  secure: boolean;
}

export type CatcherSecurity = "none" | "starttls" | "tls";

const pem = (file: string) => readFileSync(new URL(`./mail-tls/${file}`, import.meta.url));

/**
 * Adds the test's mail authority to the certificates this process trusts, as a provider's authority is trusted in the
 * world: the app checks certificates as it does in production. Gives back the function that puts the trust back as it
 * was, for the files after this one on the same thread.
 */
export function trustTestMailAuthority(): () => void {
  const before = tls.getCACertificates("default");
  tls.setDefaultCACertificates([...before, pem("authority.pem").toString("utf8")]);
  return () => tls.setDefaultCACertificates(before);
}

export async function startMailCatcher({ user, password, security = "none", certificate = "authority" }: { user: string; password: string; security?: CatcherSecurity; certificate?: "authority" | "self-signed" }) {
  const mails: CaughtMail[] = [];
  let refusing = false;
  let signIns = 0;
  const secured = security !== "none";
  const keys = certificate === "authority" ? { key: pem("localhost-key.pem"), cert: pem("localhost.pem") } : { key: pem("self-signed-key.pem"), cert: pem("self-signed.pem") };
  const server = new SMTPServer({
    ...(secured
      ? // The password goes only over TLS: a sign-in on the plain connection is refused (538) until STARTTLS.
        { secure: security === "tls", ...keys, allowInsecureAuth: false }
      : // A plain connection on the test's loopback: the password still goes through the server's AUTH.
        { secure: false, disabledCommands: ["STARTTLS"], allowInsecureAuth: true }),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) {
        signIns += 1;
        return callback(null, { user: auth.username });
      }
      return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusing) return callback(Object.assign(new Error("Mailbox unavailable, try again later"), { responseCode: 451 }));
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString("utf8"), secure: session.secure });
        callback();
      });
    },
  });
  // A client that gives up on the handshake (a certificate it refuses) is the test's point, not a failure of the server.
  server.on("error", () => undefined);
  // The name its certificate carries, where this machine's resolver puts it first (127.0.0.1, or ::1 on some).
  const host = secured ? "localhost" : "127.0.0.1";
  const { address } = await lookup(host);
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, address, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    host,
    port,
    mails,
    get signIns() {
      return signIns;
    },
    /** Refuses every message (451) until told otherwise. */
    refuse(on: boolean) {
      refusing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded content of a mail's attachment by file name, as a mail client shows it. */
export function attachmentOf(raw: string, fileName: RegExp): { fileName: string; content: string } | null {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    const [head = "", ...bodyParts] = part.split(/\r?\n\r?\n/);
    const name = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (!name || !fileName.test(name)) continue;
    const body = bodyParts.join("\r\n\r\n").trim();
    const encoding = /Content-Transfer-Encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
    if (encoding === "base64") return { fileName: name, content: Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") };
    if (encoding === "quoted-printable") {
      const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return { fileName: name, content: Buffer.from(bytes, "latin1").toString("utf8") };
    }
    return { fileName: name, content: body };
  }
  return null;
}

/** A header of the mail, unfolded. */
export const headerOf = (raw: string, name: string) => new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, "im").exec(raw)?.[1]?.replace(/\r?\n[ \t]+/g, " ") ?? null;
