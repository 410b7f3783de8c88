/**
 * A counting semaphore: at most `size()` runs at once, the rest waiting in order. The size is read when a run asks
 * for a slot, so a limit changed while runs are waiting applies to the next one (a finished run hands its slot
 * straight to the first waiting). Pure: no I/O.
 */
export function semaphore(size: () => number): <T>(run: () => Promise<T>) => Promise<T> {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (inFlight < size()) inFlight += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else inFlight -= 1;
    }
  };
}
