// Plans: in real Chromium against the real server with the sandbox payment provider, a person
// buys the professional plan: a declined card first (the §8 message, a failed history row), then 4242…
// (spinner, accounts reload, the profile with plan, card, next due date and the history). Screenshots at
// 360×780 and 1280×800 go to SHOTS_DIR when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';
import { MSG } from '../../src/domain/messages';

const SHOTS = process.env.SHOTS_DIR ?? '';
let app: Running;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

async function pay(page: Page, number: string) {
  const dialog = page.getByRole('dialog', { name: 'Pago con tarjeta' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await dialog.getByLabel('Número de tarjeta').fill(number);
  await dialog.getByLabel('Vencimiento (MM/AA)').fill('12/30');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: /^Pagar/ }).click();
}

describe('plans and checkout', () => {
  it('a declined card shows the §8 message; 4242 buys the professional plan and the profile shows it', async () => {
    const user = await app.signUp('plan_emma', 'XIQB891116QE4', { first_name: 'Emma', last_name: 'Gómez' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, user.username, user.password);

    // The profile before any payment: free plan, empty history text.
    await page.goto(`${app.url}/#/subscription`);
    await expect.poll(() => page.getByText('Información no disponible. Tu historial aparecerá aquí cuando se hayan realizado pagos.').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Gratuito', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Cambiar plan' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Planes', exact: true }).isVisible()).toBe(true);
    const professional = page.getByRole('article', { name: 'Profesional' });
    const free = page.getByRole('article', { name: 'Gratuito' });
    await expect.poll(() => free.getByRole('button', { name: 'Tu plan actual' }).isDisabled()).toBe(true);
    // The annual toggle swaps the price (75 a month, one yearly charge) and back.
    await professional.getByRole('button', { name: 'Anual' }).click();
    await expect.poll(() => professional.getByText('Un pago anual de $1,044.00 con IVA').isVisible()).toBe(true);
    await professional.getByRole('button', { name: 'Mensual' }).click();
    await expect.poll(() => professional.getByText('$103.24 al mes con IVA').isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/plans-360.png`, fullPage: true });

    await professional.getByRole('button', { name: 'Seleccionar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pago con tarjeta' });
    await expect.poll(() => dialog.getByLabel('Correo electrónico').inputValue()).toBe(`${user.username}@ejemplo.mx`);
    await expect.poll(() => dialog.getByText('$103.24').first().isVisible()).toBe(true);
    // Bad input stays on the phone, in Spanish.
    await dialog.getByRole('button', { name: /^Pagar/ }).click();
    await expect.poll(() => dialog.getByText('El número de tarjeta no es válido.').isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/checkout-360.png` });

    await dialog.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
    await dialog.getByLabel('Vencimiento (MM/AA)').fill('12/30');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: /^Pagar/ }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.chargeFailed }).first().isVisible()).toBe(true);
    expect(page.url()).toContain('#/plans');

    await professional.getByRole('button', { name: 'Seleccionar' }).click();
    await pay(page, '4242 4242 4242 4242');
    await page.waitForURL((u) => u.hash.startsWith('#/subscription'), { timeout: 30_000 });
    await expect.poll(() => page.getByText('Profesional mensual', { exact: true }).first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Visa 4242').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('$103.24 al mes con IVA').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/^\d{2}\/[a-z]+\/\d{4}$/).isVisible()).toBe(true);
    const rows = page.locator('.history-table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/Pagado[\s\S]*CH_SBX_[0-9A-F]+[\s\S]*\d{4}-\d{2}-\d{2}[\s\S]*\$103\.24[\s\S]*Profesional mensual[\s\S]*Visa 4242/);
    await expect.poll(() => rows.nth(1).innerText()).toMatch(/Rechazado[\s\S]*\$103\.24[\s\S]*Visa 0002/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/subscription-360.png`, fullPage: true });

    // The plans screen now marks the professional card (either period) as the current plan.
    await page.goto(`${app.url}/#/plans`);
    await expect.poll(() => professional.getByRole('button', { name: 'Tu plan actual' }).isDisabled()).toBe(true);
    await professional.getByRole('button', { name: 'Anual' }).click();
    await expect.poll(() => professional.getByRole('button', { name: 'Tu plan actual' }).isDisabled()).toBe(true);
    await context.close();

    const desk = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(desk.page, user.username, user.password);
    await desk.page.goto(`${app.url}/#/subscription`);
    await expect.poll(() => desk.page.locator('.history-table tbody tr').count()).toBe(2);
    if (SHOTS) await desk.page.screenshot({ path: `${SHOTS}/subscription-1280.png`, fullPage: true });
    await desk.page.goto(`${app.url}/#/plans`);
    await expect.poll(() => desk.page.getByRole('article', { name: 'Empresarial' }).isVisible()).toBe(true);
    if (SHOTS) await desk.page.screenshot({ path: `${SHOTS}/plans-1280.png`, fullPage: true });
    await desk.page.getByRole('link', { name: 'Ver planes para empresas' }).click();
    await expect.poll(() => desk.page.getByRole('article', { name: 'Empresarial con viáticos' }).isVisible()).toBe(true);
    if (SHOTS) await desk.page.screenshot({ path: `${SHOTS}/company-plans-1280.png`, fullPage: true });
    await desk.context.close();
  });
});
