import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/**
 * Where the label reader's files are served (decision 040): under /assets/, so the server's
 * one-year immutable cache rule applies, in a folder named by the tesseract.js version, so an
 * upgrade changes the URL. The client reads the same constant (src/client/features/mail-items/label/ocrPaths.ts).
 */
export const OCR_VERSION: string = (require('tesseract.js/package.json') as { version: string }).version;
export const OCR_DIR = `assets/ocr-${OCR_VERSION}`;

/**
 * The files tesseract.js loads at run time, from our own packages, never a CDN: its worker
 * script, the three LSTM-only WebAssembly cores (the worker picks relaxed-SIMD, SIMD or plain by
 * what the browser supports) and the English "best_int" data (LSTM-only, 2.9 MB gzipped).
 */
function ocrFiles(): Array<{ name: string; from: string }> {
  const tesseract = path.dirname(require.resolve('tesseract.js/package.json'));
  const core = path.dirname(require.resolve('tesseract.js-core/package.json'));
  const eng = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return [
    { name: 'worker.min.js', from: path.join(tesseract, 'dist/worker.min.js') },
    ...['tesseract-core-relaxedsimd-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-lstm'].map((core_) => ({
      name: `${core_}.wasm.js`,
      from: path.join(core, `${core_}.wasm.js`),
    })),
    { name: 'eng.traineddata.gz', from: path.join(eng, '4.0.0_best_int/eng.traineddata.gz') },
  ];
}

/**
 * Copies the reader's files into the build (dist/client/assets/ocr-VERSION/) and serves them from
 * node_modules in the dev server. They are fetched only when a clerk first reads a label.
 */
export function ocrAssets(): Plugin {
  let outDir = '';
  return {
    name: 'pigeonhole-ocr-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      const files = new Map(ocrFiles().map((f) => [`/${OCR_DIR}/${f.name}`, f.from]));
      server.middlewares.use((req, res, next) => {
        const from = files.get((req.url ?? '').split('?')[0] ?? '');
        if (!from) return next();
        res.setHeader('content-type', from.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        fs.createReadStream(from).pipe(res);
      });
    },
    writeBundle() {
      const dir = path.join(outDir, OCR_DIR);
      fs.mkdirSync(dir, { recursive: true });
      for (const file of ocrFiles()) fs.copyFileSync(file.from, path.join(dir, file.name));
    },
  };
}
