// The scale benchmark's database: N users and M tickets on PostgreSQL, generated server-side (INSERT …
// SELECT over generate_series, in batches) into a database of its own, migrated and seeded as the
// server does. The spread: 1–2 tax accounts per user (3 in 10 have two); tickets over two years, skewed
// across accounts (a few heavy accounts, a long tail of light ones); half manual, a third imported CFDI
// (received and issued), the rest invoiced through a merchant; mostly MXN with some USD and EUR; every
// expense category and income category; each account buying from its own few dozen vendors.
// Run on its own: `npx tsx tests/bench/scale-db.ts [users] [tickets]` (DATABASE_URL = the server's admin URL).
import pg from 'pg';
import { createDb } from '../../src/server/db/client';
import { runMigrations } from '../../src/server/db/migrate';
import { hashPassword } from '../../src/server/lib/passwords';
import { seed } from '../../src/server/seed';

/** Every generated user signs in with this password (user names scale1 … scaleN). */
export const SCALE_PASSWORD = 'cuentasclaras-scale';
/** First and last day (exclusive) of the tickets' two years. */
const FROM = '2025-01-01 06:00:00+00';
const SPAN_DAYS = 695; // to late November 2026
/** How heavily tickets lean to the first accounts: account = ⌊accounts · u^SKEW⌋ for a uniform u. */
const SKEW = 1.6;
/** Distinct vendors; each account buys from a window of VENDORS_PER_ACCOUNT of them. */
const VENDORS = 2_000;
const VENDORS_PER_ACCOUNT = 40;

export interface ScaleSize {
  users: number;
  tickets: number;
  /** Tickets per INSERT statement. */
  batch?: number;
}

export interface ScaleDb {
  url: string;
  /** Drops the database. */
  drop: () => Promise<void>;
}

/** DATABASE_URL with another database name. */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** The sizes an existing scale database was generated with, or null (none, or unfinished). */
export async function existingScale(adminUrl: string, name: string): Promise<ScaleSize | null> {
  const exists = await admin(adminUrl, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
  if (exists.rowCount === 0) return null;
  return admin(databaseUrl(adminUrl, name), async (c) => {
    const meta = await c.query<{ users: number; tickets: number }>("SELECT users, tickets FROM scale_meta WHERE done").catch(() => null);
    return meta?.rows[0] ?? null;
  });
}

/** Drops and recreates `name`, migrates and seeds it, then generates the users, accounts and tickets. */
export async function generateScaleDb(adminUrl: string, name: string, size: ScaleSize, log: (line: string) => void = () => undefined): Promise<ScaleDb> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const drop = () => admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  await drop();
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(adminUrl, name);
  const database = await createDb({ databaseUrl: url, poolMax: 1 });
  try {
    await runMigrations(database);
    await seed(database.db);
  } finally {
    await database.close();
  }
  const hash = await hashPassword(SCALE_PASSWORD);
  await admin(url, (c) => fill(c, size, hash, log));
  return { url, drop };
}

