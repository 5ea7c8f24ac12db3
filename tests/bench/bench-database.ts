// A throw-away database for the in-process benchmarks (renewals, SAT sync, company view): in-memory
// PGlite, or a fresh cc_bench_<random> database on DATABASE_URL's server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Database } from '../../src/server/db/client';

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
