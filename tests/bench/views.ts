// The view benchmarks, in real Chromium against the bench's own server (run.ts passes the
// same deps as to offlineSection), on the app's real screens:
// 1. The annual view with 5,000 tickets in the year (on the server, pulled into Dexie by the view
//    itself): from the year select's change to the line chart drawn with that year's numbers
//    (goal < 300 ms) — online (server stats + analytics) and offline (from the 5,000 tickets in Dexie),
//    and from the menu click on the dashboard.
// 2. 'Exportar' of 10,000 selected tickets (seeded into Dexie): from the click to the CSV handed to
//    the browser (goal < 1 s), file checked.
// The page side is tests/bench/views-page.ts, bundled here with esbuild and injected as an init script.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { analyticsPath, seriesFromStats, statsPath, type StatsAnswer } from '../../src/app/annual/annual-model';
import { seriesBalance } from '../../src/domain/analytics';
import { monthKey } from '../../src/domain/dates';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { newId } from '../../src/domain/ids';
import { formatMoney } from '../../src/domain/money';
import { manualTicketPayload } from '../../src/domain/spending-form';
import type { OfflineBenchDeps } from './offline';
import type { CcViews, Timing } from './views-page';
import { sized } from './scale';

/** What run.ts hands to a browser section (the same as the offline benchmarks'). */
export type ViewsBenchDeps = OfflineBenchDeps;

declare global {
  interface Window {
    ccViews: CcViews;
  }
}

// The workplace's Chromium flags (tests/e2e/harness.ts): no background calls to Google's hosts.
const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];
/** The benchmarks' own account (tests/bench/offline.ts adds the same one). */
const BENCH_RFC = 'BENC850101AB1';
const ANNUAL_TICKETS = sized(5_000, 60);
const EXPORT_TICKETS = sized(10_000, 50);
const RUNS = sized(5, 1);
const OPEN_RUNS = sized(3, 1);

