// npm run bench: the figures the issues set goals for, one per line (perf-security.md §14):
// bundle sizes, Lighthouse (median of N mobile runs: performance, accessibility, best practices, SEO) on
// the signed-out start, login, dashboard, annual view and invoice form (--smoke: the login once), installability
// and offline start through CDP, and API load with autocannon. The server is started here, on a
// free port with a fresh DATA_DIR; results also go to tests/bench/results/latest.json.
// Then the offline benchmarks (tests/bench/offline.ts): Dexie month query and dashboard
// render with 100,000 tickets, sync down of a 2,000-ticket month, replay of 1,000 queued operations.
// Flags: --runs N (Lighthouse runs per route, default 5), --build (rebuild dist first),
//        --dist DIR (measure and serve another build), --pages a,b (only those Lighthouse pages), --explain
//        (where each page's time went; --requests adds its network requests), --trace-dir DIR (keep each
//        run's trace), --no-lighthouse, --no-load, --no-offline,
//        --no-views, --no-data, --no-import, --no-uploads, --no-scale, --only bundle|browser|load|offline|views|data|import|uploads|scale
//        (just that section; results go to latest-<section>.json),
//        --smoke (every section once with tiny sizes, tests/bench/scale.ts; CI runs it so no section rots
//        unseen: it fails only when a section errors, its figures are no measurement and go to latest-smoke.json).
// The view figures (tests/bench/views.ts): the annual view with 5,000 tickets, CSV of 10,000.
// Then the server figures (tests/bench/server-data.ts): analytics and stats p95 on 100,000 tickets
// of one RFC, and the 200-receipt archive's time to first byte and the server's peak memory.
// The scale figures (tests/bench/scale-bench.ts, on PostgreSQL only): 100,000 users and 10 million tickets,
// month list, stats and analytics p95 and the database's size per million tickets (--scale-regenerate).
// The PAC figure (tests/bench/pac.ts): invoices stamped per second through the Finkok adapter against its local fake (--no-pac).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { type Options as LoadOptions, type Result as LoadResult } from 'autocannon';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Browser, type Page } from 'playwright-core';
import { KV_DB_NAME } from '../../src/offline/kv-store';
import { DEMO_RFCS } from '../../src/server/db/demo-accounts';
import { budgetFailures, formatReport, measureBundle } from './bundle-size';
import { offlineSection } from './offline';
import { qrDecodeSection } from './qr-decode';
import { renewalsSection } from './renewals';
import { satSyncSection } from './sat-sync';
import { companySection } from './company';
import { importSection } from './import';
import { cfdiRulesSection } from './cfdi-rules';
import { cfdiValidateSection } from './cfdi-validate';
import { uploadsSection } from './uploads';
import { invoicingSection } from './invoicing';
import { pacSection } from './pac';
import { dataSection } from './server-data';
import { viewsSection } from './views';
import { syncFeedSection } from './sync-feed';
import { scaleSection } from './scale-bench';
import { chromiumExecutable } from '../tools/system-tools';
import { processGroupCpuMs } from './cpu-time';
import { SMOKE, sized } from './scale';

const ROOT = resolve(import.meta.dirname, '../..');
/** The machine's Chromium, else the one @sparticuz/chromium ships (tests/tools/system-tools.ts). */
const CHROME_PATH = await chromiumExecutable();
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'fcp-ms': 'first-contentful-paint',
  'lcp-ms': 'largest-contentful-paint',
  'tbt-ms': 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  'si-ms': 'speed-index',
  // All main-thread work of the load (script, style, layout, parse...): steadier than TBT on a busy machine,
  // where the score moves with the neighbours, and what a change to the first render actually saves.
  'mainthread-ms': 'mainthread-work-breakdown',
} as const;
const DEMO = { login: 'demo', password: 'cuentasclaras' };
const argv = process.argv.slice(2);
/** With --pages a,b: only those Lighthouse pages (by figure name), to measure one change quickly. */
function onlyPages(pages: [string, string][]): [string, string][] {
  const at = argv.indexOf('--pages');
  if (at < 0) return pages;
  const wanted = new Set((argv[at + 1] ?? '').split(','));
  return pages.filter(([name]) => wanted.has(name));
}
/** Lighthouse's pages (figure name, path): the smoke run measures the login once, to keep the section alive. */
const LIGHTHOUSE_SIGNED_OUT: [string, string][] = onlyPages(sized(
  [
    ['start', '/#/'],
    ['login', '/#/login'],
  ],
  [['login', '/#/login']],
));
const LIGHTHOUSE_SIGNED_IN: [string, string][] = onlyPages(sized(
  [
    ['home', '/#/home'], // the dashboard
    ['annual', '/#/annual'],
    ['invoice-form', '/#/ticket/form/autozone'],
  ],
  [],
));
// Where src/offline/session.ts keeps the session (idb-keyval store 'kv' of KV_DB_NAME, key 'session').
const SESSION_STORE = 'kv';
const SESSION_KEY = 'session';

