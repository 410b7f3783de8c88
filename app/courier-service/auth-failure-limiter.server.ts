import { createHash } from "node:crypto";

/**
 * A brake on guessing /v1 credentials: failed authentications are counted per API key tried from one
 * caller address, and per caller address whatever the key, over a sliding window; a caller over either
 * limit is answered 429 until enough of its failures have left the window. A key is never blocked for
 * everyone: a stranger who knows it and tries wrong secrets blocks only their own address, so the key's
 * owner keeps working from theirs. Successful requests never count. In memory, per process: each process
 * of a deployment keeps its own count (docs/courier-service.md).
 */
export interface AuthFailureLimits {
  /** Failures with one X-Api-Key from one address within the window. */
  perKeyAtAddress: number;
  /** Failures from one address, whatever the key, within the window. */
  perAddress: number;
  windowMs: number;
  /** How long a key that signed in from an address stays exempt from that address's block. */
  trustMs: number;
}

export const AUTH_FAILURE_LIMITS: AuthFailureLimits = { perKeyAtAddress: 10, perAddress: 30, windowMs: 60_000, trustMs: 24 * 3_600_000 };

/** Who is knocking: the address the HTTP layer was given and the key tried ("" when none was sent). */
export interface Caller {
  address: string;
  apiKey: string;
}

// Beyond this many keys or addresses the longest-unseen are forgotten, so a flood of made-up keys
// cannot grow memory without bound.
const MAX_TRACKED = 10_000;

/** Keys are tracked by digest: an X-Api-Key header can be kilobytes long. */
const digest = (apiKey: string) => createHash("sha256").update(apiKey, "utf8").digest("base64url");

/** Failure times per id, oldest first, trimmed to the window and to the limit. */
class FailureLog {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `id` may try again; 0 when it may now. */
  waitMs(id: string, now: number): number {
    const recent = this.recent(id, now);
    if (recent.length < this.limit) return 0;
    // Blocked until the oldest failure that keeps the count at the limit leaves the window.
    return recent[recent.length - this.limit]! + this.windowMs - now;
  }

  record(id: string, now: number): void {
    const recent = [...this.recent(id, now), now].slice(-this.limit);
    this.failures.delete(id);
    this.failures.set(id, recent);
    if (this.failures.size > MAX_TRACKED) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(id: string, now: number): number[] {
    const times = this.failures.get(id);
    if (!times) return [];
    const recent = times.filter((time) => time > now - this.windowMs);
    if (recent.length === 0) this.failures.delete(id);
    return recent;
  }
}

export function createAuthFailureLimiter({ now = () => new Date(), limits = AUTH_FAILURE_LIMITS }: { now?: () => Date; limits?: AuthFailureLimits } = {}) {
  /** Failures per `address key-digest`: counting a key from everywhere would let anyone lock its owner out. */
  const byKeyAtAddress = new FailureLog(limits.perKeyAtAddress, limits.windowMs);
  const byAddress = new FailureLog(limits.perAddress, limits.windowMs);
  /** `address key-digest` → when that key last signed in from that address. */
  const signedIn = new Map<string, number>();

  const pair = (address: string, key: string) => `${address} ${key}`;

  function waitMs({ address, apiKey }: Caller, at: number): number {
    const key = apiKey ? digest(apiKey) : "";
    const keyWait = key ? byKeyAtAddress.waitMs(pair(address, key), at) : 0;
    // A key that signed in from this address lately is not one being sprayed from it: an attacker sharing
    // the address (every caller does when the address is unknown) must not lock its valid clients out.
    // Guessing that key's secret is still held back by the per-key limit.
    const lastSignIn = key ? signedIn.get(pair(address, key)) : undefined;
    const trusted = lastSignIn !== undefined && lastSignIn > at - limits.trustMs;
    const addressWait = trusted ? 0 : byAddress.waitMs(address, at);
    return Math.max(keyWait, addressWait);
  }

  const toSeconds = (ms: number) => (ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0);

  return {
    limits,

    /** Seconds the caller must wait before its credentials are even looked at; 0 when it may try. */
    secondsToWait(caller: Caller): number {
      return toSeconds(waitMs(caller, now().getTime()));
    },

    /**
     * Called once the credentials were checked; answers the seconds to wait (the attempt is then refused
     * whatever its outcome, and not counted) or 0. Synchronous, so attempts checked concurrently are
     * counted one by one: a burst cannot slip past the limit while its lookups are in flight. A key blocked
     * at an address is refused there even with its right secret, or the answer would tell a guesser when
     * it is right; from any other address it is judged on its own count.
     */
    settle(caller: Caller, succeeded: boolean): number {
      const at = now().getTime();
      const wait = toSeconds(waitMs(caller, at));
      if (wait > 0) return wait;
      const key = caller.apiKey ? digest(caller.apiKey) : "";
      if (succeeded) {
        const id = pair(caller.address, key);
        signedIn.delete(id);
        signedIn.set(id, at);
        if (signedIn.size > MAX_TRACKED) signedIn.delete(signedIn.keys().next().value!);
      } else {
        if (key) byKeyAtAddress.record(pair(caller.address, key), at);
        byAddress.record(caller.address, at);
      }
      return 0;
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;
