import { isIPv6 } from "node:net";

/**
 * Requests per caller on the addresses anyone may call (a tracking page, a signed document link): at most `limit`
 * within any `windowMs`, after which the caller waits until its oldest request in the window leaves it; refused
 * requests do not count. Kept in memory, per process: each app process counts for itself (N processes behind a
 * balancer allow up to N× as many; the aim is to make bulk use slow, not to meter exactly), and a restart forgets.
 * At most `maxTracked` callers are remembered; beyond that the longest-unseen are forgotten, so a flood of addresses
 * cannot grow memory without bound.
 *
 * A caller is its address as the HTTP server saw it (`context.clientAddress`): an IPv4 address, or an IPv6
 * address's /64 (one subscriber's network; a phone may rotate through its /64).
 */
export interface CallerLimits {
  limit: number;
  windowMs: number;
  maxTracked: number;
}

/** The key a caller is counted under: IPv4 as is (also when IPv4-mapped), IPv6 by its first 64 bits. */
export function callerKey(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!isIPv6(plain)) return plain;
  const [head = "", tail] = plain.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

/** `keyOf` names what is counted: by default the caller (`callerKey`); a signed link counts by its own text. */
export function createCallerLimiter({ limits, now = () => Date.now(), keyOf = callerKey }: { limits: CallerLimits; now?: () => number; keyOf?: (subject: string) => string }) {
  /** Caller → times of its requests in the window, oldest first; Map order is least recently seen first. */
  const requests = new Map<string, number[]>();
  return {
    limits,
    /**
     * Counts one request by this caller and answers 0, or, when it is over the limit, the whole seconds until it may
     * ask again (for Retry-After) without counting it.
     */
    take(subject: string): number {
      const key = keyOf(subject);
      const at = now();
      const recent = (requests.get(key) ?? []).filter((time) => time > at - limits.windowMs);
      requests.delete(key);
      if (recent.length >= limits.limit) {
        requests.set(key, recent);
        return Math.max(1, Math.ceil((recent[recent.length - limits.limit]! + limits.windowMs - at) / 1000));
      }
      recent.push(at);
      requests.set(key, recent);
      if (requests.size > limits.maxTracked) requests.delete(requests.keys().next().value!);
      return 0;
    },
  };
}
