// Invoice forms end to end, in real Chromium against the real server: request an invoice from the anonymous
// form (signed out, the start screen) and from the merchant form (a scanned ticket QR's link), find the
// invoice e-mail with its PDF and XML in the dev mailbox and the ticket 'facturado' in the month's list;
// plus the ticket form (through the outbox) and the multi-ticket list. Demo tickets come from the dev page
// /dev/merchant-tickets (H2's seed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TXT } from '../../src/app/strings';
import { MSG } from '../../src/domain/messages';
import { startApp, type Running } from './harness';

let app: Running;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

interface DemoTicket {
  /** Field name → the value to type (the dev page's list). */
  values: [string, string][];
  ref: string;
  qr: string;
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Not yet invoiced demo tickets of a merchant, read from the dev page. */
async function demoTickets(short: string): Promise<DemoTicket[]> {
  const res = await fetch(`${app.url}/dev/merchant-tickets/${short}`);
  expect(res.status, `GET /dev/merchant-tickets/${short}`).toBe(200);
  const html = await res.text();
  const rows = html.split('<tr>').filter((r) => r.includes('sin facturar'));
  const tickets = rows.map((r) => ({
    values: [...r.matchAll(/<li>([^<]+): <code>([^<]*)<\/code><\/li>/g)].map((m) => [unescape(m[1] as string), unescape(m[2] as string)] as [string, string]),
    ref: /ref <code>([^<]+)<\/code>/.exec(r)?.[1] ?? '',
    qr: unescape(/<a href="([^"]+)">abrir el QR<\/a>/.exec(r)?.[1] ?? ''),
  }));
  expect(tickets.length, `tickets de demostración de ${short} sin facturar`).toBeGreaterThan(1);
  return tickets;
}

async function seen(page: Page, text: string | RegExp): Promise<boolean> {
  return (await page.getByText(text).locator('visible=true').count()) > 0;
}

/** Types a demo ticket's values into the merchant's dynamic fields (a select by its option title). */
async function fillTicket(page: Page, values: [string, string][], skip: (name: string) => boolean = () => false) {
  for (const [name, value] of values) {
    if (skip(name) || value === '(cualquier valor válido)') continue;
    const control = page.getByLabel(name, { exact: true });
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption({ label: value });
    else await control.fill(value);
  }
}

async function mailbox(): Promise<string> {
  return (await fetch(`${app.url}/dev/mailbox`)).text();
}

