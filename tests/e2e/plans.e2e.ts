// Plans: in real Chromium against the real server with the sandbox payment provider, a person
// buys the professional plan: a declined card first (the dialog stays open with the bank's reason and
// the §8 message, the number kept, the CVC cleared; a failed history row), then 4242… in the same dialog
// (accounts reload, the profile with plan, card, next due date and the history), then cancels the plan
// and undoes it. Companies on plans 6 and 7 get Empresa, Gastos and Viáticos. Screenshots at 360×780 and
// 1280×800 go to SHOTS_DIR when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';
import { companyViewTitle } from '../../src/domain/company-view';
import { mexicoCityDate } from '../../src/domain/mexico-time';
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
    // Refused: the dialog stays, says why, keeps the number and expiry, clears only the CVC and focuses it.
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Tarjeta rechazada por el banco.' });
    await expect.poll(() => refusal.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await refusal.innerText()).toContain(MSG.chargeFailed);
    expect(await dialog.getByLabel('Número de tarjeta').inputValue()).toBe('4000 0000 0000 0002');
    expect(await dialog.getByLabel('Vencimiento (MM/AA)').inputValue()).toBe('12/30');
    expect(await dialog.getByLabel('CVC').inputValue()).toBe('');
    await expect.poll(() => dialog.getByLabel('CVC').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toContain('#/plans');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/checkout-declined-360.png` });

    // Not enough money on another card: its own reason.
    await dialog.getByLabel('Número de tarjeta').fill('4000 0000 0000 9995');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: /^Pagar/ }).click();
    await expect.poll(() => dialog.getByRole('alert').filter({ hasText: 'Fondos insuficientes.' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await dialog.getByLabel('Número de tarjeta').inputValue()).toBe('4000 0000 0000 9995');

    // A good card in the same dialog pays.
    await pay(page, '4242 4242 4242 4242');
    await page.waitForURL((u) => u.hash.startsWith('#/subscription'), { timeout: 30_000 });
    await expect.poll(() => page.getByText('Profesional mensual', { exact: true }).first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Visa 4242').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('$103.24 al mes con IVA').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/^\d{2}\/[a-z]+\/\d{4}$/).isVisible()).toBe(true);
    const rows = page.locator('.history-table tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/Pagado[\s\S]*CH_SBX_[0-9A-F]+[\s\S]*\d{4}-\d{2}-\d{2}[\s\S]*\$103\.24[\s\S]*Profesional mensual[\s\S]*Visa 4242/);
    await expect.poll(async () => (await rows.allInnerTexts()).join('\n')).toMatch(/Rechazado[\s\S]*\$103\.24[\s\S]*Visa 0002/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/subscription-360.png`, fullPage: true });

    // Cancelling: a confirmation that says what happens, then 'Tu plan termina el …' and a way back.
    await page.getByRole('button', { name: 'Cancelar plan' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Cancelar tu plan?' });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    await expect.poll(() => confirm.getByText(/Conservarás Profesional mensual hasta el \d{2}\/[a-z]+\/\d{4}\./).isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-cancel-confirm-360.png` });
    await confirm.getByRole('button', { name: 'Sí, cancelar plan' }).click();
    const ends = page.getByText(/^Tu plan termina el \d{2}\/[a-z]+\/\d{4}\.$/);
    await expect.poll(() => ends.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await expect.poll(() => page.getByText('Vigente hasta', { exact: true }).isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-cancelled-360.png`, fullPage: true });
    // Still there after a reload (the server's state, not the screen's).
    await page.reload();
    await expect.poll(() => ends.isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: 'Seguir con mi plan' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Cancelar plan' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => ends.count()).toBe(0);
    await expect.poll(() => page.getByText('Próximo pago', { exact: true }).isVisible()).toBe(true);

    // The plans screen now marks the professional card (either period) as the current plan.
    await page.goto(`${app.url}/#/plans`);
    await expect.poll(() => professional.getByRole('button', { name: 'Tu plan actual' }).isDisabled()).toBe(true);
    await professional.getByRole('button', { name: 'Anual' }).click();
    await expect.poll(() => professional.getByRole('button', { name: 'Tu plan actual' }).isDisabled()).toBe(true);
    await context.close();

    const desk = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(desk.page, user.username, user.password);
    await desk.page.goto(`${app.url}/#/subscription`);
    await expect.poll(() => desk.page.locator('.history-table tbody tr').count()).toBe(3);
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

describe('plans 6 and 7: company plans with Viáticos', () => {
  it.each([6, 7])('a company on plan %i sees Empresa, Gastos and Viáticos, never the premium advert', async (planId) => {
    const rfc = planId === 6 ? 'VIA010101AB1' : 'ABC010101AB1';
    const manager = await app.signUp(`plan${planId}_jefa`, rfc, { name: 'Viajes Del Norte SA' });
    await app.buyPlan(manager.token, planId);
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, manager.username, manager.password);
    const advert = page.getByRole('heading', { name: 'Función Premium' });

    await page.goto(`${app.url}/#/company#company-areas`);
    await expect.poll(() => page.getByRole('tab', { name: 'Departamentos' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await advert.count()).toBe(0);

    await page.goto(`${app.url}/#/company-view`);
    await expect.poll(() => page.getByRole('heading', { name: companyViewTitle(mexicoCityDate().month) }).isVisible(), { timeout: 20_000 }).toBe(true);
    // The server answered the month (no 403 in place of the lists).
    await expect.poll(() => page.locator('.skeleton').count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByText(MSG.featureLocked).count()).toBe(0);
    expect(await advert.count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan${planId}-gastos-360.png`, fullPage: true });

    await page.goto(`${app.url}/#/per-diem`);
    await expect.poll(() => page.getByRole('button', { name: 'Nuevo evento' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await advert.count()).toBe(0);
    await context.close();
  });
});