const flag = (name: string): boolean => argv.includes(name);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Math.max(1, Number(argv[runsAt + 1]) || 5) : sized(5, 1);
const distAt = argv.indexOf('--dist');
const DIST = resolve(distAt >= 0 && argv[distAt + 1] ? argv[distAt + 1]! : join(ROOT, 'dist'));
const SECTIONS = ['bundle', 'browser', 'load', 'offline', 'views', 'data', 'import', 'qr', 'invoicing', 'pac', 'renewals', 'sat-sync', 'company', 'uploads', 'sync-feed', 'scale'] as const;
const onlyAt = argv.indexOf('--only');
const ONLY = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
if (onlyAt >= 0 && !(SECTIONS as readonly string[]).includes(ONLY ?? '')) {
  console.error(`--only takes one of: ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const wants = (section: (typeof SECTIONS)[number]): boolean => ONLY === undefined || ONLY === section;

const figures: Record<string, string | number> = {};
let failed = false;
const sectionSeconds: Record<string, number> = {};

function report(key: string, value: string | number): void {
  figures[key] = value;
  console.log(`${key}: ${value}`);
}

function fail(section: string, error: unknown): void {
  failed = true;
  const message = error instanceof Error ? error.message : String(error);
  figures[`${section}-error`] = message;
  console.error(`${section}-error: ${message}`);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Nearest-rank percentile. */
const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const round = (n: number, digits = 0): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs one section: an error it throws is reported as `<name>-error` and fails the run; its wall time is kept. */
async function section(name: string, run: () => unknown): Promise<void> {
  const t0 = performance.now();
  try {
    await run();
  } catch (error) {
    fail(name, error);
  } finally {
    sectionSeconds[name] = round((performance.now() - t0) / 1000, 1);
  }
}

// ---------------------------------------------------------------- server

interface Server {
  url: string;
  /** The server's process group (tsx and its node child), for its CPU time. */
  pid: number | undefined;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-bench-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: DIST, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so stop() also ends tsx's child node process
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return { url, pid: child.pid, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`server did not answer within 180 s:\n${output}`);
}

interface DemoSession {
  token: string;
  user_id: number | string;
  email: string;
  username: string;
}

const LOGIN_BODY = JSON.stringify({
  user: { login: DEMO.login, password: DEMO.password, remember: true },
  device: { identifierForVendor: 'bench', device: 'bench', model: 'bench' },
});

async function logIn(base: string): Promise<DemoSession> {
  const res = await fetch(`${base}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  const body = (await res.json()) as { response?: DemoSession; errors?: string[] };
  if (!res.ok || !body.response?.token) throw new Error(`demo login failed (${res.status}): ${body.errors?.[0] ?? ''}`);
  return body.response;
}

// ---------------------------------------------------------------- browser checks

/** Puts the session where the app looks for it, as a real sign-in would. */
async function seedSession(page: Page, session: DemoSession): Promise<void> {
  await page.evaluate(
    ({ dbName, storeName, key, value }) =>
      new Promise<void>((done, reject) => {
        const open = indexedDB.open(dbName);
        open.onupgradeneeded = () => open.result.createObjectStore(storeName);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(storeName, 'readwrite');
          tx.objectStore(storeName).put(value, key);
          tx.oncomplete = () => {
            open.result.close();
            done();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { dbName: KV_DB_NAME, storeName: SESSION_STORE, key: SESSION_KEY, value: session },
  );
}

/** Waits until React has replaced the static shell of index.html. */
async function appRendered(page: Page): Promise<boolean> {
  return page
    .waitForFunction(() => document.querySelector('#root') !== null && document.querySelector('#root .app-shell') === null, null, {
      timeout: 20_000,
    })
    .then(() => true)
    .catch(() => false);
}

async function installability(browser: Browser, base: string): Promise<void> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = await context.newPage();
  try {
    await page.goto(`${base}/#/login`, { waitUntil: 'load' });
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    report('installability-errors', installabilityErrors.length);
    for (const e of installabilityErrors) console.error(`  installability: ${e.errorId}`);
    report('manifest-errors', manifest.errors.length);
    for (const e of manifest.errors) console.error(`  manifest: ${e.message}`);

    // Offline start: once the worker controls the page, a reload with no network still opens the app.
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await context.setOffline(true);
    try {
      await page.reload({ waitUntil: 'load' });
      report('offline-start', (await appRendered(page)) ? 'ok' : 'failed');
    } finally {
      await context.setOffline(false);
    }
  } finally {
    await page.close();
  }
}

/** Signs the browser profile in and reports whether the home route then renders signed in. */
async function signIn(browser: Browser, base: string, session: DemoSession): Promise<boolean> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = await context.newPage();
  try {
    await page.goto(`${base}/#/login`, { waitUntil: 'load' });
    await seedSession(page, session);
    // A document of its own at #/home: changing the hash of the signed-out page gets it redirected
    // (to the anonymous form) before a reload, which then reloads that.
    await page.goto('about:blank');
    await page.goto(`${base}/#/home`, { waitUntil: 'load' });
    if (!(await appRendered(page))) return false;
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const onLogin = await page.evaluate(() => location.hash.startsWith('#/login'));
    return !onLogin && (await page.locator('input[type="password"]').count()) === 0;
  } finally {
    await page.close();
  }
}

interface Scores {
  [key: string]: number;
}

/** Audits of the non-performance categories that did not pass, with the run count they failed in. */
const findings = new Map<string, Map<string, number>>();

function noteFindings(route: string, lhr: { categories: Record<string, { auditRefs?: { id: string; weight: number }[] } | undefined>; audits: Record<string, { score: number | null; title?: string } | undefined> }): void {
  const seen = findings.get(route) ?? new Map<string, number>();
  for (const id of ['accessibility', 'best-practices', 'seo'] as const) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) seen.set(`${id}: ${ref.id}`, (seen.get(`${id}: ${ref.id}`) ?? 0) + 1);
    }
  }
  findings.set(route, seen);
}