describe('invoice request forms', () => {
  it('signed out, the start screen is the anonymous form: checks, invoice, e-mail, then the reprint modal', async () => {
    const { context, page } = await app.newContext();
    const [ticket] = await demoTickets('movil-norte');
    await page.goto(`${app.url}/#/`);
    await page.waitForURL(/ticket\/form-anonymous\/movil-norte/);
    await expect.poll(() => seen(page, 'Móvil Norte')).toBe(true);
    expect(await page.getByRole('link', { name: 'Iniciar sesión' }).isVisible()).toBe(true);

    // Empty → the first field says it is required, and keeps focus.
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect.poll(() => seen(page, MSG.fieldRequired)).toBe(true);

    // A ticket that does not exist → the spec's message; nothing typed is lost.
    const amountField = ticket!.values.find(([n]) => /monto|importe|total/i.test(n));
    await fillTicket(page, ticket!.values);
    if (amountField) await page.getByLabel(amountField[0], { exact: true }).fill('1.01');
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect.poll(() => seen(page, MSG.ticketNotFound33)).toBe(true);
    await fillTicket(page, ticket!.values);
    await page.getByRole('button', { name: 'Facturar' }).click();

    // Stage 2: the receiver, checked in the spec order.
    await page.getByLabel('RFC', { exact: true }).waitFor();
    await page.getByLabel('RFC', { exact: true }).fill('xiqb891116qe4');
    await page.getByLabel('Confirma tu RFC').fill('XIQB891116QE5');
    await page.getByLabel('Nombre o razón social').fill('Berenice Ximo Quezada');
    await page.getByLabel('Código postal').fill('64000');
    await page.getByLabel('Régimen fiscal').selectOption('605');
    await page.getByLabel('Uso del CFDI').selectOption('G03');
    await page.getByLabel('Correo electrónico').fill('Berenice@Ejemplo.MX');
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect.poll(() => seen(page, MSG.rfcConfirmMismatch)).toBe(true);
    await page.getByLabel('Confirma tu RFC').fill('XIQB891116QE4');
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect.poll(() => seen(page, MSG.regimeOnlyS01)).toBe(true);
    await page.getByLabel('Régimen fiscal').selectOption('612');
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect
      .poll(async () => (await seen(page, MSG.invoiceSent)) || (await seen(page, MSG.invoiceGenerated)), { timeout: 90_000 })
      .toBe(true);
    // Cleared, and the receiver stage hidden again.
    expect(await page.getByLabel('RFC', { exact: true }).count()).toBe(0);

    // The e-mail with the PDF and the XML.
    await expect
      .poll(async () => {
        const html = await mailbox();
        return html.includes('berenice@ejemplo.mx') && /\.pdf<\/a>/.test(html) && /\.xml<\/a>/.test(html);
      }, { timeout: 90_000, interval: 1000 })
      .toBe(true);

    // The same ticket again: already invoiced → reprint / resend / refacturar.
    await fillTicket(page, ticket!.values);
    await page.getByRole('button', { name: 'Facturar' }).click();
    const dialog = page.getByRole('dialog', { name: MSG.ticketAlreadyInvoiced });
    await dialog.waitFor();
    for (const name of ['Reimprimir', 'Reenviar', 'Refacturar']) expect(await dialog.getByRole(name === 'Reimprimir' ? 'link' : 'button', { name }).isVisible()).toBe(true);
    await context.close();
  });

  it('signed in: the merchant form from a ticket QR, the ticket form through the outbox, the multi list', async () => {
    const user = await app.signUp('lucia_h4', 'XIQB891116QE4', { first_name: 'Lucía', last_name: 'Hernández' });
    const accounts = (await app.api('/user_clients', { token: user.token })).body as { response: { diverza_client_id: number }[] };
    const id = accounts.response[0]!.diverza_client_id;
    const updated = await app.api('/update_client', {
      method: 'PUT', token: user.token,
      body: JSON.stringify({ client: { diverza_client_id: id, rfc: 'XIQB891116QE4', first_name: 'Lucía', last_name: 'Hernández', zip_code: '64000', regimen_fiscal: '612' } }),
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);

    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await app.signIn(page, user.username, user.password);

    // 'Facturar ticket' in the side menu → the picker: scan button, merchants, the airport sub-picker.
    await page.getByRole('link', { name: 'Facturar ticket' }).first().click();
    await page.waitForURL(/#\/ticket\/new$/);
    await page.getByRole('button', { name: 'Escanear código' }).waitFor();
    expect(await page.getByRole('link', { name: 'Autozone' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Aeropuertos' }).click();
    await page.getByRole('link', { name: 'Aeropuerto de Ciudad Juárez' }).click();
    await page.waitForURL(/#\/ticket\/form\/aeropuerto-ciudad-juarez$/);
    await page.getByRole('button', { name: 'Solicitar factura' }).waitFor();
    await page.goto(`${app.url}/#/merchant/no-existe`);
    await expect.poll(() => seen(page, MSG.unknownMerchant)).toBe(true);

    // Merchant form, opened by the QR's link: prefilled and verified, RFC and e-mail from the account.
    const tickets = await demoTickets('autozone');
    const [qrTicket, formTicket, multiA, multiB, offlineTicket] = tickets;
    await page.goto(qrTicket!.qr);
    await page.getByRole('button', { name: 'Facturar' }).waitFor();
    await expect.poll(() => page.getByLabel('RFC', { exact: true }).inputValue()).toBe('XIQB891116QE4');
    await expect.poll(() => page.getByLabel('Correo electrónico').inputValue()).toBe('lucia_h4@ejemplo.mx');
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect
      .poll(async () => (await seen(page, MSG.invoiceSent)) || (await seen(page, MSG.invoiceGenerated)), { timeout: 90_000 })
      .toBe(true);
    await expect.poll(async () => (await mailbox()).includes('lucia_h4@ejemplo.mx'), { timeout: 90_000, interval: 1000 }).toBe(true);

    // The ticket is 'facturado' in the month of the purchase (demo tickets span the last 30 days).
    let month: { year: number; month: number } | null = null;
    await expect
      .poll(async () => {
        const now = new Date();
        for (const back of [0, 1]) {
          const d = new Date(now.getFullYear(), now.getMonth() - back, 15);
          const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=XIQB891116QE4&date[year]=${d.getFullYear()}&date[month]=${d.getMonth() + 1}`, { token: user.token });
          const list = (res.body as { response?: { tickets: { company_short_name: string; ticket_status_name: string }[] } }).response?.tickets ?? [];
          if (list.some((t) => t.company_short_name === 'autozone' && t.ticket_status_name === 'facturado')) {
            month = { year: d.getFullYear(), month: d.getMonth() + 1 };
            return true;
          }
        }
        return false;
      }, { timeout: 90_000, interval: 1000 })
      .toBe(true);
    await page.goto(`${app.url}/#/`);
    await page.locator('#picker-year').selectOption(String(month!.year));
    await page.locator('#picker-month').selectOption(String(month!.month));
    await expect.poll(() => seen(page, 'Facturado'), { timeout: 30_000 }).toBe(true);

    // Ticket form: note dialog with the RFC, then 'Factura solicitada'.
    await page.goto(`${app.url}/#/ticket/form/autozone`);
    await page.getByRole('button', { name: 'Solicitar factura' }).waitFor();
    await fillTicket(page, formTicket!.values);
    await page.getByRole('button', { name: 'Solicitar factura' }).click();
    const note = page.getByRole('dialog', { name: 'Solicitar factura' });
    await note.waitFor();
    expect(await note.getByText('XIQB891116QE4').isVisible()).toBe(true);
    await note.getByLabel('Comentario (opcional)').fill('  Comida con cliente  ');
    await note.getByRole('button', { name: 'Facturar' }).click();
    // Online, the outbox sends it at once: the spec's toast (not the 'saved offline' one), inputs cleared.
    await expect.poll(() => seen(page, MSG.invoiceRequested), { timeout: 30_000 }).toBe(true);
    expect(await page.getByLabel(formTicket!.values[0]![0], { exact: true }).inputValue()).toBe('');

    // Offline: the request is kept on the phone (the ticket shows pending) and sent on reconnect.
    await context.setOffline(true);
    await fillTicket(page, offlineTicket!.values);
    await page.getByRole('button', { name: 'Solicitar factura' }).click();
    await note.waitFor();
    await note.getByRole('button', { name: 'Facturar' }).click();
    await expect.poll(() => seen(page, TXT.invoiceRequestQueued), { timeout: 30_000 }).toBe(true);
    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    const offlineNumber = offlineTicket!.values.find(([n]) => /ticket/i.test(n))![1];
    await expect
      .poll(async () => {
        const now = new Date();
        for (const back of [0, 1]) {
          const d = new Date(now.getFullYear(), now.getMonth() - back, 15);
          const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=XIQB891116QE4&date[year]=${d.getFullYear()}&date[month]=${d.getMonth() + 1}`, { token: user.token });
          const list = (res.body as { response?: { tickets: { company_short_name: string; ticket_number: string }[] } }).response?.tickets ?? [];
          if (list.some((t) => t.company_short_name === 'autozone' && t.ticket_number === offlineNumber)) return true;
        }
        return false;
      }, { timeout: 60_000, interval: 1000 })
      .toBe(true);

    // Multi list: two tickets, a duplicate refused with the spec's message, one request.
    await page.goto(`${app.url}/#/ticket/form-multi/autozone`);
    await page.getByRole('button', { name: 'Agregar Ticket a Factura Múltiple' }).waitFor();
    for (const t of [multiA!, multiB!, multiA!]) {
      await fillTicket(page, t.values);
      await page.getByRole('button', { name: 'Agregar Ticket a Factura Múltiple' }).click();
      await page.waitForTimeout(300);
    }
    await expect.poll(() => seen(page, MSG.multiDuplicate)).toBe(true);
    expect(await page.getByRole('heading', { name: 'Tickets en la factura (2)' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Solicitar factura' }).click();
    await page.getByRole('dialog', { name: 'Solicitar factura' }).getByRole('button', { name: 'Facturar' }).click();
    // Success empties the list (the 'Factura solicitada' toast of the ticket form may still be up, so the list tells).
    await expect.poll(() => page.getByRole('heading', { name: 'Tickets en la factura (0)' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await seen(page, MSG.invoiceRequested)).toBe(true);
    await context.close();
  });
});
