import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";
import { MAX_SHIPMENTS_PER_DOCUMENT } from "./label-layout";

/**
 * Links to a document that open outside the app's session (a download in a new tab, the demo's files): signed
 * with the app's secret, valid for a few minutes, for one shop and exactly the listed shipments or manifest. The
 * link carries ids, never a shopper's details; anything altered, expired or unknown answers 404 and says no more.
 * A return's label is the exception in lifetime: its link goes to Shopify with the reverse delivery, for the shopper.
 */
export type DocumentGrant =
  | { kind: "labels"; shop: string; shipmentIds: number[] }
  | { kind: "manifest"; shop: string; manifestId: number }
  | { kind: "return-label"; shop: string; shipmentId: number };

export const DOCUMENT_LINK_SECONDS = 10 * 60;
/**
 * A return label's link is handed to Shopify (the reverse delivery's label) and reaches the shopper, who may print it
 * any day until the courier collects: it lasts longer than Shopify's usual 30-day return window, with room for a
 * pickup that is rescheduled.
 */
export const RETURN_LABEL_LINK_SECONDS = 60 * 86_400;

const lifetimeOf = (grant: DocumentGrant) => (grant.kind === "return-label" ? RETURN_LABEL_LINK_SECONDS : DOCUMENT_LINK_SECONDS);

const encode = (value: Buffer | string) => Buffer.from(value).toString("base64url");

function signature(body: string): Buffer {
  return createHmac("sha256", `dakiya-documents:${getConfig().SHOPIFY_API_SECRET}`).update(body).digest();
}

/** The path of a signed link to a document (relative to the app's URL). */
export function signDocumentLink(grant: DocumentGrant, now = new Date()): string {
  const expires = Math.floor(now.getTime() / 1000) + lifetimeOf(grant);
  // A random part makes two links to the same document differ, so none can be guessed from another.
  const body = encode(JSON.stringify({ ...grant, exp: expires, n: randomBytes(9).toString("base64url") }));
  return `/documents/${body}.${encode(signature(body))}`;
}

/**
 * The grant a link carries, or null when it is not one Dakiya signed, or no longer valid. The signature is taken in
 * its one canonical spelling only: 43 base64url characters carry 258 bits for the digest's 256, so the last
 * character has four spellings that decode alike, and a link written another way would be a different text for
 * one signature (a fourfold allowance for whatever counts links by their text).
 */
export function verifyDocumentLink(token: string, now = new Date()): DocumentGrant | null {
  if (token.length > 20_000) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, body, sent] = match;
  const expected = signature(body!);
  const given = Buffer.from(sent!, "base64url");
  if (given.length !== expected.length || encode(given) !== sent || !timingSafeEqual(given, expected)) return null;
  try {
    const grant = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof grant.exp !== "number" || grant.exp * 1000 < now.getTime() || typeof grant.shop !== "string") return null;
    if (grant.kind === "labels" && Array.isArray(grant.shipmentIds) && grant.shipmentIds.length <= MAX_SHIPMENTS_PER_DOCUMENT && grant.shipmentIds.every((id) => Number.isSafeInteger(id))) {
      return { kind: "labels", shop: grant.shop, shipmentIds: grant.shipmentIds as number[] };
    }
    if (grant.kind === "manifest" && Number.isSafeInteger(grant.manifestId)) return { kind: "manifest", shop: grant.shop, manifestId: grant.manifestId as number };
    if (grant.kind === "return-label" && Number.isSafeInteger(grant.shipmentId)) return { kind: "return-label", shop: grant.shop, shipmentId: grant.shipmentId as number };
  } catch {
    // Signed by us yet unreadable cannot happen; treated as any other bad link.
  }
  return null;
}