/**
 * One Lighthouse run; a failed trace (NO_NAVSTART on a busy machine: "Please run Lighthouse again") is
 * run once more before it counts as an error.
 */
async function lighthouseOnce(port: number, url: string, keepStorage: boolean, beforeEach?: () => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    await beforeEach?.();
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableStorageReset: keepStorage,
    });
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    // With --trace-dir DIR: keep each run's trace (chrome://tracing / DevTools' Performance panel can open it).
    const traceAt = argv.indexOf('--trace-dir');
    if (traceAt >= 0 && argv[traceAt + 1]) {
      const name = `${url.replace(/^.*#\//, '').replace(/[^a-z0-9]+/gi, '-') || 'start'}-${Date.now()}.json`;
      await writeFile(join(argv[traceAt + 1]!, name), JSON.stringify(result.artifacts.Trace));
    }
    if (!lhr.runtimeError) return lhr;
    if (attempt >= 2) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    console.error(`  lighthouse ${url}: ${lhr.runtimeError.code}, once more`);
  }
}

async function lighthouseRuns(port: number, route: string, url: string, keepStorage: boolean, beforeEach?: () => Promise<void>): Promise<Scores> {
  const samples: Scores[] = [];
  for (let i = 0; i < RUNS; i++) {
    const lhr = await lighthouseOnce(port, url, keepStorage, beforeEach);
    if (flag('--explain')) explain(url, lhr);
    noteFindings(route, lhr);
    const sample: Scores = {};
    for (const id of CATEGORIES) sample[id] = Math.round((lhr.categories[id]?.score ?? 0) * 100);
    for (const [name, audit] of Object.entries(METRICS)) sample[name] = lhr.audits[audit]?.numericValue ?? NaN;
    // Lighthouse's own measure of this machine's speed: its simulated 4x-slower phone is 4x slower than
    // *this* CPU, so scores from machines (or sessions) with different indexes do not compare.
    sample['benchmark-index'] = lhr.environment?.benchmarkIndex ?? NaN;
    samples.push(sample);
  }
  const out: Scores = {};
  for (const key of Object.keys(samples[0] ?? {})) out[key] = median(samples.map((s) => s[key]!));
  for (const [audit, runs] of findings.get(route) ?? []) console.error(`  lighthouse ${route}: ${audit} fails (${runs}/${RUNS} runs)`);
  return out;
}

