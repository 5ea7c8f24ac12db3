// Opens the database: PGlite (embedded, files under DATA_DIR or in memory) or PostgreSQL (DATABASE_URL),
// behind one Drizzle type so the rest of the server does not care which.
import { mkdirSync } from 'node:fs';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import * as schema from './schema';
import { memoryBus, pgBus, type Bus } from './bus';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw query: node-postgres and PGlite answer `{ rows }`, other drivers an array. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}

/** The `executeSql` contract pg-boss accepts as its `db` option. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  /** Raw SQL for pg-boss and for maintenance (multi-statement strings go through `exec` on PGlite). */
  sql: SqlExecutor;
  pglite?: PGlite;
  pool?: pg.Pool;
  connectionString?: string;
  /**
   * In-process NOTIFY delivery, PGlite only: there it arrives before the writing statement resolves,
   * which makes caches invalidated by it exact. (PostgreSQL would deliver it asynchronously.)
   */
  listen?: (channel: string, onPayload: (payload: string) => void) => Promise<void>;
  /** Signals for every API process on this database (db/bus.ts): LISTEN/NOTIFY on PostgreSQL, in memory on PGlite. */
  bus: Bus;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; when absent PGlite is used. */
  databaseUrl?: string;
  /** Directory for PGlite's files; absent means in memory. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolMax?: number;
}

export async function createDb(opts: DbOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax ?? 10 });
    // An idle client dropping its connection must not crash the process.
    pool.on('error', (err) => console.error('[db] error en conexión inactiva:', err.message));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const bus = pgBus(opts.databaseUrl, { notify: (channel, payload) => pool.query('SELECT pg_notify($1, $2)', [channel, payload]) });
    return {
      kind: 'pg',
      db,
      pool,
      connectionString: opts.databaseUrl,
      sql: {
        async executeSql(text, values) {
          const r = await pool.query(text, values as unknown[] | undefined);
          return { rows: r.rows };
        },
      },
      bus,
      close: async () => {
        await bus.close();
        await pool.end();
      },
    };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const pglite = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    sql: pgliteExecutor(pglite),
    listen: async (channel, onPayload) => {
      await pglite.listen(channel, onPayload);
    },
    bus: memoryBus(),
    close: () => pglite.close(),
  };
}

/** DESIGN §2: statements without values go through `exec` (they may hold several commands), the others through `query`. */
export function pgliteExecutor(pglite: PGlite): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        const last = results[results.length - 1];
        return { rows: last ? last.rows : [] };
      }
      const r = await pglite.query(text, values);
      return { rows: r.rows };
    },
  };
}

/**
 * The rows, as arrays, of a statement each connection parses and plans once, by name: a named prepared
 * statement on node-postgres (once per pooled connection), pglitePrepared on PGlite (once per session).
 * For hot reads where the query builder's own work costs more than the statement. Runs on the pool or the
 * PGlite session, never inside a transaction: a transaction's handle is refused.
 */
export async function preparedRows<T extends unknown[] = unknown[]>(db: Db, name: string, text: string, values: readonly (string | number | null)[]): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PGlite) return (await pglitePrepared(client, name, text)(values)) as T[];
  if (client instanceof pg.Pool) return (await client.query<T>({ name, text, values: [...values], rowMode: 'array' })).rows;
  throw new Error('preparedRows: base de datos desconocida (¿una transacción?)');
}

/**
 * A statement PGlite parses and plans once (a named prepared statement), then runs with one call into
 * the database per use: PGlite's own query() parses, describes and binds anew each time, in five calls.
 * Answers the rows as arrays, with PGlite's type parsers. Runs when no transaction is open, like query().
 */
export function pglitePrepared(pglite: PGlite, name: string, text: string): (values: readonly (string | number | null)[]) => Promise<unknown[][]> {
  // The name belongs to the PGlite session, which every Drizzle handle on it shares: one runner per name.
  const byName = pglitePreparedOf.get(pglite) ?? new Map<string, PgliteRunner>();
  pglitePreparedOf.set(pglite, byName);
  let runner = byName.get(name);
  if (!runner) byName.set(name, (runner = newPglitePrepared(pglite, name, text)));
  return runner;
}

type PgliteRunner = (values: readonly (string | number | null)[]) => Promise<unknown[][]>;
const pglitePreparedOf = new WeakMap<PGlite, Map<string, PgliteRunner>>();

function newPglitePrepared(pglite: PGlite, name: string, text: string): PgliteRunner {
  const { serialize } = protocol;
  let prepared: Promise<void> | null = null;
  const prepare = () =>
    pglite.execProtocolStream(concatBytes([serialize.parse({ name, text }), serialize.sync()]), { syncToFs: false }).then(() => undefined);
  const run = async (values: readonly (string | number | null)[]): Promise<unknown[][]> => {
    const message = concatBytes([
      serialize.bind({ statement: name, values: values.map((v) => (v === null ? null : String(v))) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    // The whole message runs in one call; after an error the backend skips to the Sync, so it stays usable.
    const messages = await pglite.execProtocolStream(message, { syncToFs: false });
    const [result] = parse.parseResults(messages, pglite.parsers, { rowMode: 'array' });
    return (result?.rows ?? []) as unknown[][];
  };
  return (values) =>
    pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        prepared ??= prepare().catch((err: unknown) => {
          prepared = null;
          throw err;
        });
        await prepared;
        return run(values);
      }),
    );
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
