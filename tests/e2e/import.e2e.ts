// 'Importar CFDIs' in Chromium: a fresh user whose account is the issuer of the fixtures drops
// three XMLs, a PDF and a zip on the modal (a synthetic DataTransfer), watches every file reach its final
// status from the live stream, and finds the tickets in their months with working PDF/XML links. On a
// phone the same modal lists a file refused on the phone and a re-upload as a duplicate.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { appPerFile } from './app-per-file';
import { waitForServiceWorker, type Running } from './harness';

const FIXTURES = fileURLToPath(new URL('../fixtures/cfdi', import.meta.url));
const SCREENS = '/tmp/cc-screens';
const RFC = 'EKU9003173C9';

/** Issued by EKU9003173C9, so each becomes an income of this account in the month of its emission date. */
const XMLS = [
  { file: 'cfdi40-ingreso-eku-descuento-stamped.xml', uuid: '6F35D3B5-3651-5370-BC2C-14CDBE384CD7', year: 2025, month: 2 },
  { file: 'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml', uuid: 'F08A8B8C-26DB-5385-86AF-2A1D354C5CC3', year: 2024, month: 6 },
  { file: 'cfdi40-ingreso-retenciones-sw-stamped.xml', uuid: '81B3DBC2-8A68-4850-9FA5-2D017A98D26F', year: 2025, month: 4 },
];
/** Packed in the zip, in folders (the SAT's bulk download nests them). The 3.3 one also names a related
 * CFDI (CfdiRelacionado); its own UUID is the TimbreFiscalDigital's. */