/**
 * Before a signed-in run: a returning user opens the app when it is not running, so close what is
 * left of the previous visit and stop the service worker. Otherwise the worker keeps the previous
 * page's renderer process alive, Lighthouse's tab reuses it, and starting the V8 CPU profiler that
 * Lighthouse traces with has to walk that page's leftover code: a 70-120 ms task at commit (shown as
 * "Unattributable") that no user ever has, and that landed right after the cached shell's first paint.
 */
async function endPreviousVisit(browser: Browser, base: string): Promise<void> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  for (const open of context.pages()) if (open.url().startsWith(base)) await open.close();
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.send('ServiceWorker.disable');
  } finally {
    await page.close();
  }
  // Time for the emptied renderer process to exit.
  await new Promise((r) => setTimeout(r, 1000));
}

/** With --explain: where the main thread went, to see what a low score comes from. */
function explain(url: string, lhr: { audits: Record<string, { details?: unknown } | undefined> }): void {
  const items = (id: string) => ((lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []);
  console.error(`  explain ${url}`);
  for (const t of items('long-tasks').slice(0, 8)) console.error(`    long task ${Math.round(Number(t.duration))} ms at ${Math.round(Number(t.startTime))} ms: ${String(t.url)}`);
  for (const t of items('mainthread-work-breakdown').slice(0, 6)) console.error(`    ${String(t.groupLabel ?? t.group)}: ${Math.round(Number(t.duration))} ms`);
  for (const t of items('bootup-time').slice(0, 6)) console.error(`    script ${String(t.url)}: ${Math.round(Number(t.total))} ms`);
  // The largest paint: which element, and what its time went to (waiting for the document, for its
  // resource, for rendering).
  for (const t of items('largest-contentful-paint-element')) {
    const inner = (t as { items?: Record<string, unknown>[] }).items ?? [t];
    for (const row of inner) {
      const node = row.node as { selector?: string; nodeLabel?: string } | undefined;
      if (node) console.error(`    LCP element: ${node.selector ?? ''} (${(node.nodeLabel ?? '').slice(0, 60)})`);
      else if (row.phase) console.error(`    LCP ${String(row.phase)}: ${Math.round(Number(row.timing))} ms`);
    }
  }
  if (flag('--requests')) {
    for (const t of items('network-requests')) console.error(`    request ${Math.round(Number(t.networkRequestTime))}-${Math.round(Number(t.networkEndTime))} ms ${Math.round(Number(t.transferSize) / 1024)} kB ${String(t.url)}`);
  }
  // What the first paint waited for, as Lighthouse simulates it.
  for (const t of items('render-blocking-resources').slice(0, 5)) console.error(`    render-blocking ${String(t.url)}: ${Math.round(Number(t.wastedMs))} ms`);
  // What moved (CLS): the element and its share of the score.
  for (const t of items('layout-shifts').slice(0, 5)) {
    const node = t.node as { selector?: string; nodeLabel?: string } | undefined;
    console.error(`    layout shift ${round(Number(t.score), 3)}: ${node?.selector ?? ''} ${node?.nodeLabel ? `(${node.nodeLabel.slice(0, 60)})` : ''}`);
  }
}

function reportScores(route: string, scores: Scores): void {
  for (const id of CATEGORIES) report(`lighthouse-${route}-${id}`, scores[id]!);
  for (const name of Object.keys(METRICS)) {
    const value = scores[name]!;
    report(`lighthouse-${route}-${name}`, name === 'cls' ? round(value, 3) : Math.round(value));
  }
  report(`lighthouse-${route}-benchmark-index`, Math.round(scores['benchmark-index']!));
}

async function browserSection(base: string, session: DemoSession | null): Promise<void> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  let browser: Browser | null = null;
  try {
    const connected = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    browser = connected;
    try {
      await installability(browser, base);
    } catch (error) {
      fail('installability', error);
    }
    if (!flag('--no-lighthouse')) {
      report('lighthouse-runs', RUNS);
      // Signed out: a fresh profile each run, as a newcomer arrives.
      for (const [route, path] of LIGHTHOUSE_SIGNED_OUT) reportScores(route, await lighthouseRuns(chrome.port, route, `${base}${path}`, false));
      if (LIGHTHOUSE_SIGNED_IN.length === 0) return;
      if (!session) throw new Error('no demo session: signed-in routes not measured');
      const signedIn = await signIn(browser, base, session);
      report('home-signed-in', signedIn ? 'yes' : 'no');
      // Signed-in users have been here before: keep the session, service worker and caches, but open
      // the app as they do, when it is not already running (see endPreviousVisit).
      for (const [route, path] of LIGHTHOUSE_SIGNED_IN) {
        reportScores(route, await lighthouseRuns(chrome.port, route, `${base}${path}`, true, () => endPreviousVisit(connected, base)));
      }
    }
  } finally {
    await browser?.close().catch(() => undefined);
    chrome.kill();
  }
}

