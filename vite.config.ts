import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { ocrAssets } from './scripts/vite/ocrAssets';
import { serviceWorker } from './scripts/vite/serviceWorker';
import { icuCatalogues } from './scripts/vite/icuCatalogues';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:5000';

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  // ocrAssets: the label reader's worker, cores and English data, served by our own build (decision 040)
  // serviceWorker: /sw.js, the installable app's offline shell (decision 044)
  // icuCatalogues: the screens' messages reach the browser parsed, without the ICU parser (decision 067)
  plugins: [react(), tailwindcss(), ocrAssets(), serviceWorker(), icuCatalogues()],
  resolve: {
    alias: {
      '@contract': fileURLToPath(new URL('./src/contract/index.ts', import.meta.url)),
      '@': fileURLToPath(new URL('./src/client', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: which chunks each page loads (scripts/bundle-sizes.mjs reads it)
    manifest: true,
    rolldownOptions: {
      output: {
        // an icon group's name lists the pages sharing it: keep the file name short
        chunkFileNames: (chunk) =>
          chunk.name.startsWith('icons') ? 'assets/icons-[hash].js' : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            // React itself changes only with an upgrade: its own long-cached file, loaded by every page.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            // Icons are a few hundred bytes each: grouped by the pages that use them, small groups
            // merged, rather than one file per icon.
            {
              name: 'icons',
              test: /[\\/]node_modules[\\/]lucide-react[\\/]/,
              entriesAware: true,
              entriesAwareMergeThreshold: 2048,
              priority: 1,
            },
          ],
        },
      },
      treeshake: {
        // The contract only declares schemas and constants: a page that needs one constant
        // (the organization header) must not pull in every schema, and zod with them.
        moduleSideEffects: [{ test: /[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
});
