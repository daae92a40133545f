import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

describe('createBatcher', () => {
  it('runs calls made in the same turn as one batch, answering each in order', async () => {
    const batches: number[][] = [];
    const double = createBatcher(
      async (inputs: number[]) => {
        batches.push(inputs);
        return inputs.map((n) => n * 2);
      },
      { maxSize: 10, maxInFlight: 1 },
    );
    expect(await Promise.all([1, 2, 3].map(double))).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await double(4)).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('keeps batches within maxSize and maxInFlight, and never puts one key twice in a batch', async () => {
    const batches: string[][] = [];
    let running = 0;
    let mostRunning = 0;
    const echo = createBatcher(
      async (inputs: string[]) => {
        batches.push(inputs);
        mostRunning = Math.max(mostRunning, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return inputs;
      },
      { maxSize: 3, maxInFlight: 2, keyOf: (s) => s[0]! },
    );
    const inputs = ['a1', 'b1', 'a2', 'c1', 'd1', 'e1', 'a3'];
    expect(await Promise.all(inputs.map(echo))).toEqual(inputs);
    expect(mostRunning).toBe(2);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(3);
      expect(new Set(batch.map((s) => s[0])).size).toBe(batch.length);
    }
    expect(batches.flat().sort()).toEqual([...inputs].sort());
  });

  it('runs the inputs of a failed batch one by one, so only the bad one fails', async () => {
    const runs: number[][] = [];
    const check = createBatcher(
      async (inputs: number[]) => {
        runs.push(inputs);
        if (inputs.includes(13)) throw new Error('unlucky');
        return inputs;
      },
      { maxSize: 10, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 13, 2].map(check));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('unlucky'));
    expect(runs).toEqual([[1, 13, 2], [1], [13], [2]]);
  });
});
