// OAuth for third-party apps, in real Chromium against the real server: an app registered with the CLI
// (register-app.ts, pointing at a LOCAL callback server started here) gets an oauth_token; the browser opens
// #/oauth?oauth_token=…, signs in, picks an RFC and authorises; the callback server receives the params; the
// app exchanges them, reads the profile and tax data, and is refused tickets and receipts (403). Then the
// used token shows the §8 message and the profile's 'Aplicaciones conectadas' revokes the grant.
// Screenshots at 360×780 and 1280×800 go to SHOTS_DIR when it is set.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { encodeGreyPng } from '../../src/server/demo/png';
import { TXT } from '../../src/app/strings';
import { startApp, waitForServiceWorker, type Running } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? '';
const PERSON_RFC = 'XIQB891116QE4';
const COMPANY = { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' };

let app: Running;
let callback: { server: Server; url: string; hits: URLSearchParams[] };
let dataDir: string;
let creds: { clientId: string; secret: string };

/** The app's own web server: records what the browser brings back to its callback. */
async function startCallbackServer(): Promise<typeof callback> {
  const hits: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname === '/cc/callback') hits.push(u.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Contabilízate</title><h1>Conectado con Cuentas Claras</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { server, url: `http://127.0.0.1:${port}/cc/callback`, hits };
}

/** A 64×64 grey icon with a dark disc (PNG), so the screen shows a real app icon. */
function iconFile(dir: string): string {
  const px = new Uint8Array(64 * 64);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) px[y * 64 + x] = (x - 32) ** 2 + (y - 32) ** 2 < 22 ** 2 ? 40 : 225;
  const path = join(dir, 'icono.png');
  writeFileSync(path, encodeGreyPng(64, 64, px));
  return path;
}

beforeAll(async () => {
  callback = await startCallbackServer();
  // The operator registers the app with the CLI before the server starts (PGlite: one process at a time).
  dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-oauth-'));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'src/server/oauth/register-app.ts', '--name', 'Contabilízate', '--callback', callback.url,
      '--description', 'Tu contabilidad en automático, con tus datos fiscales de Cuentas Claras.', '--icon', iconFile(dataDir),
      '--website', 'https://conta.example.mx'],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
  );
  const clientId = /client_id=(\S+)/.exec(stdout)?.[1];
  const secret = /client_secret=(\S+)/.exec(stdout)?.[1];
  if (!clientId || !secret) throw new Error(`register-app no imprimió las credenciales:\n${stdout}`);
  creds = { clientId, secret };
  app = await startApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app?.stop();
  await new Promise((r) => callback?.server.close(r));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => app.api(path, { method: 'POST', body: JSON.stringify(body) });
const res = <T>(r: { body: unknown }) => (r.body as { response: T }).response;

async function requestToken(): Promise<string> {
  const r = await post('/oauth/request_token.json', { client_id: creds.clientId, client_secret: creds.secret, callback_url: callback.url });
  expect(r.status).toBe(200);
  return res<{ oauth_token: string }>(r).oauth_token;
}

