import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Journeys run against the built client; build it once if it is missing. */
export default function setup() {
  if (!fs.existsSync('dist/client/index.html')) {
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
    });
  }
}
