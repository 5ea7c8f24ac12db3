// The server benchmarks, run by run.ts (`npm run bench -- --only data`):
// 1. Analytics and stats on 100,000 tickets of one RFC (two years): p95 latency (goal < 50 ms) of the
//    month and year spending analytics and of the yearly stats, one client at a time and 10 at once.
// 2. The receipts archive of 200 CFDI: time to first byte (goal < 300 ms), total time and the server's
//    peak memory (VmHWM of its process) — cold (PDFs rendered from the XML on the way) and warm.
// The data is written straight into a fresh database (multi-row inserts), then the real server is
// started on it as its own process, so its memory is its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { v7 } from 'uuid';
import { MANUAL_COMPANY_ID, TICKET_TYPE } from '../../src/domain/ticket';
import { IVA_16 } from '../../src/server/cfdi/build';
import { issueSandboxCfdi } from '../../src/server/cfdi/issue';
import { readCfdi } from '../../src/server/cfdi/read';
import { openTestCsd } from '../../src/server/cfdi/seal';
import { createDb } from '../../src/server/db/client';
import { tickets } from '../../src/server/db/schema';
import { DEMO_USER } from '../../src/server/db/demo-accounts';
import { diskFileStore } from '../../src/server/files/file-store';
import { demoAccount } from './bench-database';
import { cfdiParsePerSecond } from './cfdi-parse';
import { factsFromCfdi, saveReceipt } from '../../src/server/cfdi/receipts';
import { seededRandom } from '../../src/domain/seeded-random';
import { sized } from './scale';

const ROOT = resolve(import.meta.dirname, '../..');
/** 13 characters: a persona física, so its CFDI name a persona física's regime (612; SAT's rule CFDI40158). */
const RFC = 'BENC850101AB1';
const TICKETS = sized(100_000, 500);
const RECEIPTS = sized(200, 3);
const BATCH = 1_000;
const YEARS = [2025, 2026] as const;

export interface DataBenchDeps {
  report: (key: string, value: string | number) => void;
  freePort: () => Promise<number>;
  percentile: (values: number[], p: number) => number;
}


async function seedData(dataDir: string, report: DataBenchDeps['report']): Promise<void> {
  const database = await createDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATABASE_URL ? undefined : join(dataDir, 'pglite') });
  try {
    const { userId, clientId } = await demoAccount(database, RFC, 'BENCHMARK SA DE CV');
    const db = database.db;
    const rnd = seededRandom(42);
    const started = performance.now();
    const start = Date.UTC(YEARS[0], 0, 1, 6);
    const span = Date.UTC(YEARS[1], 10, 20) - start;
    for (let i = 0; i < TICKETS; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, TICKETS - i) }, () => {
        const at = new Date(start + Math.floor(rnd() * span));
        const expense = rnd() < 0.8;
        return {
          id: v7({ msecs: at.getTime() }),
          userId,
          clientId,
          type: expense ? TICKET_TYPE.expense : TICKET_TYPE.income,
          statusId: expense ? 3 : 9,
          companyId: MANUAL_COMPANY_ID,
          amount: (Math.round(rnd() * 500_000) / 100).toFixed(2),
          receivedAt: at,
          metaTagId: expense ? 1 + Math.floor(rnd() * 23) : null,
          incomeMetaTagId: expense ? null : 1 + Math.floor(rnd() * 7),
        };
      });
      await db.insert(tickets).values(rows);
    }
    report('data-seed-100k-ms', Math.round(performance.now() - started));

    // 200 real CFDI (sealed, sandbox-stamped) for the archive, each behind a ticket of November 2026.
    const files = diskFileStore(join(dataDir, 'files'));
    const csd = openTestCsd('EKU9003173C9');
    for (let i = 0; i < RECEIPTS; i++) {
      const at = new Date(Date.UTC(2026, 10, 1 + (i % 19), 15, i % 60));
      const issued = await issueSandboxCfdi(
        {
          serie: 'B', folio: String(i + 1), fecha: at, formaPago: '04', metodoPago: 'PUE', tipoDeComprobante: 'I', lugarExpedicion: '42501',
          emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
          receptor: { rfc: RFC, nombre: 'BENCHMARK', domicilioFiscalReceptor: '01000', regimenFiscalReceptor: '612', usoCfdi: 'G03' },
          conceptos: Array.from({ length: 1 + (i % 8) }, (_, k) => ({
            claveProdServ: '43211500', cantidad: '1', claveUnidad: 'H87', unidad: 'Pieza', descripcion: `Artículo de prueba ${k + 1} del comprobante ${i + 1}`,
            valorUnitario: (100 + k * 37.5).toFixed(2), objetoImp: '02' as const, traslados: [IVA_16],
          })),
        },
        csd,
        { at },
      );
      const xml = new TextEncoder().encode(issued.xml);
      const read = readCfdi(xml);
      if (!read.ok) throw new Error(read.reason);
      const { id: receiptId } = await saveReceipt(db, files, { userId, clientId, facts: factsFromCfdi(read.cfdi), xml });
      await db.insert(tickets).values({
        id: v7({ msecs: at.getTime() }), userId, clientId, type: TICKET_TYPE.expense, statusId: 4, companyId: 2,
        amount: read.cfdi.amountMxn, receivedAt: at, metaTagId: 14, receiptId,
      });
    }
  } finally {
    await database.close();
  }
}

