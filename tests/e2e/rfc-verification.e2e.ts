// RFC verification in real Chromium at 360 px: an unproved account shows 'Verificar RFC' in the account
// menu and Perfil; the verify screen refuses a wrong e.firma password with the server's message, then the
// right .cer, .key and password prove it: 'RFC verificado' in the menu and Perfil. The CIEC form proves a
// company RFC the (simulated) SAT portal knows. Screenshots go to SHOTS_DIR when it is set.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { startApp, type Running } from './harness';
import { E2E_CIEC, openSatPortalAccount } from './rfc-verify';

const SHOTS = process.env.SHOTS_DIR ?? '';
const fixture = (name: string) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(`tests/fixtures/efirma/${name}`) });
let app: Running;

beforeAll(async () => {
  app = await startApp(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {});
});
afterAll(async () => {
  await app?.stop();
});

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

describe('RFC verification', () => {
  it('a persona física proves the RFC with the e.firma on a 360 px phone', async () => {
    const u = await app.signUp('rfc_persona', 'XIQB891116QE4', { first_name: 'Berenice', last_name: 'Ximo Quezada' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, u.username, u.password);

    // The account menu says how to verify.
    await page.getByRole('button', { name: /^Cuenta:/ }).click();
    const verifyLink = page.getByRole('link', { name: 'Verificar RFC' });
    await expect.poll(() => verifyLink.isVisible(), { timeout: 20_000 }).toBe(true);
    await verifyLink.click();
    await expect.poll(() => page.getByRole('heading', { name: 'Verificar RFC', level: 1 }).isVisible()).toBe(true);

    // Nothing chosen: the field's message, focus on it.
    await page.getByRole('button', { name: 'Verificar con e.firma' }).click();
    await expect.poll(() => page.getByText(MSG.efirmaMissing).first().isVisible()).toBe(true);

    // A wrong password: the server's reason, announced.
    await page.getByLabel('Certificado (.cer)').setInputFiles(fixture('XIQB891116QE4.fiel.cer'));
    await page.getByLabel('Llave privada (.key)').setInputFiles(fixture('XIQB891116QE4.fiel.key'));
    await page.getByLabel('Contraseña de tu e.firma').fill('otra-clave');
    await page.getByRole('button', { name: 'Verificar con e.firma' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.efirmaInvalid }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'verify-rfc-error-360');

    // The right password, sent from the keyboard.
    await page.getByLabel('Contraseña de tu e.firma').fill('12345678a');
    await page.getByLabel('Contraseña de tu e.firma').press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'RFC verificado' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText('Lo comprobaste con tu e.firma.').isVisible()).toBe(true);
    await shot(page, 'verify-rfc-done-360');

    // The menu and Perfil carry it.
    await page.getByRole('button', { name: /^Cuenta:/ }).click();
    await expect.poll(() => page.locator('.account-menu__panel').getByText('RFC verificado').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.goto(`${app.url}/#/subscription`);
    await expect.poll(() => page.locator('.profile__facts').getByText('RFC verificado').isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });

  it('a company proves its RFC with the CIEC (simulated SAT portal) on a desktop', async () => {
    const u = await app.signUp('rfc_empresa', 'ABC010101AB1', { name: 'Abarrotes Del Centro SA' });
    await openSatPortalAccount(app, 'ABC010101AB1');
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, u.username, u.password);
    await page.goto(`${app.url}/#/subscription`);
    const profileLink = page.locator('.profile__facts').getByRole('link', { name: 'Verificar RFC' });
    await expect.poll(() => profileLink.isVisible(), { timeout: 20_000 }).toBe(true);
    await profileLink.click();
    await expect.poll(() => page.getByRole('heading', { name: 'Con tu contraseña del SAT (CIEC)' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'O conéctate en Sincronización SAT' }).count()).toBe(0);
    await page.getByLabel('Contraseña del SAT', { exact: true }).fill('Equivocada1');
    await page.getByRole('button', { name: 'Verificar con CIEC' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.satPasswordInvalid }).isVisible()).toBe(true);
    await page.getByLabel('Contraseña del SAT', { exact: true }).fill(E2E_CIEC);
    await page.getByRole('button', { name: 'Verificar con CIEC' }).click();
    await expect.poll(() => page.getByText('Lo comprobaste con tu conexión al SAT.').isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(page, 'verify-rfc-done-1280');
    await context.close();
  });
});
