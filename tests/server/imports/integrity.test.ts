// Integrity on import, through the real upload route and the parse workers: a CFDI whose Sello does
// not verify is still imported, with seal 'invalido' on its receipt; a sandbox-stamped one is
// 'valido' twice; a timbre whose UUID is not one (all zeros, wrong shape) is refused with its reason.
// SAT's CFDI 4.0 findings are stored with them. The other ways a receipt is made check too: an import without the workers (a QR lookup) and
// saveReceipt (the invoices we issue, the demo's).
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { readCfdi } from '../../../src/server/cfdi/read';
import { openTestCsd } from '../../../src/server/cfdi/seal';
import { receipts, tickets } from '../../../src/server/db/schema';
import { importCfdiBatch } from '../../../src/server/imports/import-cfdi';
import { factsFromCfdi, saveReceipt } from '../../../src/server/cfdi/receipts';
import { DRIVERS } from '../helpers/harness';
import { sampleInput } from '../cfdi/sat-tools';
import { fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv, type User } from './import-helpers';

const text = (name: string) => new TextDecoder().decode(fixture(name));
const ALTERED = 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml'; // edited after stamping (SOURCES.md)
const REAL = 'cfdi40-ingreso-real-pase-stamped.xml';
const EKU = openTestCsd('EKU9003173C9');
/** Stamped seconds after sampleInput's Fecha (2026-05-01 12:00 at 42501, UTC-6): a PAC stamps within 72 hours. */
const STAMPED_AT = new Date('2026-05-01T18:00:10Z');