describe('OAuth for third-party apps', () => {
  it('an app gets the user’s authorisation through the browser, reads the tax data and not the invoices', async () => {
    const user = await app.signUp('oauth_emma', PERSON_RFC, { first_name: 'Emma', last_name: 'Gómez' });
    const second = await app.api('/new_client', { method: 'POST', token: user.token, body: JSON.stringify({ client: COMPANY, ubication_data: {} }) });
    expect(second.status).toBe(200);
    const wrongCallback = await post('/oauth/request_token.json', { client_id: creds.clientId, client_secret: creds.secret, callback_url: `${callback.url}?x=1` });
    expect(wrongCallback.status).toBe(400);

    const token = await requestToken();
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    // Opened on a bad connection: the installed shell says so, with 'Reintentar'; online again, it loads.
    await page.goto(`${app.url}/#/login`);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.goto(`${app.url}/#/oauth?oauth_token=${token}`);
    const offlineAlert = page.getByRole('alert').filter({ hasText: TXT.offline });
    await expect.poll(() => offlineAlert.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByRole('button', { name: TXT.retry }).isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/oauth-offline-360.png`, fullPage: true });
    await context.setOffline(false);
    await expect.poll(() => page.getByRole('heading', { name: 'Contabilízate' }).isVisible()).toBe(true);
    for (const text of [MSG.oauthMayReadProfile, MSG.oauthMayReadTax, MSG.oauthMayNotInvoices, MSG.oauthMayNotPasswords]) {
      await expect.poll(() => page.getByText(text).isVisible(), { message: text }).toBe(true);
    }
    await expect.poll(() => page.locator('img.oauth-icon').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(page.url()).toContain('#/oauth?oauth_token='); // signed out, and still here: rule 2
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/oauth-signed-out-360.png`, fullPage: true });

    await page.getByLabel('Usuario o correo').fill(user.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    const rfc = page.getByLabel(MSG.oauthChooseRfc);
    await expect.poll(() => rfc.locator('option').count()).toBe(2);
    await rfc.selectOption(COMPANY.rfc);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/oauth-choose-rfc-360.png`, fullPage: true });
    await page.getByRole('button', { name: MSG.oauthAuthorize }).click();

    // The browser lands on the app's callback with the response params.
    await page.waitForURL((u) => u.href.startsWith(callback.url), { timeout: 30_000 });
    await expect.poll(() => callback.hits.length).toBe(1);
    const params = callback.hits[0]!;
    expect(params.get('oauth_token')).toBe(token);
    expect(params.get('oauth_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The app, server to server: the access token, then the profile and tax data of that RFC only.
    const exchange = () =>
      post('/oauth/access_token.json', { client_id: creds.clientId, client_secret: creds.secret, oauth_token: token, oauth_verifier: params.get('oauth_verifier') });
    const x = await exchange();
    expect(x.status).toBe(200);
    expect((await exchange()).status).toBe(400); // a replayed verifier
    const access = res<{ access_token: string }>(x).access_token;
    const bearer = { authorization: `Bearer ${access}` };
    const profile = await app.api('/api/v3/oauth/profile.json', { headers: bearer });
    expect(profile.status).toBe(200);
    const p = res<{ user: { username: string }; account: { rfc: string; name: string } }>(profile);
    expect(p.user.username).toBe(user.username);
    expect(p.account).toMatchObject({ rfc: COMPANY.rfc, name: COMPANY.name });
    expect(JSON.stringify(p)).not.toContain(PERSON_RFC);

    // …and never the invoices, receipts or tickets, nor anything a session can do.
    for (const path of [
      `/api/v2/tickets?usuario[rfc_owner]=${COMPANY.rfc}&date[year]=2026&date[month]=11`,
      '/receipt_pdf?receipt_id=1',
      '/receipt_xml?receipt_id=1',
      '/user_clients',
    ]) {
      const r = await app.api(path, { headers: bearer });
      expect(r.status, path).toBe(403);
      expect((await app.api(path, { token: access })).status, `${path} (X-Access-Token)`).toBe(403);
    }

    // The used token: the §8 message.
    await page.goto(`${app.url}/#/oauth?oauth_token=${token}`);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.invalidPageToken }).isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/oauth-invalid-360.png`, fullPage: true });
    await context.close();

    // Desktop, signed in already: straight to choosing the RFC; 'Cancelar' leaves without authorising.
    const desk = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(desk.page, user.username, user.password);
    const another = await requestToken();
    await desk.page.goto(`${app.url}/#/oauth?oauth_token=${another}`);
    await expect.poll(() => desk.page.getByLabel(MSG.oauthChooseRfc).isVisible()).toBe(true);
    await expect.poll(() => desk.page.getByText(user.username, { exact: true }).isVisible()).toBe(true);
    if (SHOTS) await desk.page.screenshot({ path: `${SHOTS}/oauth-signed-in-1280.png`, fullPage: true });
    await desk.page.getByRole('button', { name: MSG.oauthCancel }).click();
    await desk.page.waitForURL((u) => !u.hash.startsWith('#/oauth'));
    expect(callback.hits).toHaveLength(1);

    // The profile lists the connected app; 'Revocar' (confirmed) ends the app's access.
    await desk.page.goto(`${app.url}/#/subscription`);
    const section = desk.page.getByRole('region', { name: MSG.oauthConnectedTitle });
    await expect.poll(() => section.getByText('Contabilízate').isVisible()).toBe(true);
    await expect.poll(() => section.getByText(new RegExp(COMPANY.rfc)).isVisible()).toBe(true);
    if (SHOTS) {
      await desk.page.screenshot({ path: `${SHOTS}/connected-apps-1280.png`, fullPage: true });
      await desk.page.setViewportSize({ width: 360, height: 780 });
      await section.scrollIntoViewIfNeeded();
      await desk.page.screenshot({ path: `${SHOTS}/connected-apps-360.png` });
      await desk.page.setViewportSize({ width: 1280, height: 800 });
    }
    await section.getByRole('button', { name: /^Revocar/ }).click();
    const dialog = desk.page.getByRole('dialog', { name: MSG.oauthRevokeTitle });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    if (SHOTS) {
      await expect.poll(() => desk.page.evaluate(() => document.getAnimations().length)).toBe(0); // the 200 ms fade is over
      await desk.page.screenshot({ path: `${SHOTS}/revoke-confirm-1280.png` });
    }
    await dialog.getByRole('button', { name: MSG.oauthRevoke }).click();
    await expect.poll(() => section.getByText(MSG.oauthConnectedEmpty).isVisible()).toBe(true);
    expect((await app.api('/api/v3/oauth/profile.json', { headers: bearer })).status).toBe(401);
    await desk.context.close();
  });
});