/** VmRSS and VmHWM (peak resident memory) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function p95(url: string, token: string, percentile: DataBenchDeps['percentile'], connections: number): Promise<{ p95: number; rps: number; bad: number }> {
  const times: number[] = [];
  const result = await new Promise<LoadResult>((done, reject) => {
    const instance = autocannon({ url, connections, duration: sized(8, 1), headers: { 'X-Access-Token': token } }, (error, r) => (error ? reject(error) : done(r)));
    instance.on('response', (_c, status, _b, ms) => {
      if (status === 200) times.push(ms);
    });
  });
  return { p95: Math.round(percentile(times, 95) * 10) / 10, rps: Math.round(result.requests.average), bad: result.non2xx + result.errors + result.timeouts };
}

async function archiveOnce(base: string, token: string, ids: string[]): Promise<{ ttfb: number; total: number; bytes: number }> {
  const q = new URLSearchParams();
  for (const id of ids) q.append('tickets[]', id);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v3/receipts/archive?${q}`, { headers: { 'X-Access-Token': token } });
  if (!res.ok || !res.body) throw new Error(`archive ${res.status}`);
  const reader = res.body.getReader();
  let ttfb = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (ttfb === 0) ttfb = performance.now() - t0;
    bytes += value.byteLength;
  }
  return { ttfb: Math.round(ttfb), total: Math.round(performance.now() - t0), bytes };
}

export async function dataSection(deps: DataBenchDeps): Promise<void> {
  const { report } = deps;
  // The CFDI parse-only figure (goal ≥ 5,000 CFDI/s on one core), on tests/fixtures/cfdi.
  report('cfdi-parse-per-s', cfdiParsePerSecond(sized(3, 0.2)).perSecond);
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-bench-data-'));
  const port = await deps.freePort();
  const base = `http://127.0.0.1:${port}`;
  // The data goes in first: PGlite opens its directory from one process at a time.
  await seedData(dataDir, report);
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => (output = (output + d).slice(-4000)));
  server.stderr?.on('data', (d) => (output = (output + d).slice(-4000)));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`el servidor terminó:\n${output}`);
      const ok = await fetch(`${base}/api/v3/plans.json`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`el servidor no respondió:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const login = await fetch(`${base}/api/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { login: DEMO_USER.username, password: DEMO_USER.password } }),
    }).then((r) => r.json() as Promise<{ response: { token: string } }>);
    const token = login.response.token;

    for (const [key, path] of [
      ['analytics-month', `/api/v3/analytics/spending/${RFC}/2026/10`],
      ['analytics-year', `/api/v3/analytics/spending/${RFC}/2026`],
      ['stats-year', `/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=2026&date[month]=12&usuario[view]=annual&action=stats`],
    ] as const) {
      // One user at a time (the latency a person feels), then 10 at once (throughput; on PGlite,
      // one process, the p95 there is mostly waiting in line).
      const one = await p95(base + path, token, deps.percentile, 1);
      report(`${key}-p95-ms`, one.p95);
      const ten = await p95(base + path, token, deps.percentile, 10);
      report(`${key}-10conn-p95-ms`, ten.p95);
      report(`${key}-req-per-s`, ten.rps);
      if (one.bad + ten.bad > 0) report(`${key}-non2xx`, one.bad + ten.bad);
    }

    const list = await fetch(`${base}/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=2026&date[month]=11`, { headers: { 'X-Access-Token': token } })
      .then((r) => r.json() as Promise<{ response: { tickets: { ticket_id: string; receipt: unknown }[] } }>);
    const ids = list.response.tickets.filter((t) => t.receipt).map((t) => t.ticket_id);
    if (ids.length !== RECEIPTS) throw new Error(`se esperaban ${RECEIPTS} comprobantes, hay ${ids.length}`);
    const before = memoryOf(server.pid!);
    const cold = await archiveOnce(base, token, ids);
    const afterCold = memoryOf(server.pid!);
    const warm = await archiveOnce(base, token, ids);
    const afterWarm = memoryOf(server.pid!);
    report('archive-200-cold-ttfb-ms', cold.ttfb);
    report('archive-200-cold-total-ms', cold.total);
    report('archive-200-warm-ttfb-ms', warm.ttfb);
    report('archive-200-warm-total-ms', warm.total);
    report('archive-200-zip-kb', Math.round(warm.bytes / 1024));
    report('archive-server-rss-before-mb', before.rss);
    report('archive-server-peak-rss-before-mb', before.peak);
    report('archive-server-peak-rss-mb', afterWarm.peak);
    report('archive-server-rss-after-cold-mb', afterCold.rss);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    await rm(dataDir, { recursive: true, force: true });
  }
}
