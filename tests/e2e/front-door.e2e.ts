// A newcomer's first minutes, in real Chromium against the real server: the signed-out start says what
// Cuentas Claras is before Móvil Norte's form, and fits a 360 px phone (the payment reference's
// placeholder included); the sign-up wizard shows the user name as it will be saved while it is typed,
// says on step 1 when it is taken, hints a mismatched e-mail on leaving the field, and sums up código
// postal and régimen. Screenshots of each screen at 360×780 and 1280×800 go to tests/e2e/screenshots/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MSG } from '../../src/domain/messages';
import { startApp, type Running } from './harness';

const SCREENS = 'tests/e2e/screenshots';
const SIZES = [
  { width: 360, height: 780 },
  { width: 1280, height: 800 },
] as const;

let app: Running;
beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

async function seen(page: Page, text: string | RegExp): Promise<boolean> {
  return (await page.getByText(text).locator('visible=true').count()) > 0;
}

/** How far the page scrolls sideways (0 when it fits). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Whether an input's placeholder fits its text box, measured with the placeholder's own font. */
function placeholderFits(page: Page, label: string): Promise<{ text: number; box: number }> {
  return page.getByLabel(label, { exact: true }).evaluate((el) => {
    const input = el as HTMLInputElement;
    const style = getComputedStyle(input);
    const ph = getComputedStyle(input, '::placeholder');
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${ph.fontStyle} ${ph.fontWeight} ${ph.fontSize} ${ph.fontFamily}`;
    const spacing = parseFloat(ph.letterSpacing) || 0;
    const text = ctx.measureText(input.placeholder).width + spacing * input.placeholder.length;
    const box = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text, box };
  });
}

describe('front door', () => {
  for (const size of SIZES) {
    it(`signed out at ${size.width}×${size.height}: says what Cuentas Claras is, then Móvil Norte's form`, async () => {
      const { context, page } = await app.newContext(size);
      await page.goto(`${app.url}/#/`);
      await page.waitForURL(/ticket\/form-anonymous\/movil-norte/);
      const intro = page.getByRole('heading', { level: 1 });
      await intro.waitFor();
      expect(await intro.textContent()).toBe('Tus facturas y gastos, claros y en un solo lugar');
      expect(await seen(page, /Cuentas Claras pide tus facturas/)).toBe(true);
      expect(await page.locator('.front-door__benefits li').count()).toBe(3);
      expect(await page.getByRole('link', { name: 'Crear cuenta gratis' }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Iniciar sesión' }).isVisible()).toBe(true);
      // The form is a chunk of its own, arriving after the intro.
      const formTitle = page.getByRole('heading', { level: 2, name: 'Factura tu recarga de Móvil Norte sin crear cuenta' });
      await formTitle.waitFor();
      expect(await formTitle.isVisible()).toBe(true);
      await page.getByLabel('Referencia de pago', { exact: true }).waitFor();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      const fit = await placeholderFits(page, 'Referencia de pago');
      expect(fit.text, JSON.stringify(fit)).toBeLessThanOrEqual(fit.box);
      await page.screenshot({ path: `${SCREENS}/front-door-${size.width}.png`, fullPage: true });
      await page.screenshot({ path: `${SCREENS}/front-door-${size.width}-top.png` });

      await page.getByRole('link', { name: 'Crear cuenta gratis' }).click();
      await page.waitForURL(/#\/register/);
      await page.getByLabel('Nombre de usuario').waitFor();
      await context.close();
    });
  }
});

describe('signed-out screens on a slow or failing connection', () => {
  it('says so in Spanish, under the intro, when the form cannot arrive; \'Reintentar\' brings it', async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    // The form's chunk does not arrive (a dropped connection) until the connection comes back.
    let connected = false;
    await page.route(/\/assets\/anonymous-form-[^/]+\.js$/, (route) => (connected ? route.continue() : route.abort('internetdisconnected')));
    await page.goto(`${app.url}/#/`);
    const alert = page.getByRole('alert').filter({ hasText: 'No pudimos abrir esta pantalla.' });
    await alert.waitFor();
    // The device says it is online: the files may be gone after an update, so offline is not claimed.
    expect(await alert.textContent()).toContain('Revisa tu conexión e intenta de nuevo. Si acabamos de actualizar la app, Reintentar abre la versión nueva.');
    expect(await alert.textContent()).not.toContain('Sin conexión');
    // Only the form's place says so: the intro, which came with the app, stays.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tus facturas y gastos, claros y en un solo lugar');
    await page.screenshot({ path: `${SCREENS}/front-door-form-not-loaded-360.png`, fullPage: true });
    // Offline, it says so.
    await context.setOffline(true);
    await expect.poll(() => alert.textContent()).toContain('Sin conexión — revisa tu internet e intenta de nuevo.');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SCREENS}/front-door-form-not-loaded-offline-1280.png`, fullPage: true });

    await context.setOffline(false);
    connected = true;
    await alert.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByLabel('Referencia de pago', { exact: true }).waitFor();
    expect(await page.getByText('No pudimos abrir esta pantalla.').count()).toBe(0);
    await context.close();
  });

  it("announces a signed-out screen's imports with the screen, not one level at a time", async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await page.goto(`${app.url}/#/register`);
    await page.getByLabel('Nombre de usuario').waitFor();
    const preloaded = await page.evaluate(() => [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => (l as HTMLLinkElement).href));
    expect(preloaded.some((h) => /register-page-/.test(h)), preloaded.join('\n')).toBe(true);
    expect(preloaded.filter((h) => /password-strength-|username-hint-/.test(h))).toHaveLength(2);
    await context.close();
  });
});

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** One not yet invoiced demo ticket of Móvil Norte (the dev page's list): field name → value, and its ref. */
async function demoTicket(): Promise<{ values: [string, string][]; ref: string }> {
  const html = await (await fetch(`${app.url}/dev/merchant-tickets/movil-norte`)).text();
  const row = html.split('<tr>').find((r) => r.includes('sin facturar'));
  if (!row) throw new Error('sin tickets de demostración de Móvil Norte');
  const values = [...row.matchAll(/<li>([^<]+): <code>([^<]*)<\/code><\/li>/g)].map((m) => [unescape(m[1] as string), unescape(m[2] as string)] as [string, string]);
  return { values, ref: /ref <code>([^<]+)<\/code>/.exec(row)?.[1] ?? '' };
}

describe('a successful anonymous invoice request', () => {
  it("links to its ticket and, once stamped, to its PDF", async () => {
    const ticket = await demoTicket();
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await page.goto(`${app.url}/#/`);
    await page.getByLabel('Referencia de pago', { exact: true }).waitFor();
    for (const [name, value] of ticket.values) if (value !== '(cualquier valor válido)') await page.getByLabel(name, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Facturar' }).click();
    await page.getByLabel('RFC', { exact: true }).waitFor();
    await page.getByLabel('RFC', { exact: true }).fill('XIQB891116QE4');
    await page.getByLabel('Confirma tu RFC').fill('XIQB891116QE4');
    await page.getByLabel('Nombre o razón social').fill('Berenice Ximo Quezada');
    await page.getByLabel('Código postal').fill('64000');
    await page.getByLabel('Régimen fiscal').selectOption('612');
    await page.getByLabel('Uso del CFDI').selectOption('G03');
    await page.getByLabel('Correo electrónico').fill('berenice@ejemplo.mx');
    await page.getByRole('button', { name: 'Facturar' }).click();

    const done = page.locator('.invoice-done');
    await done.waitFor({ timeout: 90_000 });
    const ticketLink = done.getByRole('link', { name: 'Ver ticket' });
    expect(await ticketLink.getAttribute('href')).toBe(`/#/tickets?ref=${encodeURIComponent(ticket.ref)}`);
    const stamped = (await done.textContent())?.includes(MSG.invoiceSent);
    const pdf = done.getByRole('link', { name: 'Descargar PDF' });
    expect(await pdf.count()).toBe(stamped ? 1 : 0);
    if (stamped) {
      const href = (await pdf.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/api\/v33\/invoice_requests\/[^/]+\/pdf$/);
      const res = await fetch(`${app.url}${href}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/pdf');
    }
    await page.screenshot({ path: `${SCREENS}/front-door-invoiced-360.png`, fullPage: true });
    await ticketLink.click();
    await page.waitForURL(/#\/tickets\?ref=/);
    await expect.poll(() => seen(page, ticket.values.find(([n]) => /referencia/i.test(n))?.[1].replace(/\s+/g, '').slice(-4) ?? 'Total')).toBe(true);
    await context.close();
  });
});

describe('sign-up wizard tells the truth as you type', () => {
  it('previews the user name, says a taken one on step 1, hints a mismatched e-mail, and sums up CP and régimen', async () => {
    await app.signUp('lupita.gomez', 'GOML800101AB1', { first_name: 'Lupita', last_name: 'Gómez' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await page.goto(`${app.url}/#/register`);

    // The name as it will be saved, accents transliterated; this one is taken, and step 1 says so.
    await page.getByLabel('Nombre de usuario').fill('Lupita Gómez');
    await expect.poll(() => seen(page, 'Tu usuario será:')).toBe(true);
    expect(await page.locator('.username-hint__name').textContent()).toBe('lupita.gomez');
    await expect.poll(() => seen(page, MSG.usernameTaken), { timeout: 15_000 }).toBe(true);
    expect(await page.getByLabel('Nombre de usuario').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Contraseña', { exact: true }).fill('Cuentas-Claras-2026');
    await page.getByLabel('Confirma tu contraseña').fill('Cuentas-Claras-2026');
    await page.screenshot({ path: `${SCREENS}/register-taken-360.png`, fullPage: true });
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /Crea tu cuenta/ }).isVisible()).toBe(true);
    expect(await seen(page, MSG.usernameTaken)).toBe(true);

    // Another name: free, and step 2 opens.
    await page.getByLabel('Nombre de usuario').fill('Lupita Gómez Peña');
    expect(await page.locator('.username-hint__name').textContent()).toBe('lupita.gomez.pena');
    await expect.poll(() => seen(page, /^Está libre$/), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: `${SCREENS}/register-account-360.png`, fullPage: true });
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // The e-mail confirmation hints on leaving it, like the passwords'.
    await page.getByLabel('Correo electrónico').fill('lupita@ejemplo.mx');
    await page.getByLabel('Confirma tu correo').fill('lupita@ejemplo.com');
    await page.getByLabel('Correo electrónico').focus();
    await expect.poll(() => seen(page, MSG.emailsDifferBlur)).toBe(true);
    await page.screenshot({ path: `${SCREENS}/register-email-360.png`, fullPage: true });
    await page.getByLabel('Confirma tu correo').fill('lupita@ejemplo.mx');
    expect(await seen(page, MSG.emailsDifferBlur)).toBe(false);
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // PERSONA: only personas físicas' regimes.
    await page.getByRole('tab', { name: 'PERSONA' }).click();
    const regimes = await page.getByLabel('Régimen fiscal').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(regimes).toContain('612');
    expect(regimes).not.toContain('601');
    await page.getByRole('textbox', { name: 'RFC', exact: true }).fill('GOPL800101AB1');
    await page.getByLabel('Nombre', { exact: true }).fill('Lupita');
    await page.getByLabel('Apellidos').fill('Gómez Peña');
    await page.getByLabel('Código postal').fill('64000');
    await page.getByLabel('Régimen fiscal').selectOption('612');
    await page.screenshot({ path: `${SCREENS}/register-tax-360.png`, fullPage: true });
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // The confirmation shows what will be saved, código postal and régimen included.
    await page.getByRole('heading', { name: /Confirma tus datos/ }).waitFor();
    const summary = await page.locator('dl.summary').textContent();
    expect(summary).toContain('lupita.gomez.pena');
    expect(summary).toContain('Código postal64000');
    expect(summary).toContain('612 · ');
    await page.screenshot({ path: `${SCREENS}/register-confirm-360.png`, fullPage: true });
    await context.close();

    const wide = await app.newContext({ width: 1280, height: 800 });
    await wide.page.goto(`${app.url}/#/register`);
    await wide.page.getByLabel('Nombre de usuario').fill('Ñandú Árbol');
    await expect.poll(() => seen(wide.page, /^Está libre$/), { timeout: 15_000 }).toBe(true);
    expect(await wide.page.locator('.username-hint__name').textContent()).toBe('nandu.arbol');
    await wide.page.screenshot({ path: `${SCREENS}/register-account-1280.png`, fullPage: true });
    await wide.context.close();
  });
});

describe('editing billing data', () => {
  it('refuses an empty or malformed código postal, speaking of updating, then saves a good one', async () => {
    const user = await app.signUp('edita_cp', 'XIQB891116QE4', { first_name: 'Edith', last_name: 'Campos' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, user.username, user.password);
    // The account is on the device before its editor opens (with none, the editor sends to 'Añadir RFC').
    await expect.poll(() => seen(page, 'XIQB891116QE4'), { timeout: 20_000 }).toBe(true);
    await page.goto(`${app.url}/#/edit-invoicement`);
    const cp = page.getByLabel('Código postal');
    await cp.waitFor();
    expect(await cp.inputValue()).toBe('');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => seen(page, MSG.postalCodeInvalid)).toBe(true);
    expect(await cp.getAttribute('aria-invalid')).toBe('true');
    await cp.fill('640');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => seen(page, MSG.postalCodeInvalid)).toBe(true);
    await page.screenshot({ path: `${SCREENS}/edit-billing-cp-360.png`, fullPage: true });
    await page.getByLabel('Apellido(s)').fill(' ');
    await cp.fill('64000');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => seen(page, MSG.missingInfoUpdate)).toBe(true);
    await page.getByLabel('Apellido(s)').fill('Campos');
    await page.getByLabel('Régimen fiscal').selectOption('612');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => seen(page, MSG.infoUpdated), { timeout: 20_000 }).toBe(true);
    const accounts = (await app.api('/user_clients', { token: user.token })).body as { response: { address: { zip_code: string }[] }[] };
    expect(accounts.response[0]?.address[0]?.zip_code).toBe('64000');
    await context.close();
  });
});
