// Deploying a new version while a v1 page is open with operations pending. The new worker
// waits (no unconditional skipWaiting), the page offers "Nueva versión disponible", v1 keeps
// loading its lazy screens from its own precache (no chunk 404s), and the queue drains under v2.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { startApp, waitForServiceWorker, type Running } from './harness';

const RFC = 'UPDA850101AB1';
let app: Running;
let served: string;
let v2: string;

/** Replaces what the server serves, as a deploy would: v1's hashed chunks disappear. */
function deploy(from: string) {
  for (const entry of readdirSync(served)) rmSync(join(served, entry), { recursive: true, force: true });
  cpSync(from, served, { recursive: true });
}

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-update-'));
  served = join(root, 'served');
  v2 = join(root, 'v2');
  cpSync('dist', served, { recursive: true });
  // A real second build: a different label changes the entry chunk, and so every chunk that imports it.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', v2, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, NODE_ENV: 'production', CC_BUILD_LABEL: 'v2' },
    stdio: 'inherit',
    timeout: 300_000,
  });
  app = await startApp({ STATIC_DIR: served });
}, 400_000);
afterAll(async () => {
  await app?.stop();
});

describe('service worker update with a pending queue', () => {
  it('prompts, keeps v1 working without chunk 404s, and drains the queue under v2', async () => {
    const user = await app.signUp('actualiza_v2', RFC, { first_name: 'Uriel', last_name: 'Paz Dávila' });
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404 && r.url().includes('/assets/')) missing.push(r.url());
    });
    await page.goto(`${app.url}/#/login`);
    await page.getByLabel('Usuario o correo').fill(user.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Cuenta: Uriel/ }).isVisible(), { timeout: 20_000 }).toBe(true);
    await waitForServiceWorker(page);
    const v1Script = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"]')?.src ?? '');
    expect(await page.evaluate(() => document.documentElement.dataset.build ?? '')).toBe('');

    // Two spendings that cannot reach the server yet (its ticket endpoints are unreachable).
    await context.route('**/form/ticket_create**', (route) => route.abort('internetdisconnected'));
    for (const amount of ['15.00', '25.00']) {
      await page.getByRole('button', { name: 'Agregar gasto' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Monto', { exact: true }).fill(amount);
      await dialog.getByLabel('Categoría').selectOption({ label: 'Transporte' });
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    await expect.poll(() => page.getByText('Pendiente de envío', { exact: true }).count(), { timeout: 10_000 }).toBe(2);

    // Deploy v2 and let the page find it.
    deploy(v2);
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update();
    });
    await expect.poll(() => page.getByText('Nueva versión disponible').first().isVisible(), { timeout: 60_000 }).toBe(true);
    // The new worker waits: the page is still controlled by v1 and still runs v1's code.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r?.waiting))).toBe(true);

    // v1 opens a lazy screen it had not loaded yet: served from its own precache, not 404.
    await page.goto(`${app.url}/#/add-client`);
    await expect.poll(() => page.getByRole('button', { name: 'Guardar' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(missing).toEqual([]);

    // Now the connection hangs instead of failing, and the worker is sending: the browser would not let the
    // new worker take over while that send is in flight (up to its 30 s deadline) if v1 did not stop it.
    await context.unroute('**/form/ticket_create**');
    const hanging: Route[] = [];
    await context.route('**/form/ticket_create**', (route) => {
      if (route.request().serviceWorker()) hanging.push(route);
      else void route.abort('internetdisconnected');
    });
    await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'drain', trigger: 'asked' }));
    await expect.poll(() => hanging.length, { timeout: 20_000 }).toBeGreaterThan(0);

    // Accept the update: the page reloads under v2, the queue survives and drains there.
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.build ?? ''), { timeout: 15_000 })
      .toBe('v2')
      .catch(async (err: unknown) => {
        // Say where the update stopped (the worker states), so a failure in CI can be read.
        const state = await page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          return { active: reg?.active?.state, waiting: reg?.waiting?.state, installing: reg?.installing?.state, controller: !!navigator.serviceWorker.controller };
        });
        throw new Error(`${String(err)} — service worker: ${JSON.stringify(state)}`);
      });
    const v2Script = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"]')?.src ?? '');
    expect(v2Script).not.toBe(v1Script);
    // The connection is back: what still hangs fails (v1 stopped those sends already), the rest goes through.
    for (const route of hanging) await route.abort('internetdisconnected').catch(() => undefined);
    await context.unroute('**/form/ticket_create**');
    await page.goto(`${app.url}/#/`);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));

    const { year, month } = mexicoCityDate();
    await expect
      .poll(
        async () => {
          const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`, { token: user.token });
          return ((res.body as { response?: { tickets: { amount: string }[] } }).response?.tickets ?? []).map((t) => t.amount).sort();
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toEqual(['15.00', '25.00']);
    await expect.poll(() => page.getByText('Pendiente de envío', { exact: true }).count(), { timeout: 30_000 }).toBe(0);
    expect(missing).toEqual([]);
    await context.close();
  });
});
