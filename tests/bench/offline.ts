// The offline benchmarks, run by run.ts (`npm run bench -- --only offline` runs them alone),
// in real Chromium against the bench's own server, on the app's origin and IndexedDB:
// 1. Dexie with 100,000 tickets over 3 RFCs × 24 months: the dashboard's month query (goal ≤ 5 ms)
//    and the dashboard rendering a month's first page after a month change (goal < 50 ms).
// 2. Sync down of a 2,000-ticket month with the real pullMonth (goal < 1.5 s).
// 3. Replay of 1,000 operations queued offline through the real ticket actions (goal < 20 s, 0 duplicates).
// The page side is tests/bench/offline-page.ts, bundled here with esbuild and injected as an init script.
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { MONTH_NAMES, monthKey } from '../../src/domain/dates';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { newId } from '../../src/domain/ids';
import { manualTicketPayload } from '../../src/domain/spending-form';
import type { Ticket } from '../../src/domain/ticket';
import type { CcBench } from './offline-page';
import { seededRandom } from '../../src/domain/seeded-random';
import { sized } from './scale';

export interface OfflineBenchDeps {
  base: string;
  session: { token: string; username: string };
  chromePath: string;
  /** Puts the session where the app reads it (run.ts seedSession). */
  seedSession: (page: Page) => Promise<void>;
  report: (key: string, value: string | number) => void;
  fail: (section: string, error: unknown) => void;
  median: (values: number[]) => number;
  percentile: (values: number[], p: number) => number;
}

// The workplace's Chromium flags (tests/e2e/harness.ts): no background calls to Google's hosts.
const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];
/** The third account the benchmarks add to the demo user (the demo has two). */
const BENCH_RFC = 'BENC850101AB1';
const DEXIE_TICKETS = sized(100_000, 720);
const DEXIE_MONTHS = 24;
const SEED_CHUNK = sized(1_000, 100);
const QUERY_PICKS = sized(50, 3);
const RENDER_PICKS = sized(51, 3); // 17 per account
const SYNC_TICKETS = sized(2_000, 20);
const SYNC_RUNS = sized(3, 1);
const REPLAY = sized({ creates: 500, notes: 250, tags: 250 }, { creates: 6, notes: 3, tags: 3 });

declare global {
  interface Window {
    ccBench: CcBench;
    ccDrain?: ReturnType<CcBench['waitDrained']>;
  }
}

interface Period {
  year: number;
  month: number;
}

const shift = (p: Period, delta: number): Period => {
  const i = p.year * 12 + (p.month - 1) + delta;
  return { year: Math.floor(i / 12), month: (i % 12) + 1 };
};
const key = (p: Period) => monthKey(p.year, p.month);
const round1 = (n: number) => Math.round(n * 10) / 10;


