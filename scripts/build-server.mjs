// Bundles the server into dist/server/main.mjs (dependencies stay in node_modules), so
// `npm start` runs plain Node without a TypeScript loader.
import { build } from 'esbuild';

export async function buildServer() {
  await build({
    entryPoints: ['src/server/main.ts'],
    outfile: 'dist/server/main.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
