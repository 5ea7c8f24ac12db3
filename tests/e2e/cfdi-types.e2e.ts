// Each CFDI type as SAT means it, in Chromium: a user with two RFCs imports, from the first one's
// dashboard, a PPD invoice and the payment complement that pays part of it (both issued by that RFC), and
// an invoice with its credit note received by the second RFC. The import names the months it filled, each
// a link (the second RFC's months switch account); the rows say 'Pago parcial (… por pagar)',
// 'Complemento de pago' without an amount, 'Nota de crédito' with a negative amount, and the CFDI view lists
// what the payment paid and the credit note's related invoice. On a phone the month link opens the same.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { appPerFile } from './app-per-file';
import type { Running } from './harness';

const FIXTURES = fileURLToPath(new URL('../fixtures/cfdi', import.meta.url));
const SCREENS = '/tmp/cc-screens';
const ISSUER = 'EKU9003173C9';
const RECEIVER = 'COSC8001137NA';

const PPD_INVOICE = 'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml'; // EKU → 2024-06, PPD
const PAYMENT = 'ours-cfdi40-pago20-parcial-finkok.xml'; // EKU → 2024-07, pays 500.00 of it
const INVOICE = 'cfdi40-ingreso-real-pase-stamped.xml'; // → COSC, 2025-01
const CREDIT_NOTE = 'ours-cfdi40-egreso-nota-credito-pase.xml'; // → COSC, 2025-01, 200.00 for INVOICE
const INVOICE_UUID = 'C2832671-DA6D-11EF-A83D-00155D012007';
const PPD_UUID = 'F08A8B8C-26DB-5385-86AF-2A1D354C5CC3';
/** The panel's fade-in (spec §9: 200 ms), so a screenshot shows it settled. */
const FADE_MS = 300;

