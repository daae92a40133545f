/**
 * What a test file started and must stop when it ends. Vitest 4 drops an `afterAll` registered while
 * a hook runs (createTestApp is called from `beforeAll`), so the harness files its cleanups here and
 * one `afterAll` in the setup file (test/setup-file.ts) runs them, newest first: a second instance
 * closes before its database is dropped.
 */
type Cleanup = () => Promise<unknown> | unknown;

const cleanups: Cleanup[] = [];

export function atFileEnd(cleanup: Cleanup) {
  cleanups.push(cleanup);
}

export async function runFileEnd() {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()!;
    await cleanup();
  }
}