async function fill(c: pg.Client, size: ScaleSize, hash: string, log: (line: string) => void): Promise<void> {
  const timed = async (label: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const r = await c.query(sql, params);
    log(`${label}: ${Math.round(performance.now() - t0)} ms`);
    return r;
  };
  await c.query('CREATE TABLE scale_meta (users int NOT NULL, tickets int NOT NULL, done boolean NOT NULL DEFAULT false)');
  await c.query('INSERT INTO scale_meta (users, tickets) VALUES ($1, $2)', [size.users, size.tickets]);
  // Foreign keys and the totals triggers are off while generating (superuser only): every id below is
  // taken from the rows just made, and the month totals are built afterwards in one grouped pass, as
  // migration 0004 does, instead of each statement's trigger turning half a million rows into jsonb.
  await c.query("SET session_replication_role = 'replica'");
  await c.query("SET work_mem = '256MB'");
  await timed(
    'users',
    `INSERT INTO users (username, email, password_hash) SELECT 'scale' || g, 'scale' || g || '@example.mx', $2 FROM generate_series(1, $1) g`,
    [size.users, hash],
  );
  // Accounts: each user a persona física RFC, 3 in 10 a second one; numbered 1…A in scale_accounts.
  await timed(
    'clients',
    `INSERT INTO clients (user_id, rfc, name, zip_code)
     SELECT u.id, 'SC' || chr(65 + (g % 26)) || chr(65 + (g / 26 % 26)) || to_char(date '1960-01-01' + (g % 14000), 'YYMMDD') || k || lpad((g % 100)::text, 2, '0'),
            'CONTRIBUYENTE ' || g || ' ' || k, lpad((1000 + g % 98000)::text, 5, '0')
     FROM generate_series(1, $1) g
     JOIN users u ON u.username = 'scale' || g
     CROSS JOIN LATERAL (SELECT k FROM generate_series(1, CASE WHEN g % 10 < 3 THEN 2 ELSE 1 END) k) ks`,
    [size.users],
  );
  await c.query(`CREATE UNLOGGED TABLE scale_accounts AS
    SELECT row_number() OVER (ORDER BY k.id)::int AS idx, k.id AS client_id, k.user_id, k.rfc
    FROM clients k JOIN users u ON u.id = k.user_id WHERE u.username LIKE 'scale%'`);
  await c.query('ALTER TABLE scale_accounts ADD PRIMARY KEY (idx)');
  const accounts = (await c.query<{ accounts: number }>('SELECT count(*)::int AS accounts FROM scale_accounts')).rows[0]?.accounts ?? 0;
  const { rows: merchants } = await c.query<{ id: number }>("SELECT id FROM companies WHERE id > 2 ORDER BY id");
  if (merchants.length === 0) throw new Error('the seed made no merchant companies');
  log(`accounts: ${accounts}`);

  // The secondary indexes of tickets and receipts are built once after the load (faster than row by row),
  // from their own definitions, so they come back exactly as the migrations made them.
  const { rows: indexes } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename IN ('tickets', 'receipts')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
  );
  for (const i of indexes) await c.query(`DROP INDEX ${i.name}`);
  const batch = size.batch ?? 250_000;
  const t0 = performance.now();
  for (let lo = 1; lo <= size.tickets; lo += batch) {
    const hi = Math.min(size.tickets, lo + batch - 1);
    await c.query(TICKETS_SQL, [lo, hi, accounts, merchants.map((m) => m.id)]);
    log(`tickets ${hi.toLocaleString('en')} (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await c.query("SET session_replication_role = 'origin'");
  await c.query("SET maintenance_work_mem = '512MB'");
  for (const i of indexes) await timed(`index ${i.name}`, i.def);
  await timed(
    'ticket_month_totals',
    `INSERT INTO ticket_month_totals (client_id, month, type, meta_tag_id, venue, total, tickets)
     SELECT t.client_id, date_trunc('month', t.received_at AT TIME ZONE 'America/Mexico_City')::date, t.type,
            coalesce(t.meta_tag_id, 0), coalesce(nullif(r.name_issuer, ''), co.name, ''), sum(t.amount), count(*)::int
     FROM tickets t JOIN scale_accounts a ON a.client_id = t.client_id
     LEFT JOIN companies co ON co.id = t.company_id LEFT JOIN receipts r ON r.id = t.receipt_id
     WHERE t.deleted_at IS NULL GROUP BY 1, 2, 3, 4, 5`,
  );
  await timed('vacuum analyze', 'VACUUM (ANALYZE) tickets, receipts, ticket_month_totals, clients, users');
  await c.query('UPDATE scale_meta SET done = true');
}

/**
 * One batch of tickets [$1, $2] over $3 accounts ($4: the merchant company ids), with the receipts of the
 * imported and invoiced ones. Ids are UUIDv7 of the ticket's time, as the app makes them.
 */
const TICKETS_SQL = `
WITH raw AS MATERIALIZED (
  SELECT 1 + least($3::int - 1, floor($3::int * power(random(), ${SKEW}))::int) AS idx,
         timestamptz '${FROM}' + random() * interval '${SPAN_DAYS} days' AS at,
         random() AS kind, random() AS r1, random() AS r2, random() AS r3, random() AS r4
  FROM generate_series($1::int, $2::int)
), t AS MATERIALIZED (
  SELECT a.client_id, a.user_id, a.rfc, raw.*,
         encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send((date_part('epoch', raw.at) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid AS id,
         CASE WHEN raw.kind < 0.5 THEN NULL ELSE gen_random_uuid() END AS receipt_id,
         CASE WHEN raw.kind < 0.5 THEN CASE WHEN raw.r1 < 0.85 THEN 2 ELSE 4 END
              WHEN raw.kind < 0.85 THEN CASE WHEN raw.r1 < 0.75 THEN 2 ELSE 3 END
              ELSE 2 END AS type,
         round((20 + 9980 * power(raw.r2, 3))::numeric, 2) AS amount,
         CASE WHEN raw.r3 < 0.94 THEN 'MXN' WHEN raw.r3 < 0.99 THEN 'USD' ELSE 'EUR' END AS currency,
         (a.client_id * 7 + floor(${VENDORS_PER_ACCOUNT} * raw.r4 * raw.r4)::int) % ${VENDORS} AS vendor
  FROM raw JOIN scale_accounts a ON a.idx = raw.idx
), r AS (
  INSERT INTO receipts (id, user_id, client_id, uuid, version, rfc_issuer, name_issuer, rfc_receiver, name_receiver, emission_date,
                        total, currency, amount_mxn, imp_tras, metodo_pago, xml_key, xml_size, tipo, created_at)
  SELECT receipt_id, user_id, client_id, upper(gen_random_uuid()::text), '4.0',
         CASE WHEN type = 3 THEN rfc ELSE 'PRV' || lpad(vendor::text, 6, '0') || 'AB1' END,
         CASE WHEN type = 3 THEN 'CONTRIBUYENTE' ELSE 'PROVEEDOR ' || vendor || ' SA DE CV' END,
         CASE WHEN type = 3 THEN 'CLI' || lpad(vendor::text, 6, '0') || 'AB1' ELSE rfc END,
         CASE WHEN type = 3 THEN 'CLIENTE ' || vendor ELSE 'CONTRIBUYENTE' END,
         to_char(at AT TIME ZONE 'America/Mexico_City', 'YYYY-MM-DD"T"HH24:MI:SS'),
         CASE currency WHEN 'USD' THEN round(amount / 17.5, 2) WHEN 'EUR' THEN round(amount / 19.8, 2) ELSE amount END,
         currency, amount, round(amount * 0.16 / 1.16, 2), CASE WHEN r1 < 0.1 THEN 'PPD' ELSE 'PUE' END,
         'receipts/' || receipt_id || '.xml', 3000 + floor(r3 * 9000)::int, 'I', at
  FROM t WHERE receipt_id IS NOT NULL
)
INSERT INTO tickets (id, user_id, client_id, type, status_id, company_id, amount, received_at, meta_tag_id, income_meta_tag_id,
                     currency, original_amount, receipt_id, created_at, updated_at)
SELECT id, user_id, client_id, type,
       CASE WHEN kind < 0.5 THEN CASE WHEN type = 2 THEN 3 ELSE 9 END ELSE 4 END,
       CASE WHEN kind < 0.5 THEN 1 WHEN kind < 0.85 THEN 2 ELSE ($4::int[])[1 + floor(r3 * 1000)::int % cardinality($4::int[])] END,
       amount, at,
       CASE WHEN type = 2 AND r4 > 0.05 THEN 1 + floor(r2 * 997)::int % 23 END,
       CASE WHEN type <> 2 THEN 1 + floor(r2 * 997)::int % 7 END,
       currency, CASE currency WHEN 'USD' THEN round(amount / 17.5, 2) WHEN 'EUR' THEN round(amount / 19.8, 2) END,
       receipt_id, at, at
FROM t`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL (the PostgreSQL server) is needed');
  const users = Number(process.argv[2] ?? 100_000);
  const tickets = Number(process.argv[3] ?? 10_000_000);
  const t0 = performance.now();
  await generateScaleDb(url, process.env.SCALE_DB ?? 'cc_scale', { users, tickets }, (line) => console.log(line));
  console.log(`done in ${Math.round((performance.now() - t0) / 1000)} s`);
}
