// What a person does with selected tickets — Descargar (the CFDI zip), Compartir (e-mail with
// the PDF and XML, seen in the dev mailbox) and Eliminar (confirmed, gone from the server) — on the demo
// user's month, whose CFDI-backed tickets come with the first start.
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { Ticket } from '../../src/domain/ticket';
import { manualTitle } from '../../src/app/tickets/ticket-list-model';
import { startApp, type Running } from './harness';

let app: Running;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

async function login(page: Page) {
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel('Usuario o correo').fill('demo');
  await page.getByLabel('Contraseña', { exact: true }).fill('cuentasclaras');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

const seen = async (page: Page, text: string | RegExp) => (await page.getByText(text).locator('visible=true').count()) > 0;

/** The demo token, and the current month's tickets of the persona account as the API lists them. */
async function demoMonth() {
  const login = await app.api('/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: 'demo', password: 'cuentasclaras' } }) });
  const token = (login.body as { response: { token: string } }).response.token;
  const now = new Date(Date.now() - 6 * 3_600_000); // Mexico City's calendar (UTC-6)
  const q = `usuario[rfc_owner]=XIQB891116QE4&date[year]=${now.getUTCFullYear()}&date[month]=${now.getUTCMonth() + 1}`;
  const list = await app.api(`/api/v2/tickets?${q}`, { token });
  const tickets = (list.body as { response: { tickets: Ticket[] } }).response.tickets;
  return { token, tickets };
}

describe('selected tickets', () => {
  it('downloads the CFDI of the selection as a zip, shares them by e-mail and deletes with confirmation', async () => {
    const { tickets } = await demoMonth();
    const withReceipt = tickets.filter((t) => t.receipt);
    expect(withReceipt.length).toBeGreaterThan(0);

    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await login(page);
    const toolbar = page.getByRole('group', { name: 'Acciones con los seleccionados' });
    const descargar = toolbar.getByRole('button', { name: 'Descargar' });
    await expect.poll(() => descargar.isVisible(), { timeout: 30_000 }).toBe(true);
    for (const name of ['Descargar', 'Exportar', 'Compartir', 'Eliminar']) {
      expect(await toolbar.getByRole('button', { name }).isDisabled(), name).toBe(true);
    }
    await expect.poll(() => page.getByRole('button', { name: /XML/ }).count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // Select the whole month: every button wakes up.
    await page.getByLabel('Seleccionar todos').first().check();
    await expect.poll(() => descargar.isEnabled()).toBe(true);

    // Descargar: one PDF and one XML for each selected ticket with a receipt (the month has more than a page).
    const [download] = await Promise.all([page.waitForEvent('download'), descargar.click()]);
    expect(download.suggestedFilename()).toMatch(/^facturas-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = await JSZip.loadAsync(readFileSync(await download.path()));
    const names = Object.keys(zip.files).sort();
    const expected = withReceipt.flatMap((t) => [`${t.receipt!.rfc_issuer}_${t.receipt!.uuid}.pdf`, `${t.receipt!.rfc_issuer}_${t.receipt!.uuid}.xml`]).sort();
    expect(names).toEqual(expected);
    const firstXml = await zip.file(expected.find((n) => n.endsWith('.xml'))!)!.async('string');
    expect(firstXml).toContain('TimbreFiscalDigital');
    const firstPdf = await zip.file(expected.find((n) => n.endsWith('.pdf'))!)!.async('uint8array');
    expect(new TextDecoder().decode(firstPdf.slice(0, 5))).toBe('%PDF-');

    // Compartir: the modal checks the address, then sends; the dev mailbox shows the message and files.
    await toolbar.getByRole('button', { name: 'Compartir' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compartir facturas' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const summary = withReceipt.length === 1 ? '1 factura seleccionada' : `${withReceipt.length} facturas seleccionadas`;
    expect(await dialog.getByText(summary).isVisible()).toBe(true);
    // Spending and income each on its own line, never one sum of both.
    const sides = [...new Set(withReceipt.map((t) => (t.ticket_type_id === 2 ? 'Gastos' : 'Ingresos')))];
    for (const side of sides) expect(await dialog.getByText(side, { exact: true }).isVisible(), side).toBe(true);
    expect(await dialog.getByText(/Te enviaremos una copia a tu correo \(demo@cuentasclaras\.mx\)/).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => seen(page, 'Escribe el correo de quien recibirá las facturas.')).toBe(true);
    await dialog.getByLabel('Correo de destino').fill('contador@ejemplo');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => seen(page, MSG.emailInvalid)).toBe(true);
    await dialog.getByLabel('Correo de destino').fill('contador@ejemplo.mx');
    await dialog.getByLabel('Mensaje (opcional)').fill('Las facturas del mes, saludos.');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => seen(page, MSG.shareSent)).toBe(true);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const mailbox = await fetch(`${app.url}/dev/mailbox`).then((r) => r.text());
    expect(mailbox).toContain('Para: contador@ejemplo.mx · Copia: demo@cuentasclaras.mx');
    expect(mailbox).toContain('Las facturas del mes, saludos.');
    for (const t of withReceipt) expect(mailbox).toContain(`${t.receipt!.rfc_issuer}_${t.receipt!.uuid}.xml`);
    // A successful share ends the selection.
    await expect.poll(() => descargar.isDisabled()).toBe(true);

    // Eliminar: confirmation with the spec's text; cancelling keeps the ticket, confirming removes it.
    // The month's tuition, issued by the demo's school account: searched by its issuer's name. The invoice
    // the demo issued to the school is titled by the school too (its receiver), on another day.
    const victim = withReceipt.find((t) => t.ticket_type_id === 2 && t.receipt!.rfc_issuer === 'EKU9003173C9')!;
    expect(victim).toBeDefined();
    const before = await demoMonth();
    await page.getByLabel('Buscar').fill('ESCUELA KEMPER');
    const box = page.getByRole('checkbox', { name: `Seleccionar ESCUELA KEMPER URGATE del ${victim.received_at.slice(0, 10)}` });
    await expect.poll(() => box.count()).toBe(1);
    await box.check();
    await toolbar.getByRole('button', { name: 'Eliminar' }).click();
    const confirm = page.getByRole('dialog');
    expect(await confirm.getByText(MSG.deleteConfirm).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    expect((await demoMonth()).tickets.length).toBe(before.tickets.length);
    await toolbar.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await expect.poll(() => seen(page, 'Se eliminó 1 movimiento.')).toBe(true);
    await expect.poll(async () => (await demoMonth()).tickets.some((t) => t.ticket_id === victim.ticket_id), { timeout: 20_000 }).toBe(false);
    await context.close();
  });

  it("says so when the selection has no CFDI, and on a phone the bottom bar turns into the selection's actions", async () => {
    const { tickets } = await demoMonth();
    const manual = tickets.find((t) => !t.receipt && t.company_short_name === 'manual' && t.ticket_type_id === 2);
    expect(manual).toBeDefined();
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await login(page);
    const bar = page.getByRole('group', { name: 'Acciones con los seleccionados' });
    await expect.poll(() => page.getByRole('button', { name: 'Agregar gasto' }).first().isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await bar.count()).toBe(0);
    // The cards list: pick a manual spending (no CFDI). A card's PDF/XML links sit in its closed '⋮' menu,
    // so they cannot tell cards apart; the manual entry's title (its note, else its category) and date can.
    const title = manualTitle(manual!, new Map());
    const card = page.locator('.ticket-cards__list > li').filter({ hasText: title }).filter({ hasText: manual!.received_at.slice(0, 10) }).first();
    await expect.poll(() => card.isVisible(), { timeout: 20_000 }).toBe(true);
    await card.locator('input[type=checkbox]').check();
    await expect.poll(() => bar.isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/cc-screens/dashboard-selection-360.png', fullPage: false });
    await bar.getByRole('button', { name: 'Descargar' }).click();
    await expect.poll(() => seen(page, MSG.archiveNoReceipts)).toBe(true);
    await context.close();
  });
});
