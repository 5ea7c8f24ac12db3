// The scale benchmark, run by run.ts (`npm run bench -- --only scale`): 100,000 users and 10 million tickets
// on PostgreSQL (tests/bench/scale-db.ts generates them into a database of its own, cc_scale, kept between
// runs because generating takes a quarter of an hour; --scale-regenerate makes it again). Measured with the
// real server on that database: p95 latency (goal < 50 ms) of a month's ticket list, the year's stats and the
// year's and a month's spending analytics, for a typical account (the median one by tickets) at 1 and at
// 10 connections and for the heaviest account at 10; then the database's and its indexes' size per million
// tickets. Under --smoke: 50 users and 5,000 tickets in a throw-away database, the typical account's routes
// five times each; without PostgreSQL, skipped.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { type Result as LoadResult } from 'autocannon';
import pg from 'pg';
import { databaseUrl, existingScale, generateScaleDb, SCALE_PASSWORD } from './scale-db';
import { SMOKE, sized } from './scale';

const ROOT = resolve(import.meta.dirname, '../..');
const SIZE = sized({ users: 100_000, tickets: 10_000_000 }, { users: 50, tickets: 5_000 });
/** The month and year measured: the last full month of the generated two years. */
const YEAR = 2026;
const MONTH = 10;

export interface ScaleBenchDeps {
  report: (key: string, value: string | number) => void;
  freePort: () => Promise<number>;
  percentile: (values: number[], p: number) => number;
}

