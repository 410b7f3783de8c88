import { semaphore } from "~/concurrency";

/**
 * How fast one courier account may be called: at most `atOnce` calls in flight and `perSecond` begun in any second,
 * what the merchant's aggregator allows (or the embedded sandbox declares). A pass over a shop's due parcels runs its
 * reads through its account's pace, so a shop with thousands of parcels reads as fast as its courier lets it and no
 * faster: calling faster would only earn refusals (429) that back the shop's parcels off.
 *
 * The pace is kept in memory, per process, one per account: passes in the same process share it (two shops booking
 * on one aggregator account share its limit too).
 */
export interface CallLimits {
  /** Calls in flight at once. */
  atOnce: number;
  /** Calls begun a second. */
  perSecond: number;
}

/**
 * A live aggregator's limits when the merchant has not set theirs: cautious, since calling faster than an account
 * allows earns refusals that back its parcels off.
 */
export const LIVE_CALL_LIMITS: CallLimits = { atOnce: 4, perSecond: 10 };

export class CourierPace {
  /** At most `atOnce` calls in flight, the limit as it is when a call asks. */
  private readonly slots = semaphore(() => this.limits.atOnce);
  /** When the next call may begin if the account had been called evenly at its rate (ms, on `clock`). */
  private nextEvenStart = Number.NEGATIVE_INFINITY;

  constructor(
    public limits: CallLimits,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Runs `call` once the account has a free slot and its rate allows another call to begin. */
  run<T>(call: () => Promise<T>): Promise<T> {
    return this.slots(async () => {
      const wait = this.reserveStart();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return call();
    });
  }

  /**
   * Reserves the next call's start and says how long to wait for it, ms: calls are spaced evenly at the rate, with a burst of up to `atOnce` allowed
   * after a quiet spell (a cell-rate algorithm), so a pass starts at full width and then settles at the rate.
   */
  reserveStart(): number {
    const now = this.clock();
    const spacing = 1000 / this.limits.perSecond;
    const even = Math.max(this.nextEvenStart, now);
    const startAt = Math.max(now, even - spacing * (this.limits.atOnce - 1));
    this.nextEvenStart = even + spacing;
    return startAt - now;
  }
}

const paces = new Map<string, CourierPace>();

/** The pace of one account in this process, with the limits it has now (a merchant's change applies to the next call). */
export function paceOf(account: string, limits: CallLimits): CourierPace {
  const known = paces.get(account);
  if (known) {
    known.limits = limits;
    return known;
  }
  const pace = new CourierPace(limits);
  paces.set(account, pace);
  return pace;
}

/**
 * Runs `work` over every item with at most `width` at once, in the items' order; stops taking new items once
 * `stopped()` says so or one item's work failed. Returns when every item begun has finished, and throws the first
 * failure then: nothing is left running behind the caller's back.
 */
export async function forEachAtOnce<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const lane = async () => {
    while (next < items.length && failures.length === 0 && !stopped()) {
      const item = items[next]!;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  if (failures.length > 0) throw failures[0];
}
