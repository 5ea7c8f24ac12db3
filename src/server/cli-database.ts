// The operator commands (merchant keys, OAuth apps, SAT's lists) open the database the server uses:
// DATABASE_URL, else the embedded PGlite in DATA_DIR (stop the server first: PGlite allows one process).
// Migrated, and seeded when the command needs the catalogues (merchants, plans).
import { join } from 'node:path';
import { readEnv } from './config';
import type { Db } from './db/client';
import { createDb } from './db/client';
import { runMigrations } from './db/migrate';
import { seed } from './seed';

export async function withCliDatabase<T>(fn: (db: Db) => Promise<T>, opts: { seed?: boolean } = {}): Promise<T> {
  const env = readEnv();
  const database = await createDb({ databaseUrl: env.databaseUrl, dataDir: env.databaseUrl ? undefined : join(env.dataDir, 'pglite') });
  try {
    await runMigrations(database);
    if (opts.seed) await seed(database.db, { supportPassword: env.supportPassword });
    return await fn(database.db);
  } finally {
    await database.close();
  }
}
