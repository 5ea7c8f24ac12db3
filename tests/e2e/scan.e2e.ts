// 'Escanear código' in real Chromium: a point of sale registers a ticket through the merchant API,
// its QR becomes a fake camera (a Y4M video made here, QR centred on 1280×720), and scanning on
// ticket/new opens that merchant's form with the ticket verified (prefilled from ref/check/total); the
// invoice is requested there and arrives through a real SMTP server (the app runs with SMTP_URL) with
// its PDF and an XML that SAT's XSD accepts, and the ticket shows as facturado in its month.
// Also: the camera turns off when the dialog closes, and a refused camera shows the Spanish message.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CFDI_TXT } from '../../src/app/scan/cfdi-card';
import { TXT } from '../../src/app/strings';
import { MSG } from '../../src/domain/messages';
import { formatMoney } from '../../src/domain/money';
import { qrFrameLuma, y4mVideo } from '../bench/qr-decode';
import { validateCfdi40 } from '../server/cfdi/sat-tools';
import { attachmentOf, startSmtp, type TestSmtp } from '../server/helpers/smtp';
import { CHROMIUM_ARGS, chromiumPath, startApp, type Running } from './harness';

const MERCHANT = 'copexa';
const SHOTS = '/tmp/shots-h5';
const RFC = 'GODE561231GR8';

let dataDir: string;
let app: Running;
let browser: Browser;
let ticket: { ref: string; qr: string; total: string; ticket_number: string };
let user: { username: string; password: string; token: string };
let smtp: TestSmtp;

/** Rotates the merchant's point-of-sale key with the CLI (before the server holds the embedded database). */
function merchantKey(dir: string): string {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/merchants/merchant-key.ts', MERCHANT], {
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  const key = out.trim().split('\n').pop() ?? '';
  if (!key.startsWith('ccm_')) throw new Error(`merchant-key: ${out}`);
  return key;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-scan-'));
  const key = merchantKey(dataDir);
  smtp = await startSmtp();
  app = await startApp({ DATA_DIR: dataDir, SMTP_URL: smtp.url });
  const issued = new Date(Date.now() - 3600_000).toISOString();
  const r = await app.api(`/api/v3/merchants/${MERCHANT}/tickets`, {
    method: 'POST',
    headers: { 'X-Merchant-Key': key },
    body: JSON.stringify({
      ticket_number: `E2E${String(Date.now() % 1_000_000).padStart(6, '0')}`, issued_at: issued, forma_pago: '04', check_code: 'AB12',
      venue: 'Sucursal Centro', items: [{ description: 'Cuaderno profesional', quantity: '3', unit_price: '45.50' }, { description: 'Plumas (paquete)', quantity: '1', unit_price: '62.00' }],
    }),
  });
  if (r.status !== 201) throw new Error(`merchant ticket ${r.status}: ${JSON.stringify(r.body)}`);
  const body = (r.body as { response: { ref: string; qr: string; total: string } }).response;
  ticket = { ...body, ticket_number: '' };
  const video = join(dataDir, 'ticket-qr.y4m');
  writeFileSync(video, y4mVideo(qrFrameLuma(body.qr, 6)));
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  user = await app.signUp(`scan${Date.now() % 100000}`, RFC, { first_name: 'Ana', last_name: 'Díaz' });
  // CFDI 4.0 needs the receiver's postal code and regime ('Editar información').
  const accounts = await app.api('/user_clients', { token: user.token });
  const id = (accounts.body as { response: { diverza_client_id: number }[] }).response[0]!.diverza_client_id;
  const edited = await app.api('/update_client', {
    method: 'PUT', token: user.token,
    body: JSON.stringify({ client: { diverza_client_id: id, rfc: RFC, first_name: 'Ana', last_name: 'Díaz', zip_code: '64000', regimen_fiscal: '612' } }),
  });
  if (edited.status !== 200) throw new Error(`update_client ${edited.status}: ${JSON.stringify(edited.body)}`);
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop();
  await smtp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(viewport: { width: number; height: number }, permissions: string[] = ['camera'], on: Browser = browser): Promise<Page> {
  const context = await on.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City', permissions });
  const page = await context.newPage();
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel('Usuario o correo').fill(user.username);
  await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForURL(/#\/(home)?$/, { timeout: 30_000 });
  return page;
}

/** Live camera tracks of the page (the fake device counts like a real one). */
const liveTracks = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll('video')).flatMap((v) => (v.srcObject as MediaStream | null)?.getTracks().filter((t) => t.readyState === 'live') ?? []).length);

