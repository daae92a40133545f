/**
 * Coalesces calls made in the same turn of the event loop into one batch: `run` gets their
 * inputs and answers one result per input, in order. Under load many requests arrive per turn,
 * so one statement (and one commit) serves many of them; alone, a call waits only for the next
 * turn (setImmediate), well under a millisecond.
 *
 * - At most `maxInFlight` batches run at once; later calls wait for a free slot and go together.
 * - Inputs with the same `keyOf` never share a batch (the later one waits for the next), for
 *   statements where two rows for one key would interfere.
 * - If a batch of several fails, each input is run again alone, so one bad input fails only its
 *   own call.
 */
export type BatcherOptions<I> = { maxSize: number; maxInFlight: number; keyOf?: (input: I) => string };

type Waiting<I, O> = { input: I; resolve: (output: O) => void; reject: (err: unknown) => void };

export function createBatcher<I, O>(run: (inputs: I[]) => Promise<O[]>, options: BatcherOptions<I>) {
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || queue.length === 0 || inFlight >= options.maxInFlight) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      while (queue.length > 0 && inFlight < options.maxInFlight) void flush(take());
    });
  }

  /** The next batch: the oldest waiting calls, at most one per key. */
  function take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < queue.length && batch.length < options.maxSize;) {
      const key = options.keyOf?.(queue[i]!.input);
      if (key !== undefined && keys.has(key)) {
        i++;
        continue;
      }
      if (key !== undefined) keys.add(key);
      batch.push(queue.splice(i, 1)[0]!);
    }
    return batch;
  }

  async function flush(batch: Waiting<I, O>[]) {
    inFlight++;
    try {
      await settle(batch);
    } finally {
      inFlight--;
      schedule();
    }
  }

  async function settle(batch: Waiting<I, O>[]) {
    let outputs: O[];
    try {
      outputs = await run(batch.map((w) => w.input));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      await Promise.all(batch.map((w) => settle([w])));
      return;
    }
    batch.forEach((w, i) => w.resolve(outputs[i]!));
  }

  return (input: I): Promise<O> =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      schedule();
    });
}
