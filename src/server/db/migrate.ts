import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { applyRowLevelSecurity } from './row-level-security';

/** An arbitrary constant: the advisory lock that serialises migrations across app instances. */
const MIGRATION_LOCK_ID = 4_242_001;

/** Applies the committed SQL migrations; safe when several instances start at once. */
export async function runMigrations(db: Db, rootDir: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await migrate(tx as unknown as Db, { migrationsFolder: path.join(rootDir, 'migrations') });
    await applyRowLevelSecurity(tx);
  });
}
