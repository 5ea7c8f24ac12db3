// The receipt view (top-level rule 1) in real Chromium: `#/tickets?ref=…` signed out shows the
// merchant ticket — venue logo and name, large total, lines, issuer RFC, folio in groups of 5, date,
// place, payment method and the 180×180 QR — and only an error line for an unknown ref or a link whose
// folio does not match. Screenshots at 360×780 and 1280×800 go to /tmp/shots-h5/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money';
import { startApp, type Running } from './harness';

const MERCHANT = 'copexa';
const SHOTS = '/tmp/shots-h5';
let dataDir: string;
let app: Running;
let ticket: { ref: string; total: string; number: string };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-view-'));
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/merchants/merchant-key.ts', MERCHANT], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  const key = out.trim().split('\n').pop() ?? '';
  app = await startApp({ DATA_DIR: dataDir });
  const number = `F${String(Date.now() % 1_000_000_000).padStart(9, '0')}X`;
  const r = await app.api(`/api/v3/merchants/${MERCHANT}/tickets`, {
    method: 'POST',
    headers: { 'X-Merchant-Key': key },
    body: JSON.stringify({
      ticket_number: number, issued_at: new Date(Date.now() - 7200_000).toISOString(), forma_pago: '28', venue: 'Sucursal Centro',
      items: [{ description: 'Cuaderno profesional', quantity: '3', unit_price: '45.50' }, { description: 'Plumas (paquete)', quantity: '1', unit_price: '62.00' }],
    }),
  });
  if (r.status !== 201) throw new Error(`merchant ticket ${r.status}: ${JSON.stringify(r.body)}`);
  const body = (r.body as { response: { ref: string; total: string } }).response;
  ticket = { ref: body.ref, total: body.total, number };
});

afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const groups = (s: string) => (s.match(/.{1,5}/g) ?? []).join(' ');

async function open(path: string, viewport = { width: 360, height: 780 }): Promise<Page> {
  const { page } = await app.newContext(viewport);
  await page.goto(`${app.url}/#${path}`);
  return page;
}

describe('ticket receipt view', () => {
  it('shows the ticket to anyone with its link, at phone and desktop widths', async () => {
    for (const viewport of [{ width: 360, height: 780 }, { width: 1280, height: 800 }]) {
      const page = await open(`/tickets?ref=${ticket.ref}`, viewport);
      const card = page.locator('article.receipt');
      await card.waitFor({ timeout: 30_000 });
      const text = (await card.textContent()) ?? '';
      for (const s of ['Copexa', formatMoney(ticket.total), 'Cuaderno profesional', 'Plumas (paquete)', 'EKU9003173C9', groups(ticket.number), 'Tarjeta de débito', 'Sucursal Centro']) {
        expect(text).toContain(s);
      }
      expect(text).toMatch(/\d{4}-\d{2}-\d{2}/);
      // The 180×180 QR and the logo loaded.
      const qr = page.getByRole('img', { name: 'Código QR para verificar este ticket' });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(180);
      expect(await qr.evaluate((img: HTMLImageElement) => [img.width, img.height])).toEqual([180, 180]);
      await expect.poll(() => page.locator('.receipt__logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // Signed out, it stays here (no redirect to login).
      expect(page.url()).toContain(`#/tickets?ref=${ticket.ref}`);
      await page.screenshot({ path: join(SHOTS, `receipt-${viewport.width}.png`), fullPage: true });
      await page.context().close();
    }
  });

  it('the QR link (ref, rfc, folio) opens the same receipt; a wrong folio or unknown ref only shows the error flag', async () => {
    const ok = await open(`/tickets?ref=${ticket.ref}&rfc=EKU9003173C9&folio=${ticket.number}`);
    await ok.locator('article.receipt').waitFor({ timeout: 30_000 });
    await ok.context().close();
    for (const path of [`/tickets?ref=${ticket.ref}&rfc=EKU9003173C9&folio=OTRO1`, '/tickets?ref=ZZZZZZZZZZZZZZZZ']) {
      const page = await open(path);
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent()).toBe('No pudimos mostrar este ticket.');
      expect(await page.locator('main.receipt-page').evaluate((m) => m.children.length)).toBe(1);
      await page.screenshot({ path: join(SHOTS, 'receipt-error-360.png') });
      await page.context().close();
    }
  });
});
