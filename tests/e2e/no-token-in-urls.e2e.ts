// No secret in a URL the app makes (DESIGN §3), in Chromium: the demo user opens a receipt's PDF (by
// keyboard), downloads its XML, opens a ticket image and the 'Importar CFDIs' dialog (its live statuses
// stream). Every request of the context (the app, its worker and the new tabs) and every href/src the
// pages ever carried (watched from before the first script) are recorded, and the session token is in
// none of them, while the PDF, the XML and the image really arrived and the stream really opened.
import { readFileSync } from 'node:fs';
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';

const RFC = 'XIQB891116QE4';

type ApiTicket = { ticket_id: string; amount: string; include_ticket_image: boolean; receipt: { receipt_id: string; uuid: string } | null };

let app: Running;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

/** Watches every href and src any element of the document ever gets, from before the app's first script. */
function recordAttributes(): void {
  const seen: string[] = [];
  (window as unknown as { __seenUrls: string[] }).__seenUrls = seen;
  const note = (el: Element) => {
    for (const name of ['href', 'src', 'action', 'data', 'poster']) {
      const v = el.getAttribute(name);
      if (v) seen.push(v);
    }
  };
  const scan = (root: ParentNode) => root.querySelectorAll('[href],[src],[action],[data],[poster]').forEach(note);
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.target instanceof Element) note(r.target);
      for (const n of r.addedNodes) {
        if (n instanceof Element) {
          note(n);
          scan(n);
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['href', 'src', 'action', 'data', 'poster'] });
}

const seenUrls = (page: Page) =>
  page.evaluate(() => {
    const now = [...document.querySelectorAll('[href],[src]')].map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? '');
    return [...((window as unknown as { __seenUrls?: string[] }).__seenUrls ?? []), ...now, location.href];
  }).catch(() => [] as string[]);

async function sessionToken(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const req = indexedDB.open('cuentas-claras-settings');
        req.onerror = () => reject(new Error('sin base de ajustes'));
        req.onsuccess = () => {
          const get = req.result.transaction('kv').objectStore('kv').get('session');
          get.onsuccess = () => resolve((get.result as { token: string }).token);
        };
      }),
  );
}

/** The first month (newest first, last 12) of the account with a ticket that `want` picks. */
async function findTicket(token: string, want: (t: ApiTicket) => boolean): Promise<{ year: number; month: number; ticket: ApiTicket }> {
  const now = new Date();
  for (let back = 0; back < 12; back++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`, { token });
    const ticket = (res.body as { response: { tickets: ApiTicket[] } }).response.tickets.find(want);
    if (ticket) return { year, month, ticket };
  }
  throw new Error('el demo no tiene ese ticket');
}

/** Shows one month on the dashboard and narrows its list to the rows of that amount. */
async function showRow(page: Page, year: number, month: number, amount: string): Promise<void> {
  await page.selectOption('#picker-year', String(year));
  await page.selectOption('#picker-month', String(month));
  const search = page.getByRole('searchbox', { name: 'Buscar' }).first();
  await search.fill(amount);
}

describe('no session token in any URL the app makes', () => {
  it('opens a PDF, an XML, a ticket image and the import dialog without the token in a URL', async () => {
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await context.addInitScript(recordAttributes);
    const requests: Request[] = [];
    const responses: Response[] = [];
    context.on('request', (r) => requests.push(r));
    context.on('response', (r) => responses.push(r));
    const tabs: Page[] = [];
    context.on('page', (p) => tabs.push(p));

    await app.signIn(page, 'demo', 'cuentasclaras');
    await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
    await expect.poll(() => page.getByText(RFC).first().isVisible(), { timeout: 20_000 }).toBe(true);
    const token = await sessionToken(page);
    expect(token.length).toBeGreaterThanOrEqual(20);

    // A received invoice (the school's tuition) with its PDF and XML.
    const withReceipt = await findTicket(token, (t) => t.receipt !== null);
    await showRow(page, withReceipt.year, withReceipt.month, withReceipt.ticket.amount);
    const pdfButton = page.getByRole('button', { name: /^PDF de / }).first();
    await expect.poll(() => pdfButton.isVisible(), { timeout: 30_000 }).toBe(true);

    // The PDF, by keyboard: the new tab opens and goes to a signed link.
    const pdfTab = context.waitForEvent('page');
    await pdfButton.focus();
    await page.keyboard.press('Enter');
    const tab = await pdfTab;
    await expect.poll(() => responses.find((r) => r.url().includes('/receipt_pdf?'))?.status(), { timeout: 30_000 }).toBe(200);
    const pdfResponse = responses.find((r) => r.url().includes('/receipt_pdf?'))!;
    expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
    expect(pdfResponse.url()).toContain(`receipt_id=${withReceipt.ticket.receipt!.receipt_id}&link=`);
    // The link alone (no header, no cookie) serves the file: it is what opened.
    const pdfBytes = Buffer.from(await (await fetch(pdfResponse.url())).arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const tabUrls = await seenUrls(tab);

    // The XML, a download.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: /^XML de / }).first().click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xml$/);
    const xml = readFileSync((await download.path())!, 'utf8');
    expect(xml.toUpperCase()).toContain(withReceipt.ticket.receipt!.uuid.toUpperCase());
    expect(download.url()).toContain('/receipt_xml?');

    // A ticket image, in a new tab.
    const withImage = await findTicket(token, (t) => t.include_ticket_image);
    await showRow(page, withImage.year, withImage.month, withImage.ticket.amount);
    const imageButton = page.getByRole('button', { name: /^Ver imagen de / }).first();
    await expect.poll(() => imageButton.isVisible(), { timeout: 30_000 }).toBe(true);
    const imageTab = context.waitForEvent('page');
    await imageButton.click();
    const imgTab = await imageTab;
    await expect.poll(() => responses.find((r) => r.url().includes('/api/v2/ticket_image?'))?.status(), { timeout: 30_000 }).toBe(200);
    const imageResponse = responses.find((r) => r.url().includes('/api/v2/ticket_image?'))!;
    expect(imageResponse.url()).toContain(`ticket_id=${withImage.ticket.ticket_id}&link=`);
    expect(imageResponse.headers()['content-type']).toMatch(/^image\//);
    expect((await imageResponse.body()).byteLength).toBeGreaterThan(0);
    await imgTab.waitForLoadState();
    const imageTabUrls = await seenUrls(imgTab);

    // The import dialog: its statuses stream opens, with the token in the header.
    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Importar CFDIs' }).isVisible()).toBe(true);
    await expect.poll(() => responses.find((r) => r.url().includes('/files/statuses'))?.status(), { timeout: 30_000 }).toBe(200);
    const stream = responses.find((r) => r.url().includes('/files/statuses'))!;
    expect(stream.headers()['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.request().headers()['x-access-token']).toBe(token);

    // Nothing recorded holds the token, plain or escaped.
    const pageUrls = await seenUrls(page);
    const everything = [...requests.map((r) => r.url()), ...tabs.map((t) => t.url()), download.url(), ...pageUrls, ...tabUrls, ...imageTabUrls];
    expect(requests.length).toBeGreaterThan(10);
    expect(pageUrls.length).toBeGreaterThan(3);
    for (const needle of [token, encodeURIComponent(token)]) {
      expect(everything.filter((u) => u.includes(needle))).toEqual([]);
    }
    expect(everything.filter((u) => u.includes('access_token'))).toEqual([]);
    await context.close();
  });
});