describe.each(DRIVERS)('integrity on import (%s)', (driver) => {
  let env: ImportEnv;
  let user: User;

  importEnvPerSuite(driver, async (e) => {
    env = e;
    user = await userWith(env, ['URE180429TM6', 'COSC8001137NA', 'XIQB891116QE4']);
  });

  async function importOne(name: string, bytes: Uint8Array) {
    const r = await upload(env, user, [{ name, bytes }]);
    expect(r.status).toBe(200);
    const [row] = await settled(env, [r.json.response.files[0].id]);
    return row!;
  }

  /** What the receipts store about their integrity. */
  const checksOf = ({ receiptIds }: { receiptIds: string[] }) =>
    env.h.database.db.select({ seal: receipts.seal, sealSat: receipts.sealSat, findings: receipts.findings }).from(receipts).where(inArray(receipts.id, receiptIds));

  /** The receipts behind an upload's tickets. */
  const receiptsOfUpload = async (ticketIds: string[]) =>
    (await env.h.database.db.select({ receiptId: tickets.receiptId }).from(tickets).where(inArray(tickets.id, ticketIds))).map((r) => r.receiptId!);

  it('imports an altered CFDI (not refused) and stores seal invalido on its receipt', async () => {
    const row = await importOne('alterado.xml', fixture(ALTERED));
    expect(row).toMatchObject({ status: 'importado', reason: null });
    expect(await checksOf({ receiptIds: await receiptsOfUpload(row.ticketIds) })).toEqual([{ seal: 'invalido', sealSat: 'sin_verificar', findings: expect.any(Array) }]);
  });

  it('a real CFDI altered by one byte is imported with seal invalido; the original is valido', async () => {
    const altered = text(REAL).replace('Total="1000.00"', 'Total="1000.01"');
    const row = await importOne('uno.xml', utf8(altered));
    expect(row.status).toBe('importado');
    expect(await checksOf({ receiptIds: await receiptsOfUpload(row.ticketIds) })).toMatchObject([{ seal: 'invalido', sealSat: 'sin_verificar' }]);
    // The same UUID unaltered, in another user's account: valido (SAT's stamping certificate is not shipped).
    const other = await userWith(env, ['COSC8001137NA']);
    const r = await upload(env, other, [{ name: 'real.xml', bytes: fixture(REAL) }]);
    const [ok] = await settled(env, [r.json.response.files[0].id]);
    expect(ok!.status).toBe('importado');
    expect(await checksOf({ receiptIds: await receiptsOfUpload(ok!.ticketIds) })).toMatchObject([{ seal: 'valido', sealSat: 'sin_verificar' }]);
  });

  it('a CFDI stamped by our sandbox PAC: seal and seal_sat valido', async () => {
    const { xml } = await issueSandboxCfdi(sampleInput({ folio: 'INT-1' }), EKU, { at: STAMPED_AT });
    const row = await importOne('sandbox.xml', utf8(xml));
    expect(row.status).toBe('importado');
    expect(await checksOf({ receiptIds: await receiptsOfUpload(row.ticketIds) })).toMatchObject([{ seal: 'valido', sealSat: 'valido' }]);
  });

  it('refuses a timbre whose UUID is all zeros or not a UUID, with the reason', async () => {
    const { xml, uuid } = await issueSandboxCfdi(sampleInput({ folio: 'INT-2' }), EKU, { at: STAMPED_AT });
    const zeros = await importOne('ceros.xml', utf8(xml.replace(uuid, '00000000-0000-0000-0000-000000000000')));
    expect(zeros).toMatchObject({ status: 'rechazado', reason: MSG.cfdiBadUuid, ticketIds: [] });
    const short = await importOne('corto.xml', utf8(xml.replace(uuid, uuid.slice(0, 30))));
    expect(short).toMatchObject({ status: 'rechazado', reason: MSG.cfdiBadUuid, ticketIds: [] });
    expect(MSG.cfdiBadUuid).toMatch(/^El folio fiscal \(UUID\) .*no es válido/);
  });

  it('keeps the two fixtures that share a well-formed fake UUID: the first imported, the second a duplicate', async () => {
    const owner = await userWith(env, ['KIJ0906199R1']);
    const r = await upload(env, owner, [
      { name: 'iva8.xml', bytes: fixture('cfdi40-ingreso-iva8-frontera-simulated-tfd.xml') },
      { name: 'noobjeto.xml', bytes: fixture('cfdi40-ingreso-noobjeto-simulated-tfd.xml') },
    ]);
    const rows = await settled(env, (r.json.response.files as { id: string }[]).map((f) => f.id));
    expect(rows.map((x) => [x.name, x.status]).sort()).toEqual([['iva8.xml', 'importado'], ['noobjeto.xml', 'duplicado']]);
  });

  it("stores SAT's CFDI 4.0 findings with their codes, without the Sello rule the seal already reports", async () => {
    const owner = await userWith(env, ['KIJ0906199R1']);
    const r = await upload(env, owner, [{ name: 'pago.xml', bytes: fixture('cfdi40-pago20-iva16-simulated-tfd.xml') }]);
    const [row] = await settled(env, [r.json.response.files[0].id]);
    expect(row!.status).toBe('importado');
    // Its timbre was simulated (SelloCFD is not its Sello) and its issuer's régimen is not a persona moral's.
    expect(await checksOf({ receiptIds: await receiptsOfUpload(row!.ticketIds) })).toEqual([
      { seal: 'invalido', sealSat: 'sin_verificar', findings: [{ code: 'CFDI40141', message: expect.stringMatching(/RegimenFiscal/) }] },
    ]);
  });

  it('an import without the parse workers (a CFDI fetched by its QR) checks its seals too', async () => {
    const owner = await userWith(env, ['URE180429TM6']);
    const clientId = owner.clientIds.get('URE180429TM6')!;
    const out = await importCfdiBatch(env.h.database.db, env.h.files, owner.userId, [{ clientId, rfc: 'URE180429TM6' }], [{ uploadId: 'qr', bytes: fixture(ALTERED) }], new Date(), async () => undefined);
    const o = out.get('qr')!;
    expect(o.status).toBe('importado');
    expect(await checksOf({ receiptIds: o.receiptIds })).toMatchObject([{ seal: 'invalido', sealSat: 'sin_verificar' }]);
  });

  it('saveReceipt (our issued invoices, the demo data) verifies the XML it keeps rather than assuming it good', async () => {
    const owner = await userWith(env, ['EKU9003173C9']);
    const clientId = owner.clientIds.get('EKU9003173C9')!;
    const { xml } = await issueSandboxCfdi(sampleInput({ folio: 'INT-3' }), EKU, { at: STAMPED_AT });
    const read = readCfdi(utf8(xml));
    if (!read.ok) throw new Error(read.reason);
    const saved = await saveReceipt(env.h.database.db, env.h.files, { userId: owner.userId, clientId, facts: factsFromCfdi(read.cfdi), xml: utf8(xml) });
    expect(await checksOf({ receiptIds: [saved.id] })).toMatchObject([{ seal: 'valido', sealSat: 'valido' }]);

    const tampered = xml.replace('Café americano', 'Cafe americano');
    const readT = readCfdi(utf8(tampered));
    if (!readT.ok) throw new Error(readT.reason);
    const other = await userWith(env, ['EKU9003173C9']);
    const savedT = await saveReceipt(env.h.database.db, env.h.files, { userId: other.userId, clientId: other.clientIds.get('EKU9003173C9')!, facts: factsFromCfdi(readT.cfdi), xml: utf8(tampered) });
    expect(await checksOf({ receiptIds: [savedT.id] })).toMatchObject([{ seal: 'invalido', sealSat: 'valido' }]);
  });
});
