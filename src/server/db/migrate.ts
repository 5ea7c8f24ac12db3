// Runs the drizzle-kit SQL migrations (the same files) on PGlite or PostgreSQL. On PostgreSQL an
// advisory lock keeps several starting processes from migrating at once.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7_321_004;

export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite' && database.pglite) {
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

/**
 * PGlite has no autovacuum, so its planner never gets statistics of its own: without them it reads an
 * account's month through the change-feed index and filters out the account's other tickets, instead of
 * the (client_id, received_at) range. Run once a start, after the seeds (PostgreSQL's autovacuum does this itself).
 */
export async function analyzePglite(database: Database): Promise<void> {
  if (database.kind === 'pglite' && database.pglite) await database.pglite.exec('ANALYZE');
}