describe('Escanear código', () => {
  it('scanning a merchant ticket QR opens its form verified; the invoice arrives by SMTP, valid, and the ticket is facturado', async () => {
    const page = await signedIn({ width: 360, height: 780 });
    await page.goto(`${app.url}/#/ticket/new`);
    const scan = page.getByRole('button', { name: 'Escanear código' });
    await scan.waitFor({ timeout: 30_000 });
    // The fake camera can read the code within a frame or two, so the dialog may come and go before a
    // locator looks: an observer records that it showed, with its 'Cancelar' button.
    await page.evaluate(() => {
      const seen = window as unknown as { scanDialogSeen?: boolean };
      seen.scanDialogSeen = false;
      new MutationObserver(() => {
        const dialogs = Array.from(document.querySelectorAll('dialog, [role="dialog"]'));
        if (dialogs.some((d) => d.textContent?.includes('Escanear código') && Array.from(d.querySelectorAll('button')).some((b) => b.textContent?.trim() === 'Cancelar'))) seen.scanDialogSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await scan.click();
    const dialog = page.getByRole('dialog', { name: 'Escanear código' });
    await page.waitForURL(new RegExp(`#/merchant/${MERCHANT}\\?ref=${ticket.ref}&check=AB12&total=`), { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { scanDialogSeen?: boolean }).scanDialogSeen)).toBe(true);
    // The dialog is gone and so is the camera.
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await liveTracks(page)).toBe(0);
    // H4's merchant form verified the ticket from the QR: its summary shows the total.
    await expect.poll(() => page.getByText(formatMoney(ticket.total)).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'scan-result-360.png'), fullPage: true });

    // Request the invoice: RFC and e-mail come from the account.
    await expect.poll(() => page.getByLabel('RFC', { exact: true }).inputValue(), { timeout: 30_000 }).toBe(RFC);
    await page.getByRole('button', { name: 'Facturar' }).click();
    await expect
      .poll(async () => (await page.getByText(MSG.invoiceSent).count()) + (await page.getByText(MSG.invoiceGenerated).count()), { timeout: 90_000 })
      .toBeGreaterThan(0);
    // The e-mail reached the SMTP server with the PDF and an XML that SAT's schema accepts.
    const email = `${user.username}@ejemplo.mx`;
    await expect.poll(() => smtp.received.some((m) => m.to.includes(email)), { timeout: 90_000, interval: 500 }).toBe(true);
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    const uuid = /filename="?factura-([0-9A-F-]{36})\.xml/i.exec(mail.raw)?.[1];
    expect(uuid, 'the XML attachment is named after the UUID').toBeDefined();
    const pdf = attachmentOf(mail.raw, `factura-${uuid}.pdf`);
    expect(pdf?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const xml = attachmentOf(mail.raw, `factura-${uuid}.xml`)!.toString('utf8');
    expect(xml).toContain(`UUID="${uuid}"`);
    expect(xml).toContain(`Rfc="${RFC}"`);
    const verdict = validateCfdi40(xml, 'e2e-scan-invoice.xml');
    expect(verdict.valid, verdict.errors).toBe(true);
    // And the ticket is 'facturado' in the month of the purchase.
    const issued = new Date(Date.now() - 3600_000);
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: 'numeric' }).formatToParts(issued);
    const year = parts.find((p) => p.type === 'year')!.value;
    const month = parts.find((p) => p.type === 'month')!.value;
    await expect
      .poll(async () => {
        const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`, { token: user.token });
        const list = (res.body as { response?: { tickets: { company_short_name: string; ticket_status_name: string; receipt: { uuid: string } | null }[] } }).response?.tickets ?? [];
        return list.some((t) => t.company_short_name === MERCHANT && t.ticket_status_name === 'facturado' && t.receipt?.uuid === uuid);
      }, { timeout: 60_000, interval: 1000 })
      .toBe(true);
    await page.context().close();
  });

  it('shows the viewfinder at 360 px and 1280 px, and Cancelar stops the camera', async () => {
    // Opened and cancelled before a code is read, at both widths.
    for (const viewport of [{ width: 360, height: 780 }, { width: 1280, height: 800 }]) {
      const page = await signedIn(viewport);
      await page.goto(`${app.url}/#/ticket/new`);
      // Keep the decoder from reading (frames are never drawn: it sees blank canvases) so the open dialog can be looked at.
      await page.evaluate(() => {
        CanvasRenderingContext2D.prototype.drawImage = () => undefined;
      });
      await page.getByRole('button', { name: 'Escanear código' }).click();
      const dialog = page.getByRole('dialog', { name: 'Escanear código' });
      await dialog.waitFor();
      await expect.poll(() => liveTracks(page)).toBe(1);
      await expect.poll(() => dialog.getByRole('status').first().textContent()).toBe('Buscando un código QR…');
      await page.screenshot({ path: join(SHOTS, `scan-dialog-${viewport.width}.png`) });
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect.poll(() => liveTracks(page)).toBe(0);
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      // Focus went back to the button that opened it.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Escanear código');
      await page.context().close();
    }
  });

  it('a refused camera explains what to do in Spanish', async () => {
    const page = await signedIn({ width: 360, height: 780 }, []);
    await page.goto(`${app.url}/#/ticket/new`);
    // No permission granted and no prompt UI: getUserMedia is refused.
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: 'Escanear código' }).click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(MSG.cameraUnavailable);
    await page.screenshot({ path: join(SHOTS, 'scan-camera-error-360.png') });
    await page.context().close();
  });

  it("a CFDI's SAT QR is looked up; one we do not have offers importing its files", async () => {
    // Another fake camera: SAT's verification QR of an invoice this server never saw.
    const sat = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5FB2822E-396D-4725-8521-CDC4BDD20CCF&re=EKU9003173C9&rr=GODE561231GR8&tt=1160.000000&fe=Ld8qOA==';
    const video = join(dataDir, 'sat-qr.y4m');
    writeFileSync(video, y4mVideo(qrFrameLuma(sat, 5)));
    const other = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    try {
      const page = await signedIn({ width: 360, height: 780 }, ['camera'], other);
      await page.goto(`${app.url}/#/ticket/new`);
      await page.getByRole('button', { name: 'Escanear código' }).click();
      const dialog = page.getByRole('dialog', { name: 'Escanear código' });
      await expect.poll(() => dialog.getByText(CFDI_TXT.unknown).count(), { timeout: 30_000 }).toBe(1);
      // The camera is off while the card shows.
      expect(await liveTracks(page)).toBe(0);
      await page.screenshot({ path: join(SHOTS, 'scan-cfdi-unknown-360.png') });
      await dialog.getByRole('button', { name: CFDI_TXT.importFiles }).click();
      await expect.poll(() => page.getByRole('dialog', { name: TXT.importTitle }).count()).toBe(1);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
