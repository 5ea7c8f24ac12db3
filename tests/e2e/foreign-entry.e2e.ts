// A spending in dollars with no rate table (the e2e server has neither Banxico nor a staff rate): the
// rate route answers 200 with no rate (never a 404), the panel asks for the rate or the pesos, each
// computes the other, the last rate this user used for USD is offered as such, the note says amount,
// currency and rate, and the saved row shows its category as title and '12.50 USD' beside the pesos.
// Screenshots of the panel and the rows at 360×780 and 1280×800 go to /tmp/cc-screens/.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nationalAmount } from '../../src/domain/currency';
import { newId } from '../../src/domain/ids';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { manualTicketPayload, todayInput } from '../../src/domain/spending-form';
import type { Ticket } from '../../src/domain/ticket';
import { startApp, type Running } from './harness';

const SCREENS = '/tmp/cc-screens';
const RFC = 'DOLA850101AB1';

let app: Running;
let user: { username: string; password: string; token: string };

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  app = await startApp();
  user = await app.signUp('gasto_dolares', RFC, { first_name: 'Dolores', last_name: 'Lara' });
  // An earlier dollar spending of this user: 10.00 USD that were 171.20 pesos (17.12 a dollar).
  const earlier = manualTicketPayload(
    { kind: 'expense', amount: '10.00', date: todayInput(), category: '6', currency: 'USD', nationalAmount: '171.20', note: 'Taxi al aeropuerto' },
    RFC, newId(),
  );
  const r = await app.api('/form/ticket_create?format=json', { method: 'POST', token: user.token, body: JSON.stringify(earlier) });
  if (r.status !== 200) throw new Error(`ticket_create ${r.status}: ${JSON.stringify(r.body)}`);
});

afterAll(async () => {
  await app?.stop();
});