const ZIPPED = [
  { file: 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml', uuid: 'D69E0C63-8F17-4FB3-9838-D834FD901474', year: 2022, month: 2 },
  { file: 'cfdi33-ingreso-traslados-retenciones-stamped.xml', uuid: '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', year: 2021, month: 1 },
];

interface DropFile {
  name: string;
  type: string;
  base64: string;
}

const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`);
const asDrop = (name: string, type: string, bytes: Uint8Array): DropFile => ({ name, type, base64: Buffer.from(bytes).toString('base64') });

/** A small uncompressed PDF whose text names a CFDI's UUID (what a PDF sent next to its XML says). */
function pdfWithUuid(uuid: string): Uint8Array {
  const text = `BT /F1 10 Tf 20 100 Td (Folio fiscal: ${uuid}) Tj ET`;
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R >> endobj',
    `4 0 obj << /Length ${text.length} >> stream\n${text}\nendstream endobj`,
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n');
  return new TextEncoder().encode(body);
}

async function zipOf(entries: { path: string; bytes: Uint8Array }[]): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const e of entries) zip.file(e.path, e.bytes);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** Drops files on the modal's zone the way a browser does: dragenter, dragover, drop with a DataTransfer. */
async function drop(page: Page, files: DropFile[]): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    const zone = document.querySelector('[data-testid="import-drop"]');
    if (!zone) throw new Error('no drop zone');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, files);
}

const statusOf = (page: Page, name: string) =>
  page.getByRole('dialog', { name: 'Importar CFDIs' }).locator('.import-row').filter({ has: page.locator('.import-row__main', { hasText: name }) })
    .locator('.import-row__status').first().textContent({ timeout: 1_000 }).catch(() => null);

let app: Running;
let token: string;
appPerFile((a) => { app = a; }, SCREENS);

async function login(page: Page, username: string, password: string) {
  await app.signIn(page, username, password);
  await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
}

type ApiTicket = { ticket_id: string; ticket_type_id: number; receipt: { receipt_id: number | string; uuid: string } | null };

async function monthTickets(year: number, month: number): Promise<ApiTicket[]> {
  const q = `usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`;
  const res = await app.api(`/api/v2/tickets?${q}`, { token });
  return (res.body as { response: { tickets: ApiTicket[] } }).response.tickets;
}

describe('Importar CFDIs', () => {
  let user: { username: string; password: string; token: string };

  it('imports three XMLs, a PDF and a zip dropped on the modal, with live statuses, into the right months', async () => {
    user = await app.signUp('importa_cfdi', RFC, { name: 'ESCUELA KEMPER URGATE' });
    token = user.token;
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await login(page, user.username, user.password);

    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar CFDIs' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // Focus starts on the picker, which takes xml, pdf and zip, several at once.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Elegir archivos');
    const input = dialog.locator('input[type=file]');
    expect(await input.getAttribute('accept')).toBe('.xml,.pdf,.zip');
    expect(await input.getAttribute('multiple')).not.toBeNull();
    expect(await dialog.getByText('Arrastra aquí tus archivos XML, PDF o ZIP').isVisible()).toBe(true);

    const zip = await zipOf(ZIPPED.map((z, i) => ({ path: `${RFC}/2020-0${i + 1}/${z.uuid}.xml`, bytes: fixture(z.file) })));
    await drop(page, [
      ...XMLS.map((x) => asDrop(x.file, 'text/xml', fixture(x.file))),
      asDrop('folio-fiscal.pdf', 'application/pdf', pdfWithUuid(XMLS[0]!.uuid)),
      asDrop('descarga-sat.zip', 'application/zip', zip),
    ]);

    // Every row reaches its final status from the stream.
    for (const x of XMLS) await expect.poll(() => statusOf(page, x.file), { timeout: 60_000 }).toBe('Importado');
    await expect.poll(() => statusOf(page, 'folio-fiscal.pdf'), { timeout: 60_000 }).toMatch(/^(Importado|Duplicado|Rechazado)/);
    const zipRow = dialog.locator('.import-row').filter({ hasText: 'descarga-sat.zip' });
    await expect.poll(() => zipRow.locator('summary').textContent(), { timeout: 60_000 }).toMatch(/^2 importados, 0 duplicados, 0 rechazados/);
    await zipRow.locator('summary').click();
    expect(await zipRow.locator('.import-entry').count()).toBe(2);
    await expect.poll(() => page.getByText(/^Listo, importamos \d+ CFDI\.$/).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENS}/import-modal-1280.png` });

    // The tickets are in their emission months on the server, as incomes with their receipts.
    for (const x of [...XMLS, ...ZIPPED]) {
      const t = (await monthTickets(x.year, x.month)).find((k) => k.receipt?.uuid.toUpperCase() === x.uuid);
      expect(t, x.file).toBeDefined();
      expect(t!.ticket_type_id).toBe(3);
    }

    // …and on the dashboard of that month, with PDF and XML actions that serve the files (through a
    // short-lived signed link: no token in the URL).
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.selectOption('#picker-year', '2025');
    await page.selectOption('#picker-month', '2');
    const xmlButton = page.getByRole('button', { name: /^XML de / }).first();
    await expect.poll(() => xmlButton.isVisible(), { timeout: 30_000 }).toBe(true);
    const downloading = page.waitForEvent('download');
    await xmlButton.click();
    const download = await downloading;
    const xml = readFileSync((await download.path())!, 'utf8');
    expect(xml.toUpperCase()).toContain(XMLS[0]!.uuid);
    expect(xml).toBe(fixture(XMLS[0]!.file).toString('utf8')); // kept byte for byte
    // The new tab goes to the signed link (headless Chromium may show or download a PDF: the response tells).
    const served = context.waitForEvent('response', { predicate: (r) => r.url().includes('/receipt_pdf?'), timeout: 30_000 });
    await page.getByRole('button', { name: /^PDF de / }).first().click();
    const pdfResponse = await served;
    expect(pdfResponse.status()).toBe(200);
    expect(pdfResponse.url()).toMatch(/\/receipt_pdf\?receipt_id=[^&]+&link=/);
    const pdf = await fetch(pdfResponse.url()).then((r) => r.text());
    expect(pdf.slice(0, 5)).toBe('%PDF-');
    await context.close();
  });

  it('on a phone: the toolbar button, a file refused before sending, and a re-upload as a duplicate', async () => {
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    await login(page, user.username, user.password);
    // The phone's bottom bar keeps 'Agregar gasto' and offers the import next to it.
    const open = page.locator('.bottom-bar').getByRole('button', { name: 'Importar CFDIs' });
    await expect.poll(() => open.isVisible(), { timeout: 30_000 }).toBe(true);
    await page.screenshot({ path: `${SCREENS}/import-dashboard-360.png` });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Importar CFDIs' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await drop(page, [
      asDrop('foto.png', 'image/png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      asDrop('grande.xml', 'text/xml', new Uint8Array(2 * 1024 * 1024 + 1).fill(0x3c)),
      asDrop(XMLS[1]!.file, 'text/xml', fixture(XMLS[1]!.file)),
    ]);
    await expect.poll(() => statusOf(page, 'foto.png')).toBe(`No se envió: ${MSG.importFileType}`);
    await expect.poll(() => statusOf(page, 'grande.xml')).toBe(`No se envió: ${MSG.importFileTooLarge}`);
    await expect.poll(() => statusOf(page, XMLS[1]!.file), { timeout: 60_000 }).toMatch(/^Duplicado/);
    // More than 100 at once: none is sent.
    await drop(page, Array.from({ length: 101 }, (_, i) => asDrop(`f${i}.xml`, 'text/xml', new TextEncoder().encode('<x/>'))));
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(MSG.importTooMany);
    expect(await dialog.locator('.import-row').count()).toBe(3);
    await page.screenshot({ path: `${SCREENS}/import-modal-360.png` });
    await context.close();
  });

  it("offline: the batch waits in the outbox ('Pendientes de envío') and is imported on reconnect", async () => {
    const nomina = { file: 'cfdi40-nomina12-sw-stamped.xml', uuid: '1AC10691-E5C5-422F-9EC0-0AAFE486D493', year: 2024, month: 3 };
    const { context, page } = await app.newContext({ width: 1280, height: 800 });
    await login(page, user.username, user.password);
    await waitForServiceWorker(page);
    await page.waitForSelector('.dashboard .dashboard__account', { timeout: 30_000 });
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar CFDIs' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await drop(page, [asDrop(nomina.file, 'text/xml', fixture(nomina.file))]);
    await expect.poll(() => statusOf(page, nomina.file)).toBe('En espera de conexión');
    expect(await dialog.getByText('Sin conexión — guardamos los archivos en tu teléfono y los enviaremos al reconectar.').isVisible()).toBe(true);

    // The outbox lists it, like any other change waiting to be sent.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '1 cambio pendiente de envío' }).click();
    const outbox = page.getByRole('dialog', { name: 'Pendientes de envío' });
    await expect.poll(() => outbox.getByText(`Importación de ${nomina.file}`).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect((await monthTickets(nomina.year, nomina.month)).length).toBe(0);

    // Back online: sent with its Idempotency-Key, imported once, followed live in the reopened modal.
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Importar CFDIs' }).click();
    await expect.poll(() => statusOf(page, nomina.file), { timeout: 60_000 }).toBe('Importado');
    const tickets = await monthTickets(nomina.year, nomina.month);
    expect(tickets.filter((t) => t.receipt?.uuid.toUpperCase() === nomina.uuid)).toHaveLength(1);
    await context.close();
  });
});
