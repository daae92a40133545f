import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config';
import { connectDatabase, type Db } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { runMigrations } from '../src/server/db/migrate';

/**
 * Runs `work` against the configured database (DATABASE_URL, or the embedded one in DATA_DIR,
 * started for the occasion), migrated, then closes everything.
 */
export async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env, fileURLToPath(new URL('..', import.meta.url)));
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const database = connectDatabase(config.databaseUrl ?? embedded!.url, 2);
  try {
    await runMigrations(database.db, config.rootDir);
    return await work(database.db);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}
