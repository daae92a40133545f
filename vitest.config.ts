import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The client's import paths (vite.config.ts), so its tests can load a feature's calls.
  resolve: {
    alias: {
      '@contract': fileURLToPath(new URL('./src/contract/index.ts', import.meta.url)),
      '@': fileURLToPath(new URL('./src/client', import.meta.url)),
    },
  },
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