const round1 = (n: number) => Math.round(n * 10) / 10;

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(import.meta.dirname, 'views-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}

async function api<T>(deps: ViewsBenchDeps, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(deps.base + path, {
    ...init,
    headers: { 'content-type': 'application/json', 'X-Access-Token': deps.session.token, ...(init.headers as Record<string, string>) },
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

/** The bench's account on the demo user (created as tests/bench/offline.ts does, if it is not there yet). */
async function ensureBenchRfc(deps: ViewsBenchDeps): Promise<void> {
  const list = await api<{ response: { rfc: string }[] }>(deps, '/user_clients');
  if (list.body.response.some((c) => c.rfc === BENCH_RFC)) return;
  const res = await api(deps, '/new_client', {
    method: 'POST',
    body: JSON.stringify({ client: { rfc: BENCH_RFC, first_name: 'BENITO', last_name: 'CARGA PRUEBA' }, ubication_data: {} }),
  });
  if (res.status !== 200) throw new Error(`new_client ${res.status}: ${JSON.stringify(res.body)}`);
}

async function yearTicketCount(deps: ViewsBenchDeps, year: number): Promise<number> {
  const res = await api<{ response: { tickets: unknown[] } }>(deps, `/api/v2/tickets?usuario[rfc_owner]=${BENCH_RFC}&usuario[view]=annual&date[year]=${year}&date[month]=12`);
  if (res.status !== 200) throw new Error(`annual tickets ${res.status}`);
  return res.body.response.tickets.length;
}

/** Tops the year up to `n` tickets through the API (8 requests in flight): spending of many categories and some income. */
async function seedServerYear(deps: ViewsBenchDeps, year: number, n: number): Promise<void> {
  const missing = n - (await yearTicketCount(deps, year));
  let next = 0;
  const worker = async () => {
    while (next < missing) {
      const i = next++;
      const month = 1 + (i % 12);
      const day = 1 + (Math.floor(i / 12) % 28);
      const id = newId();
      const payload = manualTicketPayload(
        {
          kind: i % 5 === 0 ? 'income' : 'expense',
          amount: (15 + (i % 2900) + (i % 9) / 10).toFixed(2),
          date: `${year}/${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}`,
          category: String(i % 5 === 0 ? 1 + (i % 3) : 1 + (i % 23)),
          currency: 'MXN',
          nationalAmount: '',
          note: `Anual ${i}`,
        },
        BENCH_RFC,
        id,
      );
      const res = await api(deps, '/form/ticket_create?format=json', { method: 'POST', body: JSON.stringify(payload), headers: { 'Idempotency-Key': id } });
      if (res.status !== 200) throw new Error(`ticket_create ${res.status}: ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const count = await yearTicketCount(deps, year);
  if (count !== n) throw new Error(`server has ${count} tickets in ${year}, expected ${n}`);
}

/** The side panel's Ingresos for a year as the server's stats give it (what the page must show). */
async function expectedIncome(deps: ViewsBenchDeps, year: number): Promise<string> {
  const res = await api<{ response: { stats: StatsAnswer } }>(deps, statsPath(BENCH_RFC, year));
  if (res.status !== 200) throw new Error(`stats ${res.status}`);
  // The analytics answer for the year must exist too (the view asks for both).
  const analytics = await api(deps, analyticsPath(BENCH_RFC, year));
  if (analytics.status !== 200) throw new Error(`analytics ${analytics.status}`);
  return formatMoney(seriesBalance(seriesFromStats(res.body.response.stats, year)).income);
}

async function newContext(browser: Browser, code: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-MX', timezoneId: 'America/Mexico_City', acceptDownloads: true });
  await context.addInitScript({ content: code });
  return context;
}

/** Opens the dashboard signed in as the demo user, on the bench's account. */
async function openDashboard(deps: ViewsBenchDeps, page: Page, before?: () => Promise<void>): Promise<void> {
  await page.goto(`${deps.base}/#/login`, { waitUntil: 'load' });
  await deps.seedSession(page);
  await before?.();
  // A document of its own at #/home: changing the hash of the signed-out page gets it redirected
  // (to the anonymous form) before a reload, which then reloads that.
  await page.goto('about:blank');
  await page.goto(`${deps.base}/#/home`, { waitUntil: 'load' });
  await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
  const current = ((await page.locator('.dashboard__account .tabular').first().textContent()) ?? '').trim();
  if (current !== BENCH_RFC) {
    await page.click('.account-menu__button');
    await page.click(`.account-menu__item:has-text("${BENCH_RFC}")`);
    await page.waitForFunction((r) => document.querySelector('.dashboard__account')?.textContent?.includes(r), BENCH_RFC);
  }
}

/** The annual view shows `year` with its numbers and has finished pulling it. */
async function annualSettled(page: Page, year: number, income: string): Promise<void> {
  await page.waitForFunction(
    ([y, inc]) =>
      document.querySelector('.annual h1')?.textContent === `Vista Anual ${y}` &&
      document.querySelector('.annual__side dd')?.textContent === inc &&
      document.querySelector('.annual__sync') === null,
    [year, income] as const,
    { timeout: 60_000 },
  );
}

async function timedYearChange(page: Page, year: number, income: string): Promise<Timing> {
  await page.evaluate(([y, inc]) => window.ccViews.armAnnual(y as number, inc as string, 'change'), [year, income] as const);
  await page.selectOption('#picker-year-only', String(year));
  return page.evaluate(() => window.ccViews.annualResult());
}

// ---------------------------------------------------------------- 1. annual view, 5,000 tickets

async function annualBench(deps: ViewsBenchDeps, browser: Browser, code: string): Promise<void> {
  const year = mexicoCityDate().year - 2; // a year the offline benchmarks never write to
  const other = year - 1;
  await seedServerYear(deps, year, ANNUAL_TICKETS);
  deps.report('annual-tickets', ANNUAL_TICKETS);
  const income = await expectedIncome(deps, year);
  const otherIncome = await expectedIncome(deps, other);

  const context = await newContext(browser, code);
  try {
    const page = await context.newPage();
    await openDashboard(deps, page);
    // The layout keeps the year: pick it on the dashboard, then open the view from the menu.
    await page.selectOption('#picker-year', String(year));
    await page.click('.sidebar a.menu__link[href$="#/annual"]');
    // First visit: loads the view's code and pulls the 5,000 tickets into Dexie.
    const t0 = Date.now();
    await annualSettled(page, year, income);
    deps.report('annual-first-visit-with-pull-ms', Date.now() - t0);
    const stored = await page.evaluate(([r, y]) => window.ccViews.countYear(r as string, y as number), [BENCH_RFC, year] as const);
    if (stored !== ANNUAL_TICKETS) throw new Error(`Dexie has ${stored} tickets of ${year}, expected ${ANNUAL_TICKETS}`);
    await page.selectOption('#picker-year-only', String(other));
    await annualSettled(page, other, otherIncome);

    // Online: server stats + analytics (the view also pulls the year again in the background).
    const online: number[] = [];
    const onlineFrame: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = await timedYearChange(page, year, income);
      online.push(t.domMs);
      onlineFrame.push(t.frameMs);
      await annualSettled(page, year, income);
      await page.selectOption('#picker-year-only', String(other));
      await annualSettled(page, other, otherIncome);
    }
    deps.report('annual-render-ms', round1(deps.median(online)));
    deps.report('annual-render-max-ms', round1(Math.max(...online)));
    deps.report('annual-render-next-frame-ms', round1(deps.median(onlineFrame)));

    // Offline: the same numbers from the year's 5,000 tickets in Dexie.
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    const device: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = await timedYearChange(page, year, income);
      device.push(t.domMs);
      await page.selectOption('#picker-year-only', String(other));
      await page.waitForFunction((y) => document.querySelector('.annual h1')?.textContent === `Vista Anual ${y}` && document.querySelector('.annual__side dd')?.textContent?.startsWith('$'), other);
    }
    deps.report('annual-render-offline-ms', round1(deps.median(device)));
    await context.setOffline(false);

    // From the dashboard's menu: the route (code already loaded) and the numbers.
    await page.selectOption('#picker-year-only', String(year));
    await annualSettled(page, year, income);
    const open: number[] = [];
    for (let i = 0; i < OPEN_RUNS; i++) {
      await page.click('.sidebar a.menu__link[href$="#/"]');
      await page.waitForSelector('.dashboard .dashboard__account');
      await page.evaluate(([y, inc]) => window.ccViews.armAnnual(y as number, inc as string, 'click'), [year, income] as const);
      await page.click('.sidebar a.menu__link[href$="#/annual"]');
      open.push((await page.evaluate(() => window.ccViews.annualResult())).domMs);
      await annualSettled(page, year, income);
    }
    deps.report('annual-open-from-menu-ms', round1(deps.median(open)));
  } finally {
    await context.setOffline(false).catch(() => undefined);
    await context.close();
  }
}

// ---------------------------------------------------------------- 2. CSV export of 10,000 selected tickets

async function exportBench(deps: ViewsBenchDeps, browser: Browser, code: string): Promise<void> {
  const now = mexicoCityDate();
  const month = monthKey(now.year, now.month);
  const context = await newContext(browser, code);
  // The dashboard also pulls the month from the server; held here, so what it shows is the 10,000
  // tickets seeded into Dexie (a pull would replace them with the server's).
  await context.route((url) => url.pathname === '/api/v2/tickets', () => undefined);
  try {
    const page = await context.newPage();
    let seeded = 0;
    await openDashboard(deps, page, async () => {
      seeded = await page.evaluate(
        (o) => window.ccViews.seedSelectable(o),
        { rfc: BENCH_RFC, month, total: EXPORT_TICKETS, chunk: sized(1_000, 25), username: deps.session.username },
      );
    });
    if (seeded < EXPORT_TICKETS) throw new Error(`seeded ${seeded} tickets`);
    await page.waitForSelector('table.tickets tbody tr', { timeout: 30_000 });
    await page.getByRole('checkbox', { name: 'Seleccionar todos' }).first().check();
    await page.waitForFunction((n) => document.querySelector('.toolbar__count')?.textContent === `${n} seleccionados`, EXPORT_TICKETS, { timeout: 30_000 });

    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.evaluate(() => window.ccViews.armExport());
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Exportar' }).first().click()]);
      const t = await page.evaluate(() => window.ccViews.exportResult());
      times.push(t.domMs);
      if (i === 0) {
        const text = readFileSync(await download.path(), 'utf8');
        const lines = text.split('\r\n').filter((l) => l.length > 0).length;
        if (text.charCodeAt(0) !== 0xfeff || lines !== EXPORT_TICKETS + 1) throw new Error(`CSV ${t.name} has ${lines} lines, expected ${EXPORT_TICKETS + 1}`);
        deps.report('csv-export-10k-bytes', Buffer.byteLength(text));
      }
    }
    deps.report('csv-export-10k-ms', Math.round(deps.median(times)));
    deps.report('csv-export-10k-max-ms', Math.round(Math.max(...times)));
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- section

export async function viewsSection(deps: ViewsBenchDeps): Promise<void> {
  const code = await bundle();
  await ensureBenchRfc(deps);
  const browser = await chromium.launch({ executablePath: deps.chromePath, args: ARGS, headless: true });
  try {
    for (const [name, run] of [
      ['annual', () => annualBench(deps, browser, code)],
      ['csv-export', () => exportBench(deps, browser, code)],
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