// ---------------------------------------------------------------- load

async function load(options: LoadOptions): Promise<{ result: LoadResult; p50: number; p95: number }> {
  const times: number[] = [];
  return new Promise((done, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) reject(error);
      else done({ result, p50: percentile(times, 50), p95: percentile(times, 95) });
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
}

/** The demo persona's fullest month of this year (the month list phones ask for most): its query path and size. */
async function fullestMonth(base: string, session: DemoSession): Promise<{ path: string; count: number }> {
  const year = new Date().getFullYear();
  let best = { path: '', count: -1 };
  for (let month = 1; month <= 12; month++) {
    const path = `/api/v2/tickets?usuario[rfc_owner]=${DEMO_RFCS.persona.rfc}&date[year]=${year}&date[month]=${month}`;
    const res = await fetch(`${base}${path}`, { headers: { 'X-Access-Token': session.token } });
    if (!res.ok) throw new Error(`month list answered ${res.status}`);
    const count = ((await res.json()) as { response: { tickets: unknown[] } }).response.tickets.length;
    if (count > best.count) best = { path, count };
  }
  return best;
}

/** Transactions PostgreSQL counted in the bench's database so far (each statement outside BEGIN is one). */
async function pgTransactions(): Promise<number | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    // Backends report their counts at most once a second when idle.
    await new Promise((r) => setTimeout(r, 1100));
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0]?.n ?? NaN);
  } finally {
    await client.end();
  }
}

/**
 * One load run that also reports, per answered request, the server's CPU milliseconds (all its processes;
 * under load the wall figures of a shared machine say less than this) and, on PostgreSQL, its statements.
 */
async function measuredLoad(server: Server, name: string, options: LoadOptions): Promise<{ result: LoadResult; p50: number; p95: number }> {
  const txBefore = await pgTransactions();
  const cpuBefore = server.pid === undefined ? undefined : processGroupCpuMs(server.pid);
  const run = await load(options);
  const cpuAfter = server.pid === undefined ? undefined : processGroupCpuMs(server.pid);
  const txAfter = await pgTransactions();
  const requests = run.result.requests.total;
  if (cpuBefore !== undefined && cpuAfter !== undefined && requests > 0) report(`${name}-server-cpu-ms-per-req`, round((cpuAfter - cpuBefore) / requests, 3));
  // Minus the two statements pgTransactions makes itself.
  if (txBefore !== undefined && txAfter !== undefined && requests > 0) report(`${name}-db-statements-per-req`, round((txAfter - txBefore - 2) / requests, 2));
  return run;
}