const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`).toString('base64');

/** Drops files on the import modal's zone the way a browser does. */
async function drop(page: Page, names: string[]): Promise<void> {
  const files = names.map((name) => ({ name, base64: fixture(name) }));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: 'text/xml' }));
    }
    const zone = document.querySelector('[data-testid="import-drop"]');
    if (!zone) throw new Error('no drop zone');
    for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, files);
}

const statusOf = (page: Page, name: string) =>
  page.getByRole('dialog', { name: 'Importar CFDIs' }).locator('.import-row').filter({ has: page.locator('.import-row__main', { hasText: name }) })
    .locator('.import-row__status').first().textContent({ timeout: 1_000 }).catch(() => null);

/** The month's rows as text, once the dashboard shows `rfc`'s `title` month. */
/** The month's rows once they show `shown`: the heading changes before the month's rows are read, so the heading alone does not say the rows are this month's. */
async function monthRows(page: Page, rfc: string, title: string, shown: string): Promise<string> {
  await expect.poll(() => page.locator('.dashboard h1').textContent(), { timeout: 30_000 }).toBe(title);
  await expect.poll(() => page.locator('.dashboard__account').textContent(), { timeout: 30_000 }).toContain(rfc);
  const list = page.locator('.tickets tbody, .ticket-cards__list').first();
  await expect.poll(async () => (await list.count()) === 1 ? await list.textContent() : '', { timeout: 30_000 }).toContain(shown);
  return (await list.textContent()) ?? '';
}

let app: Running;
appPerFile((a) => { app = a; }, SCREENS);

describe('CFDI types on the rows and in the CFDI view', () => {
  let user: { username: string; password: string; token: string };

  it('imports a PPD invoice, its payment and a credit note into two RFCs; the months link to them; the rows say what each is', async () => {
    user = await app.signUp('tipos_cfdi', ISSUER, { name: 'ESCUELA KEMPER URGATE' });
    const second = await app.api('/new_client', {
      method: 'POST', token: user.token,
      body: JSON.stringify({ client: { rfc: RECEIVER, first_name: 'CARLOS', last_name: 'COSIO' }, ubication_data: {} }),
    });
    expect(second.status).toBe(200);

    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, user.username, user.password);
    await expect.poll(() => page.locator('.dashboard__account').textContent(), { timeout: 30_000 }).toContain(ISSUER);

    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar CFDIs' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await drop(page, [PPD_INVOICE, PAYMENT, INVOICE, CREDIT_NOTE]);
    for (const f of [PPD_INVOICE, PAYMENT]) await expect.poll(() => statusOf(page, f), { timeout: 60_000 }).toBe('Importado');
    // The receiver's CFDI went to the user's other RFC, and the row says so.
    for (const f of [INVOICE, CREDIT_NOTE]) {
      await expect.poll(() => statusOf(page, f), { timeout: 60_000 }).toBe(`Importado: ${MSG.importedInOtherAccount} ${RECEIVER}`);
    }

    // 'Dónde quedaron': each month, the own RFC's first, the other's named.
    const places = dialog.locator('.import-places');
    await expect.poll(() => places.locator('li').allTextContents(), { timeout: 30_000 }).toEqual([
      '1 en junio de 2024',
      '1 en julio de 2024',
      `2 en enero de 2025 en tu RFC ${RECEIVER}`,
    ]);
    await page.screenshot({ path: `${SCREENS}/cfdi-import-places-1280.png` });

    // The payment's month: no amount of its own, what it paid, and its CFDI view lists the invoice it pays.
    await places.getByRole('link', { name: /1 en julio de 2024/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    let rows = await monthRows(page, ISSUER, 'Julio', 'Complemento de pago');
    expect(rows).toContain('Monto pagado: $500.00');
    expect(rows).toContain('Sin monto');
    await page.getByRole('button', { name: /^Ver CFDI de / }).first().click();
    const view = page.getByRole('dialog', { name: /^Complemento de pago de / });
    await expect.poll(() => view.isVisible()).toBe(true);
    const paid = (await view.textContent()) ?? '';
    expect(paid).toContain(PPD_UUID);
    expect(paid).toContain('Pagado $500.00');
    expect(paid).toContain('Saldo $691.95');
    await page.waitForTimeout(FADE_MS);
    await page.screenshot({ path: `${SCREENS}/cfdi-payment-view-1280.png` });
    await page.keyboard.press('Escape');

    // The invoice it pays, in its own month: partly paid, with what is left.
    await page.selectOption('#picker-month', '6');
    await monthRows(page, ISSUER, 'Junio', 'Pago parcial ($691.95 por pagar)');

    // The other RFC's month: the link switches account; the credit note is negative and names its invoice.
    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    await page.getByRole('dialog', { name: 'Importar CFDIs' }).locator('.import-places').getByRole('link', { name: /2 en enero de 2025/ }).click();
    rows = await monthRows(page, RECEIVER, 'Enero', 'Nota de crédito');
    expect(rows).toContain('-$200.00');
    expect(rows).not.toContain('+-');
    await page.screenshot({ path: `${SCREENS}/cfdi-credit-note-1280.png`, fullPage: true });
    await page.getByRole('button', { name: /^Ver CFDI de / }).first().click();
    const credit = page.getByRole('dialog', { name: /^Nota de crédito de / });
    await expect.poll(() => credit.isVisible()).toBe(true);
    const creditText = (await credit.textContent()) ?? '';
    expect(creditText).toContain('Nota de crédito de los documentos relacionados');
    expect(creditText).toContain(INVOICE_UUID);
    await page.waitForTimeout(FADE_MS);
    await page.screenshot({ path: `${SCREENS}/cfdi-credit-note-view-1280.png` });
    await context.close();
  });

  it('on a phone: a month link opens that RFC\'s month, the cards say what each CFDI is, the CFDI view opens from the card\'s CFDI line', async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await app.signIn(page, user.username, user.password);
    await expect.poll(() => page.locator('.dashboard__account').textContent(), { timeout: 30_000 }).toContain(ISSUER);
    await page.goto(`${app.url}/#/home?month=2025-01&rfc=${RECEIVER}`);
    const rows = await monthRows(page, RECEIVER, 'Enero', 'Nota de crédito');
    expect(rows).toContain('-$200.00');
    // Applied once, then dropped from the address: the month picker decides from here on.
    await expect.poll(() => new URL(page.url()).hash).toBe('#/home');
    await page.screenshot({ path: `${SCREENS}/cfdi-credit-note-360.png` });
    const card = page.locator('.ticket-card').filter({ hasText: 'Nota de crédito' });
    // The card's CFDI line opens the view with one tap (its actions menu has 'Ver CFDI' as well).
    await card.locator('.cfdi-summary--button').click();
    const credit = page.getByRole('dialog', { name: /^Nota de crédito de / });
    await expect.poll(() => credit.isVisible()).toBe(true);
    expect(await credit.textContent()).toContain(INVOICE_UUID);
    await page.waitForTimeout(FADE_MS);
    await page.screenshot({ path: `${SCREENS}/cfdi-credit-note-view-360.png` });
    await context.close();
  });
});
