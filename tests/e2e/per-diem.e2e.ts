// Per-diem events in real Chromium against the real server: a company on plan 6 (bought
// with the sandbox card 4242…) creates an event — a bad deposit shows its message first and keeps what was
// typed —, approves it and closes it (authorised vs spent). On a phone, offline says it needs a connection
// and keeps the draft. A company without the plan sees the premium advert. Screenshots at 360×780 and
// 1280×800 go to SHOTS_DIR when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { startApp, type Running } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? '';
let app: Running;

beforeAll(async () => {
  app = await startApp(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {});
});
afterAll(async () => {
  await app?.stop();
});

/** Screenshots without the toasts on top (they are checked where they matter). */
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('.toast button').forEach((b) => b.click()));
  await expect.poll(() => page.locator('.toast').count()).toBe(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

describe('per-diem events', () => {
  it('a company on plan 6 creates an event, approves it and closes it', async () => {
    const manager = await app.signUp('viaticos_jefa', 'VIA010101AB1', { name: 'Viajes Del Norte SA' });
    await app.buyPlan(manager.token, 6);

    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, manager.username, manager.password);
    await page.goto(`${app.url}/#/per-diem`);
    await expect.poll(() => page.getByRole('button', { name: 'Nuevo evento' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText('Aún no hay eventos de viáticos', { exact: false }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'Viáticos' }).isVisible()).toBe(true);
    await shot(page, 'per-diem-empty-1280');

    await page.getByRole('button', { name: 'Nuevo evento' }).click();
    const panel = page.getByRole('dialog', { name: 'Nuevo evento' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    await panel.getByLabel('Nombre del evento').fill('Expo Monterrey');
    await panel.getByLabel('Depósito').fill('mil pesos');
    await panel.getByLabel('Notas').fill('Hotel y transporte');
    const start = await panel.getByLabel('Fecha de inicio').inputValue();
    const end = new Date(`${start}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 3);
    await panel.getByLabel('Fecha de fin').fill(end.toISOString().slice(0, 10));
    await panel.getByRole('button', { name: 'Crear evento' }).click();
    await expect.poll(() => panel.getByText(MSG.perDiemDepositNumeric).isVisible()).toBe(true);
    expect(await panel.getByLabel('Nombre del evento').inputValue()).toBe('Expo Monterrey');
    expect(await panel.getByLabel('Notas').inputValue()).toBe('Hotel y transporte');
    await shot(page, 'per-diem-form-error-1280');
    await panel.getByLabel('Depósito').fill('$2,500.50');
    await panel.getByRole('button', { name: 'Crear evento' }).click();

    const row = page.getByRole('row', { name: /Expo Monterrey/ });
    await expect.poll(() => row.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => row.getByText('Abierto').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('$2,500.50').isVisible()).toBe(true);
    await shot(page, 'per-diem-open-1280');

    await row.getByRole('button', { name: 'Aprobar Expo Monterrey' }).click();
    await expect.poll(() => row.getByText('Aprobado').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText(MSG.perDiemApproved).isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Cerrar evento Expo Monterrey' }).click();
    await expect.poll(() => row.getByText('Cerrado').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => row.getByText('Autorizado').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('Gastado').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('Sobrante').isVisible()).toBe(true);
    // The whole row fits: nothing scrolled sideways after the clicks.
    expect(await page.locator('.company-table-wrap').evaluate((w) => w.scrollWidth <= w.clientWidth)).toBe(true);
    await shot(page, 'per-diem-closed-1280');

    // Stored on the server: a reload shows the same closed event.
    await page.reload();
    await expect.poll(() => page.getByRole('row', { name: /Expo Monterrey/ }).getByText('Cerrado').isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();

    // Phone: the card list, and offline keeps the draft and says why nothing was sent.
    const phone = await app.newContext({ width: 360, height: 780 });
    await app.signIn(phone.page, manager.username, manager.password);
    await phone.page.goto(`${app.url}/#/per-diem`);
    await expect.poll(() => phone.page.getByText('Expo Monterrey').isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(phone.page, 'per-diem-360');
    await phone.page.getByRole('button', { name: 'Nuevo evento' }).click();
    const sheet = phone.page.getByRole('dialog', { name: 'Nuevo evento' });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await sheet.getByLabel('Nombre del evento').fill('Congreso Cancún');
    await sheet.getByLabel('Depósito').fill('1200');
    await phone.context.setOffline(true);
    await sheet.getByRole('button', { name: 'Crear evento' }).click();
    await expect.poll(() => sheet.getByText(MSG.perDiemOffline).first().isVisible()).toBe(true);
    await shot(phone.page, 'per-diem-offline-360');
    await phone.context.setOffline(false);
    expect(await sheet.getByLabel('Nombre del evento').inputValue()).toBe('Congreso Cancún');
    await sheet.getByRole('button', { name: 'Crear evento' }).click();
    await expect.poll(() => phone.page.getByText('Congreso Cancún').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => phone.page.getByRole('dialog').count()).toBe(0);
    await shot(phone.page, 'per-diem-two-360');
    await phone.context.close();
  });

  it('shows the premium advert to a company without the plan', async () => {
    const other = await app.signUp('viaticos_sinplan', 'SIN020202XY2', { name: 'Sin Viaticos SA' });
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, other.username, other.password);
    await page.goto(`${app.url}/#/per-diem`);
    await expect.poll(() => page.getByText('Función Premium').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByRole('link', { name: 'Ver planes para empresas' }).getAttribute('href')).toBe('/#/plans/company');
    await shot(page, 'per-diem-advert-1280');
    await context.close();
  });
});
