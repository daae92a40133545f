import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Each file runs a server, a database and a browser: one at a time on 2 cores.
    fileParallelism: false,
    // A screen may take a few seconds to settle on a loaded CI machine; vitest's default is 1 s.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
