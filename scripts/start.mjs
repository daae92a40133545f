// `npm start`: builds the web client and the server when their sources are newer than the
// last build, then runs the server. A fresh clone needs only `npm install && npm start`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function isStale(output, sources) {
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return sources.some(
    (s) => fs.existsSync(s) && (fs.statSync(s).isDirectory() ? newestMtime(s) : fs.statSync(s).mtimeMs) > built,
  );
}

if (isStale('dist/client/index.html', ['src/client', 'src/contract', 'vite.config.ts'])) {
  console.log('Building the web client...');
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (isStale('dist/server/main.mjs', ['src/server', 'src/contract'])) {
  console.log('Building the server...');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}
await import(path.join(root, 'dist/server/main.mjs'));
