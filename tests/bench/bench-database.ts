// A throw-away database for the in-process benchmarks (renewals, SAT sync, company view): in-memory
// PGlite, or a fresh cc_bench_<random> database on DATABASE_URL's server, dropped afterwards; and the
// demo user's tax account that the data benchmarks (server-data, sync-feed) fill with tickets.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { createDb, type Database } from '../../src/server/db/client';
import { DEMO_USER } from '../../src/server/db/demo-accounts';
import { runMigrations } from '../../src/server/db/migrate';
import { clients, users } from '../../src/server/db/schema';
import { seed } from '../../src/server/seed';

export type BenchDriver = 'pglite' | 'pg';

export async function openBenchDatabase(): Promise<{ database: Database; drop: () => Promise<void>; driver: BenchDriver }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { database: await createDb({}), drop: async () => undefined, driver: 'pglite' };
  const name = `cc_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await createDb({ databaseUrl: u.toString(), poolMax: 5 });
  return {
    database,
    driver: 'pg',
    drop: async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Migrates and seeds `database`, then gives the demo user the tax account `rfc` (kept if already there). */
export async function demoAccount(database: Database, rfc: string, name: string): Promise<{ userId: number; clientId: number }> {
  await runMigrations(database);
  await seed(database.db);
  const db = database.db;
  const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_USER.username));
  if (!demo) throw new Error('sin usuario demo');
  await db.insert(clients).values({ userId: demo.id, rfc, name }).onConflictDoNothing();
  const [client] = await db.select({ id: clients.id }).from(clients).where(and(eq(clients.userId, demo.id), eq(clients.rfc, rfc)));
  if (!client) throw new Error(`sin cuenta ${rfc}`);
  return { userId: demo.id, clientId: client.id };
}