async function serverTickets(): Promise<Ticket[]> {
  const { year, month } = mexicoCityDate();
  const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`, { token: user.token });
  return (res.body as { response: { tickets: Ticket[] } }).response.tickets;
}

/** Every answer of the rate route the page got, and the console's errors. */
function watch(page: Page) {
  const rates: number[] = [];
  const errors: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/api/v3/exchange_rates')) rates.push(res.status());
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return { rates, errors };
}

async function openDollarPanel(page: Page, amount: string) {
  await page.getByRole('button', { name: 'Agregar gasto' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Monto', { exact: true }).fill(amount);
  await dialog.getByLabel('Categoría').selectOption({ label: 'Hospedaje' });
  await dialog.getByLabel('Moneda').selectOption('USD');
  return dialog;
}

describe('a dollar spending with no rate table', () => {
  it('asks for the rate or the pesos, offers the last rate used, and saves the row with both amounts', async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    const seen = watch(page);
    await app.signIn(page, user.username, user.password);
    await expect.poll(() => page.getByRole('button', { name: 'Agregar gasto' }).first().isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.locator('.ticket-cards__list > li').filter({ hasText: '10.00 USD' }).count(), { timeout: 30_000 }).toBe(1);

    const dialog = await openDollarPanel(page, '12.50');
    const rate = dialog.getByLabel('Tipo de cambio (MXN por 1 USD)');
    await expect.poll(() => rate.isVisible(), { timeout: 20_000 }).toBe(true);
    // The route said "no rate" with a 200; nothing failed in the console.
    expect(seen.rates.length).toBeGreaterThan(0);
    expect(seen.rates.every((s) => s === 200)).toBe(true);
    expect(seen.errors.filter((e) => /404|exchange_rates/.test(e))).toEqual([]);

    // The last rate this user used for dollars, said as such.
    const last = dialog.getByText('Último tipo de cambio que usaste: 17.12 MXN por USD', { exact: false });
    await expect.poll(() => last.isVisible(), { timeout: 20_000 }).toBe(true);
    await page.screenshot({ path: `${SCREENS}/foreign-panel-360.png` });

    // Pesos typed: the rate follows, and the note says amount, currency and that rate.
    const pesos = dialog.getByLabel('Monto en moneda nacional');
    await pesos.fill('215.60');
    await expect.poll(() => rate.inputValue()).toBe('17.25');
    await expect.poll(() => dialog.getByLabel('Nota', { exact: true }).inputValue()).toBe('12.50 USD al tipo de cambio 17.25');

    // The suggestion used: the pesos follow the rate.
    await dialog.getByRole('button', { name: /Usar el último tipo de cambio que usaste: 17\.12/ }).click();
    await expect.poll(() => rate.inputValue()).toBe('17.12');
    await expect.poll(() => pesos.inputValue()).toBe(nationalAmount('12.50', '17.12'));
    expect(await dialog.getByLabel('Nota', { exact: true }).inputValue()).toBe('12.50 USD al tipo de cambio 17.12');

    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(async () => (await serverTickets()).some((t) => t.original_amount === '12.50'), { timeout: 30_000 }).toBe(true);
    const saved = (await serverTickets()).find((t) => t.original_amount === '12.50')!;
    expect(saved).toMatchObject({ currency: 'USD', amount: '214.00', note: '12.50 USD al tipo de cambio 17.12' });

    // The row: titled by its category (our note is beside the amount already), pesos and dollars.
    const card = page.locator('.ticket-cards__list > li').filter({ hasText: '12.50 USD' });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    expect((await card.locator('.ticket-card__origin').textContent())?.trim()).toBe('Hospedaje');
    expect(await card.textContent()).toContain('$214.00');
    const earlier = page.locator('.ticket-cards__list > li').filter({ hasText: '10.00 USD' });
    expect((await earlier.locator('.ticket-card__origin').textContent())?.trim()).toBe('Taxi al aeropuerto');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/foreign-rows-360.png` });
    await context.close();
  });

  it('shows the same at 1280×800: the rate field in the panel and the dollars beside the pesos in the table', async () => {
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, user.username, user.password);
    const row = page.locator('table tbody tr').filter({ hasText: '12.50 USD' });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.textContent()).toContain('$214.00');
    await page.screenshot({ path: `${SCREENS}/foreign-rows-1280.png` });
    const dialog = await openDollarPanel(page, '40');
    await expect.poll(() => dialog.getByLabel('Tipo de cambio (MXN por 1 USD)').isVisible(), { timeout: 20_000 }).toBe(true);
    await dialog.getByLabel('Tipo de cambio (MXN por 1 USD)').fill('17.5');
    await expect.poll(() => dialog.getByLabel('Monto en moneda nacional').inputValue()).toBe('700.00');
    await page.screenshot({ path: `${SCREENS}/foreign-panel-1280.png` });
    await context.close();
  });

  it('the demo month reads as people scan it: no "Registro manual" titles, no manual venue, "respecto al"', async () => {
    for (const size of [{ width: 360, height: 780 }, { width: 1280, height: 800 }]) {
      const { context, page } = await app.newContext(size);
      await app.signIn(page, 'demo', 'cuentasclaras');
      const titles = page.locator(size.width < 600 ? '.ticket-card__origin' : 'table tbody tr td.tickets__origin');
      await expect.poll(() => titles.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      const venues = page.locator('.spending-summary__list').nth(1).locator('.spending-summary__label');
      await expect.poll(() => venues.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect((await titles.allTextContents()).map((t) => t.trim()).filter((t) => t.startsWith('Registro manual'))).toEqual([]);
      expect(await venues.allTextContents()).not.toContain('Registro manual');
      const body = (await page.locator('body').textContent()) ?? '';
      expect(body).not.toContain('respecto a el');
      await page.screenshot({ path: `${SCREENS}/demo-rows-${size.width}.png` });
      await page.locator('.spending-summary__list').nth(1).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/demo-venues-${size.width}.png` });
      await context.close();
    }
  });
});
