// Starts the real server (built PWA + API, fresh embedded database) and a headless Chromium for a test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveChallenge } from 'altcha-lib/v1';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The browser's path: global-setup.ts resolves it (tests/tools/system-tools.ts) into CHROMIUM_PATH for every test file. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH;
  if (!path) throw new Error('CHROMIUM_PATH sin definir: las pruebas end-to-end se corren con su global-setup (npm run test:e2e).');
  return path;
}

// The flags the workplace's probe uses: without the background-networking ones Chromium keeps
// trying to reach Google's hosts, which this machine refuses.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Running {
  url: string;
  dataDir: string;
  server: ChildProcess;
  browser: Browser;
  log: () => string;
  /** Calls the API from Node (offline emulation in the browser does not affect it). */
  api: (path: string, init?: RequestInit & { token?: string }) => Promise<{ status: number; body: unknown }>;
  newContext: (viewport?: { width: number; height: number }) => Promise<{ context: BrowserContext; page: Page }>;
  /** Creates a user with one tax account through the API (solving the real captcha) and signs in. */
  signUp: (username: string, rfc: string, names: { name?: string; first_name?: string; last_name?: string }) => Promise<{ username: string; password: string; token: string }>;
  /** Signs in through the login screen and waits until the app has left it. */
  signIn: (page: Page, user: string, password: string) => Promise<void>;
  /** Buys `planId` for the user's only tax account through the API with the sandbox's 4242 card; answers its id. */
  buyPlan: (token: string, planId: number) => Promise<number>;
  stop: () => Promise<void>;
}

export async function startApp(extraEnv: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-'));
  let output = '';
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`El servidor terminó al arrancar:\n${output}`);
    try {
      const res = await fetch(`${url}/api/v3/plans.json`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`El servidor no respondió a tiempo:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  const api: Running['api'] = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('X-Access-Token', init.token);
    if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const res = await fetch(url + path, { ...init, headers });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  };
  return {
    url, dataDir, server, browser, api,
    log: () => output,
    signUp: async (username, rfc, names) => {
      const password = 'Clave-de-prueba-2026';
      const ch = (await api('/api/v2/captcha')).body as { response: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber: number } };
      const { algorithm, challenge, salt, signature, maxnumber } = ch.response;
      const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise;
      if (!solution) throw new Error('captcha sin solución');
      const captcha = Buffer.from(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature })).toString('base64');
      const created = await api('/api/v2/create_user', {
        method: 'POST',
        body: JSON.stringify({ user: { username, email: `${username}@ejemplo.mx`, password }, captcha }),
      });
      if (created.status !== 200) throw new Error(`create_user ${created.status}: ${JSON.stringify(created.body)}`);
      const login = await api('/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: username, password } }) });
      const token = (login.body as { response: { token: string } }).response.token;
      const client = await api('/new_client', { method: 'POST', token, body: JSON.stringify({ client: { rfc, ...names }, ubication_data: {} }) });
      if (client.status !== 200) throw new Error(`new_client ${client.status}: ${JSON.stringify(client.body)}`);
      return { username, password, token };
    },
    signIn: async (page, user, password) => {
      await page.goto(`${url}/#/login`);
      await page.getByLabel('Usuario o correo').fill(user);
      await page.getByLabel('Contraseña', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 30_000 });
    },
    buyPlan: async (token, planId) => {
      const accounts = await api('/user_clients', { token });
      const clientId = (accounts.body as { response: { diverza_client_id: number }[] }).response[0]!.diverza_client_id;
      const card = await api('/api/v3/payments/sandbox/tokens', {
        method: 'POST',
        body: JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' } }),
      });
      const cardToken = (card.body as { response: { id: string } }).response.id;
      const sub = await api('/api/v3/subscriptions.json', { method: 'POST', token, body: JSON.stringify({ subscription: { plan_id: planId, client_id: clientId, token: cardToken } }) });
      if (sub.status !== 200) throw new Error(`buyPlan ${planId}: ${sub.status} ${JSON.stringify(sub.body)}`);
      return clientId;
    },
    newContext: async (viewport = { width: 360, height: 780 }) => {
      const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
      const page = await context.newPage();
      return { context, page };
    },
    stop: async () => {
      await browser.close().catch(() => undefined);
      server.kill('SIGTERM');
      await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until a service worker controls the page (first load installs it; a reload makes it control). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}

/** Everything the origin keeps on the device: IndexedDB databases, Cache Storage and localStorage keys. */
export async function storageSnapshot(page: Page): Promise<{ databases: string[]; caches: string[]; local: number }> {
  return page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map((d) => d.name ?? ''),
    caches: await caches.keys(),
    local: localStorage.length,
  }));
}
