const YIELD_EVERY = 256;

/**
 * Runs `read` for every index in [start, end) with at most `concurrency` reads in flight, and returns
 * the results in index order. Parallel reads are what make a range cheap on S3 (latency-bound) and on
 * the filesystem (libuv's thread pool); sequential awaits would leave both idle.
 */
export async function readMany<Value>(options: {
  start: number;
  end: number;
  concurrency: number;
  read: (index: number) => Promise<Value>;
}): Promise<Value[]> {
  const { start, end, concurrency, read } = options;
  const results = new Array<Value>(Math.max(0, end - start));
  let next = start;
  const worker = async (): Promise<void> => {
    while (next < end) {
      const index = next++;
      results[index - start] = await read(index);
      // A store whose reads complete synchronously (the local store with durability 'none') would
      // otherwise hold the event loop for a whole long range: let other work in now and then.
      if ((index - start) % YIELD_EVERY === YIELD_EVERY - 1)
        await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(concurrency, end - start); i++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
