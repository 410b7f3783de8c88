import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import prisma from "~/db.server";
import type { SecretBox } from "./secret-box.server";

/**
 * Shopify's tokens (a shop's offline access token and its refresh token, a staff member's online token) are secrets:
 * stored sealed, as the courier secret keys are, and opened only as a session is loaded. A row stored before the
 * tokens were sealed still loads (a sealed token reads "v1.…", Shopify's never do), and is sealed the next time the
 * library stores it — at the next token refresh — or by `npm run secrets:reseal`.
 */
const isSealed = (token: string | undefined) => token?.startsWith("v1.") ?? false;

function withTokens(session: Session, change: (token: string) => string): Session {
  const params = session.toObject();
  return new Session({
    ...params,
    ...(params.accessToken ? { accessToken: change(params.accessToken) } : {}),
    ...(params.refreshToken ? { refreshToken: change(params.refreshToken) } : {}),
  });
}

const sealedTokensOf = (session: Session, box: SecretBox) => withTokens(session, (token) => (isSealed(token) ? token : box.seal(token)));
const openTokensOf = (session: Session, box: SecretBox) => withTokens(session, (token) => (isSealed(token) ? box.open(token) : token));

export function withSealedTokens<S extends SessionStorage>(inner: S, box: () => SecretBox): SessionStorage {
  const opened = (session: Session | undefined) => session && openTokensOf(session, box());
  return {
    loadSession: async (id) => opened(await inner.loadSession(id)),
    storeSession: (session) => inner.storeSession(sealedTokensOf(session, box())),
    deleteSession: (id) => inner.deleteSession(id),
    deleteSessions: (ids) => inner.deleteSessions(ids),
    findSessionsByShop: async (shop) => (await inner.findSessionsByShop(shop)).map((session) => openTokensOf(session, box())),
  };
}

/** Seals the tokens stored before they were sealed, and reseals those sealed with a previous key (after a key rotation). */
export async function resealSessionTokens(box: SecretBox): Promise<number> {
  const reseal = (token: string) => (!isSealed(token) ? box.seal(token) : box.needsResealing(token) ? box.seal(box.open(token)) : token);
  const rows = await prisma.session.findMany({ select: { id: true, accessToken: true, refreshToken: true } });
  let resealed = 0;
  for (const row of rows) {
    const accessToken = reseal(row.accessToken);
    const refreshToken = row.refreshToken ? reseal(row.refreshToken) : row.refreshToken;
    if (accessToken === row.accessToken && refreshToken === row.refreshToken) continue;
    // Only the row as read: a session the library stored meanwhile (sealed, with a new token) is left as it is.
    const { count } = await prisma.session.updateMany({ where: { id: row.id, accessToken: row.accessToken }, data: { accessToken, refreshToken } });
    resealed += count;
  }
  return resealed;
}
