import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";

/**
 * The shopper's link to confirm a cash-on-delivery order: `/confirm/{token}` on the app, or the same path under the
 * shop's app proxy on its own domain. The token carries the confirmation's id and the moment the link stops
 * answering, signed with a key derived from the app's secret; it names no shopper and no order, and nothing altered,
 * expired or unknown is told apart from the others (every such link is "not valid").
 *
 * Short enough for a WhatsApp message and an e-mail: about 60 characters.
 */

const encode = (value: Buffer | string) => Buffer.from(value).toString("base64url");

function signature(body: string): Buffer {
  return createHmac("sha256", `dakiya-cod-confirmation:${getConfig().SHOPIFY_API_SECRET}`).update(body).digest();
}

export interface ConfirmationGrant {
  confirmationId: number;
  expiresAt: Date;
}

/** The token of a confirmation's link, valid until `expiresAt`. */
export function signConfirmationToken({ confirmationId, expiresAt }: ConfirmationGrant): string {
  const body = encode(`${confirmationId}.${Math.floor(expiresAt.getTime() / 1000)}`);
  return `${body}.${encode(signature(body))}`;
}

/**
 * The grant a token carries, or null when Dakiya did not sign it or it expired. Only the signature's one canonical
 * spelling is taken (a base64url digest's last character has four spellings that decode alike).
 */
export function verifyConfirmationToken(token: string | undefined, now: Date): ConfirmationGrant | null {
  if (!token || token.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{4,60})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, body, sent] = match;
  const expected = signature(body!);
  const given = Buffer.from(sent!, "base64url");
  if (given.length !== expected.length || encode(given) !== sent || !timingSafeEqual(given, expected)) return null;
  const fields = /^(\d{1,12})\.(\d{1,12})$/.exec(Buffer.from(body!, "base64url").toString("utf8"));
  if (!fields) return null;
  const expiresAt = new Date(Number(fields[2]) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return null;
  return { confirmationId: Number(fields[1]), expiresAt };
}

/** The path of a confirmation's page, relative to the app or to the shop's proxy path. */
export const confirmationPath = (token: string) => `/confirm/${token}`;