async function loadSection(server: Server, session: DemoSession): Promise<void> {
  const base = server.url;
  // GET /api/v2/tickets, the route every phone calls most, on the database this run uses ('database').
  const month = await fullestMonth(base, session);
  const tickets = await measuredLoad(server, 'month-list', {
    url: `${base}${month.path}`,
    connections: 50,
    duration: sized(10, 1),
    headers: { 'X-Access-Token': session.token },
  });
  report('month-list-tickets', month.count);
  report('month-list-req-per-s', Math.round(tickets.result.requests.average));
  report('month-list-p50-ms', round(tickets.p50, 1));
  report('month-list-p95-ms', round(tickets.p95, 1));
  report('month-list-non2xx', tickets.result.non2xx + tickets.result.errors + tickets.result.timeouts);

  const list = await measuredLoad(server, 'user-clients', {
    url: `${base}/user_clients`,
    connections: 50,
    duration: sized(10, 1),
    headers: { 'X-Access-Token': session.token },
  });
  report('user-clients-req-per-s', Math.round(list.result.requests.average));
  report('user-clients-p95-ms', round(list.p95, 1));
  report('user-clients-non2xx', list.result.non2xx + list.result.errors + list.result.timeouts);

  // Successful logins are not rate limited (only failures count), so this measures Argon2id + session.
  const login = await measuredLoad(server, 'login', {
    url: `${base}/api/v2/login`,
    method: 'POST',
    connections: 10,
    duration: sized(10, 1),
    headers: { 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  report('login-req-per-s', round(login.result.requests.average, 1));
  report('login-p95-ms', round(login.p95, 1));
  report('login-non2xx', login.result.non2xx + login.result.errors + login.result.timeouts);

  // One person signing in at a time: the latency a user feels, without queueing behind others.
  const single = await load({
    url: `${base}/api/v2/login`,
    method: 'POST',
    connections: 1,
    duration: sized(5, 1),
    headers: { 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  report('login-single-p95-ms', round(single.p95, 1));
}

// ---------------------------------------------------------------- main

/** The sections that share one server (started only when one of them runs). */
async function sharedServerSections(): Promise<void> {
  const t0 = performance.now();
  let server: Server | null = null;
  try {
    server = await startServer();
    sectionSeconds['server-start'] = round((performance.now() - t0) / 1000, 1);
    const base = server.url;
    report('database', process.env.DATABASE_URL ? 'postgresql' : 'pglite');
    let session: DemoSession | null = null;
    try {
      session = await logIn(base);
    } catch (error) {
      fail('login', error);
    }
    if (wants('browser')) await section('browser', () => browserSection(base, session));
    if (wants('load') && !flag('--no-load') && session) {
      const signedIn = session;
      const running = server;
      await section('load', () => loadSection(running, signedIn));
    }
    if (wants('offline') && !flag('--no-offline') && session) {
      const signedIn = session;
      await section('offline', () =>
        offlineSection({
          base,
          session: signedIn,
          chromePath: CHROME_PATH,
          seedSession: (page) => seedSession(page, signedIn),
          report,
          fail,
          median,
          percentile,
        }),
      );
    }
    if (wants('views') && !flag('--no-views') && session) {
      const signedIn = session;
      await section('views', () =>
        viewsSection({
          base,
          session: signedIn,
          chromePath: CHROME_PATH,
          seedSession: (page) => seedSession(page, signedIn),
          report,
          fail,
          median,
          percentile,
        }),
      );
    }
  } catch (error) {
    fail('server', error);
  } finally {
    await server?.stop();
  }
}

async function main(): Promise<void> {
  if (flag('--build') || !existsSync(join(DIST, 'index.html'))) {
    execFileSync('npx', ['vite', 'build', '--outDir', DIST, '--emptyOutDir'], {
      cwd: ROOT,
      stdio: 'inherit',
      timeout: 5 * 60_000,
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }

  if (wants('bundle')) {
    await section('bundle', () => {
      const bundle = measureBundle(DIST);
      for (const text of formatReport(bundle)) {
        const [key, ...rest] = text.split(': ');
        report(key!, rest.join(': '));
      }
      for (const failure of budgetFailures(bundle)) console.error(`over budget: ${failure}`);
    });
  }

  if ((['browser', 'load', 'offline', 'views'] as const).some(wants)) await sharedServerSections();

  // Its own server on its own data (100,000 tickets), after the shared one has stopped.
  if (wants('data') && !flag('--no-data')) await section('data', () => dataSection({ report, freePort, percentile }));
  // 5,000 CFDI imported end to end, as files and as zips, on a server of its own, each with its
  // seals and SAT's rules checked; first what that validation costs per CFDI on one core.
  if (wants('import') && !flag('--no-import')) {
    await section('import', async () => {
      await cfdiValidateSection(report, sized(3, 0.2));
      cfdiRulesSection(report, sized(3, 0.2));
      await importSection({ report, freePort });
    });
  }
  // Upload hardening: 100 uploads of 2 MB (one request, three at once): server memory and files/s; the API's
  // latency while the worst hostile PDF is read. On a server of its own.
  if (wants('uploads') && !flag('--no-uploads')) await section('uploads', () => uploadsSection({ report, freePort, percentile }));
  // QR decode of a 720p camera frame in Chromium.
  if (wants('qr') && !flag('--no-qr')) await section('qr', () => qrDecodeSection({ chromePath: CHROME_PATH, report, fail, median }));
  // Invoices built, sealed, stamped and rendered to PDF per second.
  if (wants('invoicing') && !flag('--no-invoicing')) await section('invoicing', () => invoicingSection({ report, seconds: sized(3, 0.2) }));
  // Invoices stamped per second through the Finkok adapter (PAC=finkok) against its local fake.
  if (wants('pac') && !flag('--no-pac')) await section('pac', () => pacSection({ report, n: sized(600, 5) }));
  // The daily renewal job over 10,000 due subscriptions.
  if (wants('renewals') && !flag('--no-renewals')) await section('renewals', () => renewalsSection({ report, n: sized(10_000, 20) }));
  // One account's daily SAT sync of 1,000 CFDI through the import pipeline.
  if (wants('sat-sync') && !flag('--no-sat-sync')) await section('sat-sync', () => satSyncSection({ report, n: sized(1_000, 10) }));
  // The company view of 500 collaborators and 50,000 tickets (stats and list p95, approving 1,000).
  if (wants('company') && !flag('--no-company')) await section('company', () => companySection({ report, percentile }));
  // Incremental sync of a 2,000-ticket month: bytes and ms of a first load, an unchanged month and one change.
  if (wants('sync-feed') && !flag('--no-sync-feed')) await section('sync-feed', () => syncFeedSection({ report, median }));
  // 10 million tickets of 100,000 users on PostgreSQL: list, stats and analytics p95, and size per million.
  if (wants('scale') && !flag('--no-scale')) await section('scale', () => scaleSection({ report, freePort, percentile }));

  if (SMOKE) {
    for (const [name, seconds] of Object.entries(sectionSeconds)) console.log(`smoke ${name}: ${seconds} s`);
    console.log(failed ? 'bench smoke: a section failed (see the -error lines above)' : 'bench smoke: every section ran');
  }

  const outDir = join(ROOT, 'tests/bench/results');
  await mkdir(outDir, { recursive: true });
  let chromiumVersion = 'unknown';
  try {
    chromiumVersion = execFileSync(CHROME_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // reported as unknown
  }
  await writeFile(
    join(outDir, `latest${SMOKE ? '-smoke' : ''}${ONLY ? `-${ONLY}` : ''}.json`),
    JSON.stringify({ date: new Date().toISOString(), node: process.version, chromium: chromiumVersion, figures }, null, 2) + '\n',
  );
  process.exitCode = failed ? 1 : 0;
}

await main();
// The figures are written: end here, even if a section left a handle open (the SAT sync's does).
process.exit();
