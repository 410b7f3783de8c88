/**
 * Tracking addresses come from the courier service and end up as links in the admin and in Shopify's
 * fulfillments, so only a web address is one: `https:`, or `http:` on a loopback host, which is what a
 * local sandbox serves. Anything else (`javascript:`, `data:`, `file:`…) is never to be rendered as a link.
 * Pure, so screens may import it.
 */
const MAX_TRACKING_URL_LENGTH = 2048;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const isLoopback = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || hostname.endsWith(".localhost");

export function isSafeTrackingUrl(url: string): boolean {
  if (url.length === 0 || url.length > MAX_TRACKING_URL_LENGTH) return false;
  // The URL parser drops blanks and control characters, and takes `https:host` without slashes; a browser
  // may read such a string otherwise, so only the plain written form is accepted.
  if (/[\s\p{Cc}]/u.test(url) || !/^https?:\/\/[^/]/i.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // `https://courier.in@evil.example/` shows one host and opens another.
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" && isLoopback(parsed.hostname);
}

export const TRACKING_URL_RULE = "must be an https:// address (http:// only on localhost, 127.0.0.1 or [::1])";

/**
 * A tracking link of the app's own page carries `?token=…`, a random value per shipment that the courier sandbox
 * puts into the link it hands out: whoever has the link (from the shipping email) sees the parcel's details, while
 * a number typed or guessed shows only its stage. The token is part of the stored link, so nothing else keeps it.
 */
export const TRACKING_LINK_TOKEN_PARAM = "token";

/** What a token may look like: base64url, as the sandbox writes it (22 characters), with room for other lengths. */
export const TRACKING_LINK_TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

/** The token a tracking link carries, or null when it carries none (an older link, another courier's page). */
export function trackingLinkTokenOf(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const token = parsed.searchParams.get(TRACKING_LINK_TOKEN_PARAM);
  return token && TRACKING_LINK_TOKEN_SHAPE.test(token) ? token : null;
}
