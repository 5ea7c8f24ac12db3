// Zips, PDFs and bad input on import: zips (the fixtures' SAT packages, nested folders, PDFs
// matched to their XML), PDFs alone, and hostile files — each refused with its reason, fast, without
// losing the rest of the batch.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { receipts, tickets, uploads } from '../../../src/server/db/schema';
import { DRIVERS } from '../helpers/harness';
import { FIXTURES, fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv, type UploadRow, type User } from './import-helpers';
import { makeZip } from './zip-maker';

const CFDI = 'cfdi40-ingreso-retenciones-sw-stamped.xml'; // EKU9003173C9 → URE180429TM6, 228.00
const CFDI_UUID = '81B3DBC2-8A68-4850-9FA5-2D017A98D26F';
const OTHER = 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml'; // EKU9003173C9 → URE180429TM6, 180.00
const OTHER_UUID = 'D69E0C63-8F17-4FB3-9838-D834FD901474';
const RECEIVER = 'URE180429TM6';

function pdfWith(lines: string[]): Promise<Uint8Array> {
  return new Promise((done) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => done(new Uint8Array(Buffer.concat(chunks))));
    for (const l of lines) doc.text(l);
    doc.end();
  });
}

const byName = (rows: UploadRow[]) => new Map(rows.map((r) => [r.name, r]));
const outcome = (r: UploadRow | undefined) => (r ? { status: r.status, reason: r.reason } : undefined);

