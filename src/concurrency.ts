// A counting semaphore for one process: at most `limit` calls of `run` do their work at once, the
// others wait in line, first come first served. Used where work occupies a shared, small pool
// (scrypt on libuv's thread pool).
export interface ConcurrencyLimit {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function limitConcurrency(limit: number): ConcurrencyLimit {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run(work) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await work();
      } finally {
        // The slot passes straight to the next in line, or is given back.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
