import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const ACCESS_TOKEN_SECONDS = 3_600;
export const REFRESH_TOKEN_SECONDS = 90 * 86_400;

export interface AppCredentials {
  apiKey: string;
  apiSecret: string;
  scopes: string;
}

const base64url = (input: Buffer | string) => Buffer.from(input).toString("base64url");

/** A JWT of these claims, signed as Shopify signs session tokens: HS256 with the app's secret. */
function signedToken(app: AppCredentials, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify(claims));
  const signature = base64url(createHmac("sha256", app.apiSecret).update(`${header}.${payload}`).digest());
  return `${header}.${payload}.${signature}`;
}

/** A session token (App Bridge id token) as Shopify signs it: HS256 with the app's secret, 60 s. */
export function signSessionToken(app: AppCredentials, shop: string, now = Date.now(), userId = "1001"): string {
  const issuedAt = Math.floor(now / 1000);
  return signedToken(app, {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: app.apiKey,
    sub: userId,
    exp: issuedAt + 60,
    nbf: issuedAt,
    iat: issuedAt,
    jti: randomBytes(8).toString("hex"),
    sid: randomBytes(8).toString("hex"),
  });
}

/** Verifies a session token; returns the shop it was issued for, or why it is refused. */
export function verifySessionToken(app: AppCredentials, token: string, now = Date.now()): { shop: string } | { error: string } {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return { error: "subject_token is not a JWT" };
  const expected = createHmac("sha256", app.apiSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { error: "subject_token signature is invalid" };
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { aud?: string; exp?: number; dest?: string };
  if (claims.aud !== app.apiKey) return { error: "subject_token was issued for another app" };
  if (!claims.exp || claims.exp * 1000 < now - 10_000) return { error: "subject_token has expired" };
  return { shop: new URL(claims.dest ?? "https://invalid").hostname };
}

/**
 * A customer account extension's session token, as Shopify signs one (HS256 with the app's secret, 5 minutes):
 * `dest` is the shop's domain without a scheme, and `sub` the signed-in customer's GID, absent when the page was opened
 * without signing in.
 */
export function signCustomerAccountSessionToken(app: AppCredentials, shop: string, customerGid: string | null, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000);
  return signedToken(app, { dest: shop, aud: app.apiKey, exp: issuedAt + 300, nbf: issuedAt, iat: issuedAt, jti: randomBytes(8).toString("hex"), ...(customerGid ? { sub: customerGid } : {}) });
}