interface Account {
  username: string;
  rfc: string;
  tickets: number;
  monthTickets: number;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** The median account by live tickets (from the month totals) and the heaviest one, with their user names. */
async function pickAccounts(url: string): Promise<{ typical: Account; heavy: Account }> {
  const rows = await query<{ username: string; rfc: string; tickets: number; month_tickets: number }>(
    url,
    `WITH per AS (
       SELECT client_id, sum(tickets)::int AS tickets,
              coalesce(sum(tickets) FILTER (WHERE month = make_date($1, $2, 1)), 0)::int AS month_tickets
       FROM ticket_month_totals GROUP BY client_id),
     ranked AS (SELECT per.*, row_number() OVER (ORDER BY tickets, client_id) AS n, count(*) OVER () AS total FROM per)
     SELECT u.username, k.rfc, r.tickets, r.month_tickets FROM ranked r
     JOIN clients k ON k.id = r.client_id JOIN users u ON u.id = k.user_id
     WHERE u.username LIKE 'scale%' AND (r.n = (r.total + 1) / 2 OR r.n = r.total) ORDER BY r.n`,
    [YEAR, MONTH],
  );
  const [typical, heavy] = rows.map((r) => ({ username: r.username, rfc: r.rfc, tickets: r.tickets, monthTickets: r.month_tickets }));
  if (!typical || !heavy) throw new Error('no scale accounts in the database');
  return { typical, heavy };
}

/** Sizes in MB: the database, and tickets (table + indexes, indexes alone), receipts and the month totals. */
async function sizes(url: string, tickets: number, report: ScaleBenchDeps['report']): Promise<void> {
  const [s] = await query<Record<string, string>>(
    url,
    `SELECT pg_database_size(current_database()) AS db,
            pg_total_relation_size('tickets') AS tickets, pg_indexes_size('tickets') AS tickets_idx,
            pg_total_relation_size('receipts') AS receipts, pg_indexes_size('receipts') AS receipts_idx,
            pg_total_relation_size('ticket_month_totals') AS totals`,
  );
  const mb = (bytes: string | undefined) => Math.round(Number(bytes) / 1024 / 1024);
  const perMillion = (bytes: string | undefined) => Math.round(Number(bytes) / 1024 / 1024 / (tickets / 1e6));
  report('scale-db-mb', mb(s?.db));
  report('scale-db-mb-per-million-tickets', perMillion(s?.db));
  report('scale-tickets-mb-per-million', perMillion(s?.tickets));
  report('scale-tickets-indexes-mb-per-million', perMillion(s?.tickets_idx));
  report('scale-receipts-mb-per-million-tickets', perMillion(s?.receipts));
  report('scale-receipts-indexes-mb-per-million-tickets', perMillion(s?.receipts_idx));
  report('scale-month-totals-mb', mb(s?.totals));
}

interface Server {
  base: string;
  stop: () => Promise<void>;
}

/** The real server as its own process on the scale database (as server-data.ts starts it). */
async function startServer(url: string, port: number): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-bench-scale-'));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => (output = (output + d).slice(-4000)));
  server.stderr?.on('data', (d) => (output = (output + d).slice(-4000)));
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server exited:\n${output}`);
    }
    if (await fetch(`${base}/api/v3/plans.json`).then((r) => r.ok, () => false)) return { base, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function logIn(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { login: username, password: SCALE_PASSWORD } }),
  });
  const body = (await res.json()) as { response?: { token?: string } };
  if (!res.ok || !body.response?.token) throw new Error(`login of ${username} failed (${res.status})`);
  return body.response.token;
}

async function p95(url: string, token: string, connections: number, percentile: ScaleBenchDeps['percentile']): Promise<{ p95: number; rps: number; bad: number }> {
  const times: number[] = [];
  const result = await new Promise<LoadResult>((done, reject) => {
    // Under --smoke a few requests, not a duration: on a busy machine a one-second run may finish none.
    const length = SMOKE ? { amount: 5 } : { duration: 10 };
    const instance = autocannon({ url, connections, ...length, headers: { 'X-Access-Token': token } }, (error, r) => (error ? reject(error) : done(r)));
    instance.on('response', (_c, status, _b, ms) => {
      if (status === 200) times.push(ms);
    });
  });
  return { p95: Math.round(percentile(times, 95) * 10) / 10, rps: Math.round(result.requests.average), bad: result.non2xx + result.errors + result.timeouts };
}

const routes = (rfc: string): [string, string][] => [
  ['month-list', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${YEAR}&date[month]=${MONTH}`],
  ['stats-year', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${YEAR}&date[month]=12&usuario[view]=annual&action=stats`],
  ['analytics-year', `/api/v3/analytics/spending/${rfc}/${YEAR}`],
  ['analytics-month', `/api/v3/analytics/spending/${rfc}/${YEAR}/${MONTH}`],
];

async function measure(base: string, who: 'typical' | 'heavy', account: Account, deps: ScaleBenchDeps): Promise<void> {
  const { report } = deps;
  report(`scale-${who}-account-tickets`, account.tickets);
  report(`scale-${who}-month-tickets`, account.monthTickets);
  const token = await logIn(base, account.username);
  for (const [key, path] of routes(account.rfc)) {
    // One person at a time is the latency felt; the heavy account only at 10 connections, to keep it short
    // (under --smoke, one connection).
    const runs = SMOKE ? [1] : who === 'typical' ? [1, 10] : [10];
    let bad = 0;
    for (const connections of runs) {
      const r = await p95(base + path, token, connections, deps.percentile);
      report(`scale-${who}-${key}-${connections}conn-p95-ms`, r.p95);
      if (connections === 10) report(`scale-${who}-${key}-req-per-s`, r.rps);
      bad += r.bad;
    }
    if (bad > 0) throw new Error(`scale-${who}-${key}: ${bad} requests failed`);
  }
}

/** A flag of run.ts's command line. */
const flag = (name: string): boolean => process.argv.includes(name);

export async function scaleSection(deps: ScaleBenchDeps): Promise<void> {
  const { report } = deps;
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.log('scale: skipped, it needs PostgreSQL (DATABASE_URL)');
    report('scale', 'skipped: no DATABASE_URL');
    return;
  }
  const name = SMOKE ? `cc_scale_smoke_${randomBytes(4).toString('hex')}` : 'cc_scale';
  const existing = SMOKE || flag('--scale-regenerate') ? null : await existingScale(adminUrl, name);
  let url = databaseUrl(adminUrl, name);
  let drop: (() => Promise<void>) | null = null;
  if (existing?.users !== SIZE.users || existing.tickets !== SIZE.tickets) {
    const t0 = performance.now();
    const made = await generateScaleDb(adminUrl, name, SIZE, SMOKE ? undefined : (line) => console.log(`  scale: ${line}`));
    url = made.url;
    if (SMOKE) drop = made.drop;
    report('scale-generate-s', Math.round((performance.now() - t0) / 1000));
  }
  report('scale-users', SIZE.users);
  report('scale-tickets', SIZE.tickets);
  let server: Server | null = null;
  try {
    await sizes(url, SIZE.tickets, report);
    const { typical, heavy } = await pickAccounts(url);
    server = await startServer(url, await deps.freePort());
    // A shared machine's load sways every latency: kept with the figures.
    report('scale-load-average-1min', Math.round(loadavg()[0]! * 10) / 10);
    await measure(server.base, 'typical', typical, deps);
    if (!SMOKE) await measure(server.base, 'heavy', heavy, deps);
  } finally {
    await server?.stop();
    await drop?.();
  }
}