describe.each(DRIVERS)('zip and PDF import on %s', (driver) => {
  let env: ImportEnv;
  importEnvPerSuite(driver, (e) => (env = e));
  const fresh = (rfcs = [RECEIVER]): Promise<User> => userWith(env, rfcs);

  async function uploadOne(user: User, name: string, bytes: Uint8Array) {
    const r = await upload(env, user, [{ name, bytes }]);
    expect(r.status).toBe(200);
    const id = r.json.response.files[0].id as string;
    return { id, rows: await settled(env, [id]) };
  }

  it("imports the SAT package fixture: its CFDI once, the copy as duplicado, every other entry refused by content", async () => {
    const user = await fresh(['E&Ñ831019M53']);
    const { id, rows } = await uploadOne(user, 'paquete.zip', fixture('zip/descarga-masiva-cfdi-package-mixed.zip'));
    const m = byName(rows);
    expect(outcome(m.get('paquete.zip'))).toEqual({ status: 'importado', reason: null });
    expect(rows.filter((r) => r.parentId === id).map((r) => [r.name, r.status, r.reason]).sort()).toEqual(
      [
        ['00000000-0000-0000-0000-000000000000.xml', 'rechazado', MSG.importFileType],
        ['__MACOSX/.aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.xml', 'rechazado', MSG.importFileType],
        ['aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.xml', 'importado', null],
        ['aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.xml.xml', 'duplicado', null],
        ['empty-file', 'rechazado', MSG.importFileType],
        ['other.txt', 'rechazado', MSG.importFileType],
      ].sort(),
    );
    const t = await env.h.database.db.select({ amount: tickets.amount, type: tickets.type }).from(tickets).where(eq(tickets.userId, user.userId));
    expect(t).toEqual([{ amount: '40600.00', type: 2 }]);
  }, 30_000);

  it('refuses every entry of the metadata packages (text files), keeping the zip itself', async () => {
    const user = await fresh();
    for (const z of ['descarga-masiva-metadata-package.zip', 'descarga-masiva-metadata-terceros-package.zip']) {
      const { id, rows } = await uploadOne(user, z, new Uint8Array(readFileSync(resolve(FIXTURES, 'zip', z))));
      const kids = rows.filter((r) => r.parentId === id);
      expect(kids.length).toBeGreaterThan(0);
      expect(kids.every((k) => k.status === 'rechazado' && k.reason === MSG.importFileType)).toBe(true);
      // Nothing of it imported: the zip itself is refused, not 'importado'.
      expect(outcome(rows.find((r) => r.id === id))).toEqual({ status: 'rechazado', reason: MSG.importZipNothingImported });
    }
  }, 30_000);

  it("gives the zip its entries' overall status: all refused → rechazado, all already imported → duplicado, mixed → importado, empty → rechazado", async () => {
    const user = await fresh();
    const refused = await uploadOne(user, 'malos.zip', makeZip([{ name: 'a.txt', data: utf8('hola') }, { name: 'b.xml', data: utf8('<a/>') }]));
    expect(outcome(refused.rows.find((r) => r.id === refused.id))).toEqual({ status: 'rechazado', reason: MSG.importZipNothingImported });
    expect(refused.rows.filter((r) => r.parentId === refused.id).map((r) => r.status)).toEqual(['rechazado', 'rechazado']);

    const mixed = await uploadOne(user, 'mezcla.zip', makeZip([{ name: 'bueno.xml', data: fixture(CFDI) }, { name: 'nota.txt', data: utf8('hola') }]));
    const m = byName(mixed.rows);
    expect(outcome(m.get('mezcla.zip'))).toEqual({ status: 'importado', reason: null });
    expect(outcome(m.get('bueno.xml'))).toEqual({ status: 'importado', reason: null });
    expect(outcome(m.get('nota.txt'))).toEqual({ status: 'rechazado', reason: MSG.importFileType });

    const again = await uploadOne(user, 'otra-vez.zip', makeZip([{ name: 'copia.xml', data: fixture(CFDI) }]));
    expect(outcome(again.rows.find((r) => r.id === again.id))).toEqual({ status: 'duplicado', reason: null });
    expect(again.rows.filter((r) => r.parentId === again.id).map((r) => r.status)).toEqual(['duplicado']);

    const empty = await uploadOne(user, 'vacio.zip', makeZip([]));
    expect(outcome(empty.rows.find((r) => r.id === empty.id))).toEqual({ status: 'rechazado', reason: MSG.importZipEmpty });
  }, 30_000);

  it('imports XMLs from nested folders and a zip one level inside; attaches a PDF by UUID in its name and one by same base name', async () => {
    const user = await fresh();
    const pdfA = await pdfWith(['Factura A']);
    const pdfB = await pdfWith(['Factura B']);
    const inner = makeZip([{ name: 'dentro/otro.xml', data: fixture(OTHER) }, { name: 'dentro/otro.pdf', data: pdfB }]);
    const zip = makeZip([
      { name: 'facturas/2025/abril/a.xml', data: fixture(CFDI) },
      { name: `pdfs/${CFDI_UUID.toLowerCase()}.pdf`, data: pdfA },
      { name: 'mas.zip', data: inner, method: 0 },
    ]);
    const { rows } = await uploadOne(user, 'lote.zip', zip);
    const m = byName(rows);
    expect(outcome(m.get('facturas/2025/abril/a.xml'))).toEqual({ status: 'importado', reason: null });
    expect(outcome(m.get('dentro/otro.xml'))).toEqual({ status: 'importado', reason: null });
    expect(outcome(m.get(`pdfs/${CFDI_UUID.toLowerCase()}.pdf`))).toEqual({ status: 'importado', reason: null });
    expect(outcome(m.get('dentro/otro.pdf'))).toEqual({ status: 'importado', reason: null });
    const rs = await env.h.database.db.select({ uuid: receipts.uuid, pdfKey: receipts.pdfKey, pdfSource: receipts.pdfSource }).from(receipts).where(eq(receipts.userId, user.userId));
    expect(rs.map((r) => [r.uuid, r.pdfSource]).sort()).toEqual([[CFDI_UUID, 'imported'], [OTHER_UUID, 'imported']].sort());
    const stored = await env.h.files.get(rs.find((r) => r.uuid === CFDI_UUID)!.pdfKey!);
    expect(Buffer.from(stored!).equals(Buffer.from(pdfA))).toBe(true);
  }, 30_000);

  it('attaches a PDF uploaded alone to the receipt whose UUID it shows', async () => {
    const user = await fresh();
    const xml = await uploadOne(user, 'a.xml', fixture(CFDI));
    const pdf = await pdfWith([`Folio fiscal: ${CFDI_UUID}`, 'Total: $228.00']);
    const { rows } = await uploadOne(user, 'factura.pdf', pdf);
    expect(outcome(rows[0])).toEqual({ status: 'importado', reason: null });
    expect(rows[0]!.ticketIds).toEqual(xml.rows[0]!.ticketIds);
    const [r] = await env.h.database.db.select({ pdfSource: receipts.pdfSource, pdfSize: receipts.pdfSize }).from(receipts).where(eq(receipts.userId, user.userId));
    expect(r).toEqual({ pdfSource: 'imported', pdfSize: pdf.byteLength });
    expect(await env.h.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId))).toHaveLength(1);
  }, 30_000);

  it('makes a ticket for review from a PDF with one of your RFCs and a total but no known UUID; refuses one with neither', async () => {
    const user = await fresh();
    const pdf = await pdfWith(['Emisor: EKU9003173C9', `Receptor: ${RECEIVER}`, 'Total: $1,234.50']);
    const { rows } = await uploadOne(user, 'sin-xml.pdf', pdf);
    expect(outcome(rows[0])).toEqual({ status: 'importado', reason: null });
    const [t] = await env.h.database.db
      .select({ status: tickets.statusId, type: tickets.type, amount: tickets.amount, note: tickets.note, imageType: tickets.imageType, clientId: tickets.clientId, imageKey: tickets.imageKey })
      .from(tickets)
      .where(eq(tickets.id, rows[0]!.ticketIds[0]!));
    expect({ ...t, imageKey: undefined }).toEqual({ status: 2, type: 2, amount: '1234.50', note: MSG.importPdfReviewNote, imageType: 'application/pdf', clientId: user.clientIds.get(RECEIVER), imageKey: undefined });
    expect(Buffer.from((await env.h.files.get(t!.imageKey!))!).equals(Buffer.from(pdf))).toBe(true);
    const nothing = await uploadOne(user, 'nada.pdf', await pdfWith(['Hola']));
    expect(outcome(nothing.rows[0])).toEqual({ status: 'rechazado', reason: MSG.importPdfNoMatch });
  }, 30_000);

  it('refuses a zip bomb (50 MB of zeros) before inflating it, and an entry whose header lies about its size; the good CFDI beside them imports', async () => {
    const user = await fresh();
    const zeros = new Uint8Array(50 * 1024 * 1024);
    const zip = makeZip([
      { name: 'bomba.xml', data: zeros },
      { name: 'mentira.xml', data: zeros, declaredSize: 1_000 },
      { name: 'buena.xml', data: fixture(CFDI) },
    ]);
    const heapBefore = process.memoryUsage().rss;
    const started = Date.now();
    const { rows } = await uploadOne(user, 'bomba.zip', zip);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - heapBefore).toBeLessThan(100 * 1024 * 1024);
    const m = byName(rows);
    expect(outcome(m.get('bomba.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipEntryTooLarge });
    expect(m.get('mentira.xml')?.status).toBe('rechazado');
    expect([MSG.importZipRatio, MSG.importZipCorrupt]).toContain(m.get('mentira.xml')?.reason);
    expect(outcome(m.get('buena.xml'))).toEqual({ status: 'importado', reason: null });
  }, 30_000);

  it('refuses a zip whose entries declare more than 200 MB in total, and one of more than 5,000 entries, whole', async () => {
    const user = await fresh();
    const big = makeZip(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.xml`, data: utf8('<a/>'), method: 0 as const, declaredSize: 2 * 1024 * 1024 })));
    const r1 = await uploadOne(user, 'enorme.zip', big);
    expect(outcome(r1.rows[0])).toEqual({ status: 'rechazado', reason: MSG.importZipTooLarge });
    const many = makeZip(Array.from({ length: 5_001 }, (_, i) => ({ name: `${i}.txt`, method: 0 as const })));
    const r2 = await uploadOne(user, 'muchos.zip', many);
    expect(outcome(r2.rows[0])).toEqual({ status: 'rechazado', reason: MSG.importZipTooManyEntries });
    expect(r2.rows).toHaveLength(1);
  }, 30_000);

  it('refuses zip slip names and symlinks (never used as paths) and imports the rest', async () => {
    const user = await fresh();
    const zip = makeZip([
      { name: '../../etc/passwd.xml', data: fixture(CFDI) },
      { name: '/abs/factura.xml', data: fixture(CFDI) },
      { name: 'C:\\Windows\\factura.xml', data: fixture(CFDI) },
      { name: 'enlace.xml', data: utf8('/etc/passwd'), unixMode: 0o120777 },
      { name: 'bien.xml', data: fixture(OTHER) },
    ]);
    const { rows } = await uploadOne(user, 'slip.zip', zip);
    const m = byName(rows);
    expect(outcome(m.get('../../etc/passwd.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipUnsafeName });
    expect(outcome(m.get('/abs/factura.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipUnsafeName });
    expect(outcome(m.get('C:\\Windows\\factura.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipUnsafeName });
    expect(outcome(m.get('enlace.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipSymlink });
    expect(outcome(m.get('bien.xml'))).toEqual({ status: 'importado', reason: null });
    const keys = await env.h.database.db.select({ xmlKey: receipts.xmlKey }).from(receipts).where(eq(receipts.userId, user.userId));
    expect(keys.every((k) => /^receipts\/\d+\/[0-9a-f-]+\.xml$/.test(k.xmlKey))).toBe(true);
  }, 30_000);

  it('refuses a zip inside a zip inside a zip, importing what the first two levels hold', async () => {
    const user = await fresh();
    const level3 = makeZip([{ name: 'tres.xml', data: fixture(CFDI) }]);
    const level2 = makeZip([{ name: 'tercero.zip', data: level3 }, { name: 'dos.xml', data: fixture(OTHER) }]);
    const level1 = makeZip([{ name: 'segundo.zip', data: level2 }]);
    const { rows } = await uploadOne(user, 'uno.zip', level1);
    const m = byName(rows);
    expect(outcome(m.get('tercero.zip'))).toEqual({ status: 'rechazado', reason: MSG.importZipNested });
    expect(outcome(m.get('dos.xml'))).toEqual({ status: 'importado', reason: null });
    expect(m.has('tres.xml')).toBe(false);
  }, 30_000);

  it('refuses an encrypted zip whole, and an encrypted entry alone in a mixed zip', async () => {
    const user = await fresh();
    const all = await uploadOne(user, 'cifrado.zip', makeZip([{ name: 'a.xml', data: fixture(CFDI), flags: 1 }]));
    expect(outcome(all.rows[0])).toEqual({ status: 'rechazado', reason: MSG.importZipEncrypted });
    const mixed = await uploadOne(user, 'mixto.zip', makeZip([{ name: 'a.xml', data: fixture(CFDI), flags: 1 }, { name: 'b.xml', data: fixture(OTHER) }]));
    const m = byName(mixed.rows);
    expect(outcome(m.get('a.xml'))).toEqual({ status: 'rechazado', reason: MSG.importZipEncrypted });
    expect(outcome(m.get('b.xml'))).toEqual({ status: 'importado', reason: null });
  }, 30_000);

  it('refuses per file: 2 MB + 1, a PNG, a DOCTYPE (billion laughs, fast), a broken zip — the good file of the request imports', async () => {
    const user = await fresh();
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>';
    const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><cfdi:Comprobante>&x;</cfdi:Comprobante>';
    const started = Date.now();
    const r = await upload(env, user, [
      { name: 'grande.xml', bytes: new Uint8Array(2 * 1024 * 1024 + 1).fill(0x20) },
      { name: 'foto.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) },
      { name: 'risas.xml', bytes: utf8(laughs) },
      { name: 'xxe.xml', bytes: utf8(xxe) },
      { name: 'roto.zip', bytes: utf8('PK\u0003\u0004 esto no es un zip') },
      { name: 'buena.xml', bytes: fixture(CFDI) },
    ]);
    expect(r.status).toBe(200);
    const files = r.json.response.files as { id: string; name: string; status: string; reason?: string }[];
    expect(files.map((f) => [f.name, f.status, f.reason])).toEqual([
      ['grande.xml', 'rechazado', MSG.importFileTooLarge],
      ['foto.png', 'rechazado', MSG.importFileType],
      ['risas.xml', 'recibido', undefined],
      ['xxe.xml', 'recibido', undefined],
      ['roto.zip', 'recibido', undefined],
      ['buena.xml', 'recibido', undefined],
    ]);
    const m = byName(await settled(env, files.map((f) => f.id)));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome(m.get('risas.xml'))).toEqual({ status: 'rechazado', reason: MSG.cfdiDoctype });
    expect(outcome(m.get('xxe.xml'))).toEqual({ status: 'rechazado', reason: MSG.cfdiDoctype });
    expect(outcome(m.get('roto.zip'))).toEqual({ status: 'rechazado', reason: MSG.importZipCorrupt });
    expect(outcome(m.get('buena.xml'))).toEqual({ status: 'importado', reason: null });
  }, 30_000);

  it('refuses 101 files at once, and another user id in the path', async () => {
    const user = await fresh();
    const r = await upload(env, user, Array.from({ length: 101 }, (_, i) => ({ name: `${i}.xml`, bytes: utf8('<a/>') })));
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ errors: [MSG.importTooMany] });
    const other = await fresh();
    const r2 = await upload(env, user, [{ name: 'a.xml', bytes: fixture(CFDI) }], { userId: other.userId });
    expect(r2.status).toBe(404);
    expect(await env.h.database.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.userId, [user.userId, other.userId]))).toEqual([]);
  }, 30_000);

  it('answers a replay of the same Idempotency-Key with the first response, importing once', async () => {
    const user = await fresh();
    const first = await upload(env, user, [{ name: 'a.xml', bytes: fixture(CFDI) }], { key: 'clave-subida-1' });
    const again = await upload(env, user, [{ name: 'a.xml', bytes: fixture(CFDI) }], { key: 'clave-subida-1' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    await settled(env, [first.json.response.files[0].id]);
    expect(await env.h.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, user.userId))).toHaveLength(1);
    expect(await env.h.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId))).toHaveLength(1);
  }, 30_000);
});
