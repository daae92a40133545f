import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/server/test/global-setup.ts'],
    setupFiles: ['src/server/test/setup-file.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Each file has its own database; two workers suit the 2-core machines.
    maxWorkers: 2,
  },
});