async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(import.meta.dirname, 'offline-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}

async function api<T>(deps: OfflineBenchDeps, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(deps.base + path, {
    ...init,
    headers: { 'content-type': 'application/json', 'X-Access-Token': deps.session.token, ...(init.headers as Record<string, string>) },
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

async function userRfcs(deps: OfflineBenchDeps): Promise<string[]> {
  const res = await api<{ response: { rfc: string }[] }>(deps, '/user_clients');
  if (res.status !== 200) throw new Error(`user_clients ${res.status}`);
  return res.body.response.map((c) => c.rfc);
}

/** The demo user's two RFCs plus the bench's third one. */
async function threeRfcs(deps: OfflineBenchDeps): Promise<string[]> {
  let rfcs = await userRfcs(deps);
  if (!rfcs.includes(BENCH_RFC)) {
    const res = await api(deps, '/new_client', {
      method: 'POST',
      body: JSON.stringify({ client: { rfc: BENCH_RFC, first_name: 'BENITO', last_name: 'CARGA PRUEBA' }, ubication_data: {} }),
    });
    if (res.status !== 200) throw new Error(`new_client ${res.status}: ${JSON.stringify(res.body)}`);
    rfcs = await userRfcs(deps);
  }
  if (rfcs.length < 3) throw new Error(`expected 3 RFCs, have ${rfcs.join(', ')}`);
  return rfcs.slice(0, 3);
}

async function monthTickets(deps: OfflineBenchDeps, rfc: string, p: Period): Promise<Ticket[]> {
  const res = await api<{ response: { tickets: Ticket[] } }>(deps, `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${p.year}&date[month]=${p.month}`);
  if (res.status !== 200) throw new Error(`tickets ${res.status}`);
  return res.body.response.tickets;
}

/** yyyy/mm/dd of every day of a month (up to today for the current one). */
function daysOf(p: Period): string[] {
  const days = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
  const today = mexicoCityDate();
  const last = p.year === today.year && p.month === today.month ? today.day : days;
  return Array.from({ length: last }, (_, i) => `${p.year}/${String(p.month).padStart(2, '0')}/${String(i + 1).padStart(2, '0')}`);
}

/** Creates `n` manual spendings of one month on the server through the API, 8 at a time. */
async function seedServerMonth(deps: OfflineBenchDeps, rfc: string, p: Period, n: number): Promise<void> {
  const dates = daysOf(p);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const id = newId();
      const payload = manualTicketPayload(
        { kind: 'expense', amount: (20 + (i % 900) + (i % 7) / 10).toFixed(2), date: dates[i % dates.length]!, category: String(1 + (i % 6)), currency: 'MXN', nationalAmount: '', note: `Sincronización ${i}` },
        rfc,
        id,
      );
      const res = await api(deps, '/form/ticket_create?format=json', { method: 'POST', body: JSON.stringify(payload), headers: { 'Idempotency-Key': id } });
      if (res.status !== 200) throw new Error(`ticket_create ${res.status}: ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function newContext(browser: Browser, code: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  await context.addInitScript({ content: code });
  return context;
}

/** Opens the dashboard signed in as the demo user (session stored as a real sign-in does). */
async function openDashboard(deps: OfflineBenchDeps, page: Page, before?: () => Promise<void>): Promise<void> {
  await page.goto(`${deps.base}/#/login`, { waitUntil: 'load' });
  await deps.seedSession(page);
  await before?.();
  // A document of its own at #/home: changing the hash of the signed-out page gets it redirected
  // (to the anonymous form) before a reload, which then reloads that.
  await page.goto('about:blank');
  await page.goto(`${deps.base}/#/home`, { waitUntil: 'load' });
  await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
}

const currentRfc = (page: Page) => page.locator('.dashboard__account .tabular').first().textContent().then((t) => (t ?? '').trim());

/** One select change on the dashboard, timed in the page (see armRender in offline-page.ts). */
async function changeSelect(page: Page, select: '#picker-month' | '#picker-year', value: number, expected: string | null) {
  await page.evaluate((e) => window.ccBench.armRender(e), expected);
  await page.selectOption(select, String(value));
  return page.evaluate(() => window.ccBench.renderResult());
}

async function switchAccount(page: Page, rfc: string, expected: string | null): Promise<void> {
  if ((await currentRfc(page)) === rfc) return;
  await page.click('.account-menu__button');
  await page.click(`.account-menu__item:has-text("${rfc}")`);
  await page.waitForFunction((r) => document.querySelector('.dashboard__account')?.textContent?.includes(r), rfc);
  if (expected !== null) {
    await page.waitForFunction((e) => document.querySelector('table.tickets tbody tr')?.textContent?.includes(e) ?? false, expected, { timeout: 20_000 });
  }
}

// ---------------------------------------------------------------- 1. Dexie: month query and render

async function dexieBench(deps: OfflineBenchDeps, browser: Browser, code: string, rfcs: string[]): Promise<void> {
  const now = mexicoCityDate();
  const current: Period = { year: now.year, month: now.month };
  const periods = Array.from({ length: DEXIE_MONTHS }, (_, i) => shift(current, -i));
  const months = periods.map(key);
  const context = await newContext(browser, code);
  // The dashboard also pulls the month from the server; held here, so what it shows is Dexie's
  // 100,000-ticket store (a pulled month would replace the seeded rows with the server's).
  await context.route((url) => url.pathname === '/api/v2/tickets', () => undefined);
  try {
    const page = await context.newPage();
    let seedResult: { ms: number; count: number } | null = null;
    await openDashboard(deps, page, async () => {
      seedResult = await page.evaluate(
        (o) => window.ccBench.seed(o),
        { rfcs, months, total: DEXIE_TICKETS, chunk: SEED_CHUNK, seed: 20_261_122, username: deps.session.username },
      );
    });
    const s = seedResult as { ms: number; count: number } | null;
    if (!s || s.count < DEXIE_TICKETS) throw new Error(`seeded ${s?.count ?? 0} tickets`);
    deps.report('dexie-tickets', s.count);
    deps.report('dexie-seed-ms', Math.round(s.ms));

    const rnd = seededRandom(7);
    const pick = () => ({ rfc: rfcs[Math.floor(rnd() * rfcs.length)]!, month: months[Math.floor(rnd() * months.length)]! });
    const queryPicks = Array.from({ length: QUERY_PICKS }, pick);
    const pagePicks = Array.from({ length: QUERY_PICKS }, pick);
    const app = await page.evaluate((p) => window.ccBench.timeMonthPage(p), queryPicks);
    deps.report('dexie-month-page-query-median-ms', round1(deps.median(app)));
    deps.report('dexie-month-page-query-p95-ms', round1(deps.percentile(app, 95)));
    const bare = await page.evaluate((p) => window.ccBench.timeFirstPage(p), pagePicks);
    deps.report('dexie-month-first-page-index-median-ms', round1(deps.median(bare)));
    deps.report('dexie-month-first-page-index-p95-ms', round1(deps.percentile(bare, 95)));
    const parts = await page.evaluate((p) => window.ccBench.timeMonthParts(p), queryPicks);
    deps.report('dexie-month-count-median-ms', round1(deps.median(parts.count)));
    deps.report('dexie-month-selectable-ids-median-ms', round1(deps.median(parts.selectable)));

    // Render: month (or year) changes on the real dashboard, timed from the select's change event
    // to the new month's newest ticket in the first table row.
    const dom: number[] = [];
    const frame: number[] = [];
    let at: Period = current;
    const firstNote = (rfc: string, p: Period) => page.evaluate(([r, m]) => window.ccBench.firstNote(r!, m!), [rfc, key(p)]);
    for (const rfc of rfcs) {
      await switchAccount(page, rfc, await firstNote(rfc, at));
      for (let i = 0; i < RENDER_PICKS / rfcs.length; i++) {
        let target = periods[Math.floor(rnd() * periods.length)]!;
        while (key(target) === key(at)) target = periods[Math.floor(rnd() * periods.length)]!;
        if (target.year !== at.year && target.month !== at.month) {
          // Two selects to change: the year first, untimed.
          const via = { year: target.year, month: at.month };
          await changeSelect(page, '#picker-year', via.year, await firstNote(rfc, via));
          at = via;
        }
        const select = target.year !== at.year ? '#picker-year' : '#picker-month';
        const t = await changeSelect(page, select, select === '#picker-year' ? target.year : target.month, await firstNote(rfc, target));
        dom.push(t.domMs);
        frame.push(t.frameMs);
        at = target;
      }
    }
    const title = await page.locator('.dashboard h1').first().textContent();
    if (!title?.toLowerCase().includes(MONTH_NAMES[at.month - 1]!)) throw new Error(`dashboard shows ${title}, expected ${key(at)}`);
    deps.report('dashboard-page-render-samples', dom.length);
    deps.report('dashboard-page-render-ms', round1(deps.median(dom)));
    deps.report('dashboard-page-render-p95-ms', round1(deps.percentile(dom, 95)));
    deps.report('dashboard-page-render-next-frame-ms', round1(deps.median(frame)));
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- 2. sync down of a 2,000-ticket month

async function syncDownBench(deps: OfflineBenchDeps, browser: Browser, code: string, rfc: string): Promise<void> {
  const now = mexicoCityDate();
  const p = shift({ year: now.year, month: now.month }, -2);
  const existing = (await monthTickets(deps, rfc, p)).length;
  if (existing < SYNC_TICKETS) {
    const t0 = performance.now();
    await seedServerMonth(deps, rfc, p, SYNC_TICKETS - existing);
    // Context for the replay figure: the server's create throughput (8 requests in flight).
    deps.report('server-ticket-create-per-op-ms', round1((performance.now() - t0) / (SYNC_TICKETS - existing)));
  }
  const onServer = (await monthTickets(deps, rfc, p)).length;
  if (onServer !== SYNC_TICKETS) throw new Error(`server has ${onServer} tickets in ${key(p)}, expected ${SYNC_TICKETS}`);

  const context = await newContext(browser, code);
  try {
    const page = await context.newPage();
    await openDashboard(deps, page);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const cold: number[] = [];
    for (let i = 0; i < SYNC_RUNS; i++) {
      await page.evaluate(([r, m]) => window.ccBench.forgetMonth(r!, m!), [rfc, key(p)]);
      const r = await page.evaluate(([rr, y, m, t]) => window.ccBench.pull(rr as string, y as number, m as number, t as string), [rfc, p.year, p.month, deps.session.token] as const);
      const stored = await page.evaluate(([rr, m]) => window.ccBench.monthCount(rr!, m!), [rfc, key(p)]);
      if (r.received !== SYNC_TICKETS || stored !== SYNC_TICKETS) throw new Error(`pull received ${r.received}, Dexie has ${stored}`);
      cold.push(r.ms);
    }
    deps.report('sync-down-2000-ms', Math.round(deps.median(cold)));
    deps.report('sync-down-2000-max-ms', Math.round(Math.max(...cold)));
    // Opening the month again: everything is already there.
    const again = await page.evaluate(([rr, y, m, t]) => window.ccBench.pull(rr as string, y as number, m as number, t as string), [rfc, p.year, p.month, deps.session.token] as const);
    deps.report('sync-down-2000-refresh-ms', Math.round(again.ms));
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- 3. replay of 1,000 queued operations

async function replayBench(deps: OfflineBenchDeps, browser: Browser, code: string, rfc: string): Promise<void> {
  const now = mexicoCityDate();
  const p = shift({ year: now.year, month: now.month }, -1);
  const before = (await monthTickets(deps, rfc, p)).length;
  const context = await newContext(browser, code);
  try {
    const page = await context.newPage();
    await openDashboard(deps, page);
    // The real path: a service worker controls the page and drains when the page reconnects.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 20_000 });
      await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
    }
    await page.waitForLoadState('networkidle').catch(() => undefined);

    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    const queued = await page.evaluate(
      (o) => window.ccBench.enqueue(o),
      { rfc, username: deps.session.username, dates: daysOf(p), ...REPLAY },
    );
    const total = REPLAY.creates + REPLAY.notes + REPLAY.tags;
    if (queued.outbox !== total) throw new Error(`outbox has ${queued.outbox} operations, expected ${total}`);
    deps.report('replay-1000-enqueue-ms', Math.round(queued.ms));
    // Context for the replay figure: what one small IndexedDB write transaction costs here.
    const probe = await page.evaluate(() => window.ccBench.durabilityProbe(30));
    deps.report('idb-strict-tx-median-ms', round1(deps.median(probe.strict)));
    deps.report('idb-relaxed-tx-median-ms', round1(deps.median(probe.relaxed)));

    await page.evaluate(() => {
      window.ccDrain = window.ccBench.waitDrained(180_000);
    });
    await context.setOffline(false);
    const drained = await page.evaluate(() => window.ccDrain!);
    if (drained.timedOut) throw new Error(`outbox still has ${drained.remaining} operations after ${Math.round(drained.ms)} ms`);
    deps.report('replay-1000-ms', Math.round(drained.ms));
    deps.report('replay-1000-parked', drained.failed);

    const server = await monthTickets(deps, rfc, p);
    const ids = new Set(queued.ids);
    const mine = server.filter((t) => ids.has(t.ticket_id));
    const unique = new Set(mine.map((t) => t.ticket_id));
    // Rows beyond one per created id: duplicates (by id, or new rows the replay made).
    deps.report('replay-1000-duplicates', mine.length - unique.size + (server.length - before - mine.length));
    const byId = new Map(mine.map((t) => [t.ticket_id, t]));
    let lost = queued.ids.filter((id) => !byId.has(id)).length;
    for (const [id, note] of Object.entries(queued.notes)) if (byId.get(id)?.note !== note) lost++;
    for (const [id, tag] of Object.entries(queued.tags)) if (byId.get(id)?.tags[0]?.tag_id !== tag) lost++;
    deps.report('replay-1000-lost', lost);
  } finally {
    await context.setOffline(false).catch(() => undefined);
    await context.close();
  }
}

// ---------------------------------------------------------------- section

export async function offlineSection(deps: OfflineBenchDeps): Promise<void> {
  const code = await bundle();
  const rfcs = await threeRfcs(deps);
  const browser = await chromium.launch({ executablePath: deps.chromePath, args: ARGS, headless: true });
  try {
    for (const [name, run] of [
      ['dexie', () => dexieBench(deps, browser, code, rfcs)],
      ['sync-down', () => syncDownBench(deps, browser, code, BENCH_RFC)],
      ['replay', () => replayBench(deps, browser, code, BENCH_RFC)],
    ] as const) {
      try {
        await run();
      } catch (error) {
        deps.fail(name, error);
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
  }
}
