// Importing every file of tests/fixtures/cfdi: uploaded by a user whose accounts are the
// fixtures' receivers (spending) and by another whose account is the school that issues many of them
// (income); each file's outcome — status, ticket type, amount, UUID, refusal reason — as a table.
import { readdirSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { receipts, tickets } from '../../../src/server/db/schema';
import { notYoursReason } from '../../../src/server/imports/import-cfdi';
import { DRIVERS } from '../helpers/harness';
import { FIXTURES, fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv, type User } from './import-helpers';

const RECEIVERS = ['COSC8001137NA', 'URE180429TM6', 'MCI7306249Y1', 'KIJ0906199R1', 'DIM8701081LA', 'MEBS780711118', 'XOJI740919U48', 'ICV060329BY0'];
const SCHOOL = 'EKU9003173C9';

type Expect =
  | { status: 'importado' | 'duplicado'; rfc: string; uuid: string; amount: string; fecha?: string; type?: number }
  | { status: 'rechazado'; reason: string };

const NO_UUID = { status: 'rechazado', reason: MSG.cfdiNoUuid } as const;
const RETENCIONES = { status: 'rechazado', reason: MSG.cfdiRetenciones } as const;

/** As the receivers' user (uploaded together, in this order, so same-UUID pairs show the duplicate). */
const AS_RECEIVER: Record<string, Expect> = {
  'cfdi32-ingreso-real-legacy-stamped.xml': { status: 'rechazado', reason: notYoursReason('CTO021007DZ8', 'XAXX010101000') },
  'cfdi33-ingreso-multiples-tasas-stamped.xml': { status: 'importado', rfc: 'MEBS780711118', uuid: '1FBA4626-947B-49AC-BCD4-A4AF266B3DBF', amount: '300.00' },
  'cfdi33-ingreso-publico-general-detallista-stamped.xml': { status: 'rechazado', reason: notYoursReason('LAN8507268IA', 'XAXX010101000') },
  'cfdi33-ingreso-real-implocal-stamped.xml': { status: 'importado', rfc: 'DIM8701081LA', uuid: 'CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC', amount: '2010.01', fecha: '2018-01-12T08:15:01-06:00' },
  'cfdi33-ingreso-traslados-retenciones-stamped.xml': { status: 'importado', rfc: 'COSC8001137NA', uuid: '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', amount: '2382870.00' },
  'cfdi33-ingreso-usd-tipocambio-unstamped.xml': NO_UUID,
  // Same UUID as the one above, same receiver: a duplicate, not a second ticket.
  'cfdi33-pago10-stamped.xml': { status: 'duplicado', rfc: 'COSC8001137NA', uuid: '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', amount: '2382870.00' },
  'cfdi40-ingreso-acuentaterceros-sw-stamped.xml': { status: 'importado', rfc: 'URE180429TM6', uuid: 'D69E0C63-8F17-4FB3-9838-D834FD901474', amount: '180.00' },
  'cfdi40-ingreso-eku-descuento-stamped.xml': { status: 'importado', rfc: 'MCI7306249Y1', uuid: '6F35D3B5-3651-5370-BC2C-14CDBE384CD7', amount: '3327.01' },
  'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml': { status: 'importado', rfc: 'ICV060329BY0', uuid: 'F08A8B8C-26DB-5385-86AF-2A1D354C5CC3', amount: '1191.95' },
  'cfdi40-ingreso-iva8-frontera-simulated-tfd.xml': { status: 'importado', rfc: 'KIJ0906199R1', uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0', amount: '16621.52' },
  'cfdi40-ingreso-noobjeto-simulated-tfd.xml': { status: 'duplicado', rfc: 'KIJ0906199R1', uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0', amount: '16621.52' },
  'cfdi40-ingreso-real-pase-stamped.xml': { status: 'importado', rfc: 'COSC8001137NA', uuid: 'C2832671-DA6D-11EF-A83D-00155D012007', amount: '1000.00' },
  'cfdi40-ingreso-real-resico626-stamped.xml': { status: 'importado', rfc: 'MCI7306249Y1', uuid: '04BF2854-FE7D-4377-9196-71248F060ABB', amount: '459.36' },
  'cfdi40-ingreso-retenciones-sw-stamped.xml': { status: 'importado', rfc: 'URE180429TM6', uuid: '81B3DBC2-8A68-4850-9FA5-2D017A98D26F', amount: '228.00' },
  'cfdi40-ingreso-usd-tipocambio-unstamped.xml': NO_UUID,
  'cfdi40-nomina12-demo-unsigned.xml': { status: 'rechazado', reason: MSG.cfdiBadUuid }, // the all-zero UUID of a placeholder timbre
  // Payroll is the employee's income (cfdi/books.ts).
  'cfdi40-nomina12-sw-stamped.xml': { status: 'importado', rfc: 'XOJI740919U48', uuid: '1AC10691-E5C5-422F-9EC0-0AAFE486D493', amount: '4700.00', fecha: '2024-03-01T00:00:00-06:00', type: 3 },
  // A payment is a document: the invoice it pays was counted already.
  'cfdi40-pago20-iva16-simulated-tfd.xml': { status: 'importado', rfc: 'KIJ0906199R1', uuid: '5B64ADA3-AA4C-40B4-A2F5-572CED52BE31', amount: '0.00' },
  'cfdi40-pago20-sw-stamped.xml': { status: 'importado', rfc: 'URE180429TM6', uuid: '080CF54E-F9DB-4470-BF0D-A8613DC10B24', amount: '0.00' },
  'cfdi40-pago20-unstamped.xml': NO_UUID,
  'cfdi40-pago20-usd-extranjero-unsigned.xml': NO_UUID,
  'cfdi40-pago20-usd-pays-mxn-docs-unsigned.xml': NO_UUID,
  'edge-cfdi33-sello-with-line-breaks-stamped.xml': { status: 'rechazado', reason: notYoursReason(SCHOOL, 'XAXX010101000') },
  'edge-cfdi40-multiple-tfd-addenda-random-values.xml': { status: 'rechazado', reason: notYoursReason('SKDR690105TM0', '&ÑOZ291130QPA') },
  'invalid-cfdi33-malformed-xml.xml': { status: 'rechazado', reason: MSG.cfdiMalformed },
  'invalid-cfdi33-pago10-sample-errors.xml': NO_UUID,
  'invalid-cfdi33-registro-fiscal-fake-rfcs.xml': NO_UUID,
  'invalid-cfdi40-bom-nonsense-values-fake-tfd.xml': { status: 'rechazado', reason: `${MSG.cfdiMissing} Complemento/Pagos` },
  'invalid-cfdi40-malformed-random-values.xml': { status: 'rechazado', reason: MSG.cfdiMalformed },
  'invalid-cfdi40-pagos-in-ingreso-bad-version.xml': NO_UUID,
  'retenciones20-foreign-min-fake.xml': RETENCIONES,
  'retenciones20-mexican-min-fake.xml': RETENCIONES,
  'retenciones20-stamped.xml': RETENCIONES,
};

/** The school's own CFDI, as income in its account (type 3; its payroll is spending, type 2); the rest are not its RFC. */
const AS_ISSUER: Record<string, string | { amount: string; type: number }> = {
  'cfdi33-ingreso-traslados-retenciones-stamped.xml': '2382870.00',
  'cfdi40-ingreso-acuentaterceros-sw-stamped.xml': '180.00',
  'cfdi40-ingreso-eku-descuento-stamped.xml': '3327.01',
  'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml': '1191.95',
  'cfdi40-ingreso-retenciones-sw-stamped.xml': '228.00',
  'cfdi40-nomina12-sw-stamped.xml': { amount: '4700.00', type: 2 },
  'cfdi40-pago20-sw-stamped.xml': '0.00',
  'edge-cfdi33-sello-with-line-breaks-stamped.xml': '697.80',
};

// ours-* are written for single rules (books.test.ts), not public samples.
const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml') && !f.startsWith('ours-')).sort();

describe.each(DRIVERS)('CFDI fixtures imported on %s', (driver) => {
  let env: ImportEnv;
  let receiver: User;
  let school: User;
  const first = new Map<string, { status: string; reason: string | null; ticketIds: string[] }>();

  importEnvPerSuite(driver, async (e) => {
    env = e;
    receiver = await userWith(env, RECEIVERS);
    school = await userWith(env, [SCHOOL]);
  });

  it('has an expected outcome for every fixture', () => {
    expect(Object.keys(AS_RECEIVER).sort()).toEqual(names);
  });

  it('imports each fixture as the receiver: spending in the receiver account, duplicates and refusals with their reason', async () => {
    const r = await upload(env, receiver, names.map((name) => ({ name, bytes: fixture(name) })));
    expect(r.status).toBe(200);
    const files = r.json.response.files as { id: string; name: string; status: string }[];
    expect(files.map((f) => f.name)).toEqual(names);
    expect(files.every((f) => f.status === 'recibido')).toBe(true);
    const rows = await settled(env, files.map((f) => f.id));
    const byName = new Map(rows.map((row) => [row.name, row]));
    const db = env.h.database.db;
    for (const name of names) {
      const want = AS_RECEIVER[name]!;
      const row = byName.get(name)!;
      first.set(name, { status: row.status, reason: row.reason, ticketIds: row.ticketIds });
      expect({ name, status: row.status, reason: row.reason }).toEqual({ name, status: want.status, reason: want.status === 'rechazado' ? want.reason : null });
      if (want.status === 'rechazado') {
        expect(row.ticketIds).toEqual([]);
        continue;
      }
      expect(row.ticketIds).toHaveLength(1);
      const [t] = await db
        .select({ type: tickets.type, status: tickets.statusId, company: tickets.companyId, amount: tickets.amount, clientId: tickets.clientId, uuid: receipts.uuid, receivedAt: tickets.receivedAt })
        .from(tickets)
        .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
        .where(eq(tickets.id, row.ticketIds[0]!));
      expect({ name, ...t, receivedAt: undefined }).toEqual({ name, type: want.type ?? 2, status: 4, company: 2, amount: want.amount, clientId: receiver.clientIds.get(want.rfc), uuid: want.uuid, receivedAt: undefined });
      if (want.fecha) expect(t!.receivedAt.toISOString()).toBe(new Date(want.fecha).toISOString());
    }
    // One receipt and one ticket per (account, UUID), whatever the duplicates.
    const all = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, receiver.userId));
    expect(all).toHaveLength(Object.values(AS_RECEIVER).filter((w) => w.status === 'importado').length);
  }, 60_000);

  it('answers duplicado for everything on a second upload, pointing at the same tickets', async () => {
    const r = await upload(env, receiver, names.map((name) => ({ name, bytes: fixture(name) })));
    const rows = await settled(env, (r.json.response.files as { id: string }[]).map((f) => f.id));
    for (const row of rows) {
      const before = first.get(row.name)!;
      if (before.status === 'rechazado') expect({ name: row.name, status: row.status, reason: row.reason }).toEqual({ name: row.name, status: 'rechazado', reason: before.reason });
      else {
        expect({ name: row.name, status: row.status }).toEqual({ name: row.name, status: 'duplicado' });
        expect(row.ticketIds).toEqual(before.ticketIds);
        expect(row.ticketIds).toHaveLength(1);
      }
    }
    const all = await env.h.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, receiver.userId));
    expect(all).toHaveLength(Object.values(AS_RECEIVER).filter((w) => w.status === 'importado').length);
  }, 60_000);

  it("imports the school's issued CFDI as income (type 3) in its account, refusing the others", async () => {
    const r = await upload(env, school, names.map((name) => ({ name, bytes: fixture(name) })));
    const rows = await settled(env, (r.json.response.files as { id: string }[]).map((f) => f.id));
    const db = env.h.database.db;
    for (const row of rows) {
      const issued = AS_ISSUER[row.name];
      if (!issued) {
        expect({ name: row.name, status: row.status }).toEqual({ name: row.name, status: 'rechazado' });
        continue;
      }
      expect({ name: row.name, status: row.status }).toEqual({ name: row.name, status: 'importado' });
      const [t] = await db.select({ type: tickets.type, amount: tickets.amount, clientId: tickets.clientId }).from(tickets).where(eq(tickets.id, row.ticketIds[0]!));
      const { amount, type } = typeof issued === 'string' ? { amount: issued, type: 3 } : issued;
      expect({ name: row.name, ...t }).toEqual({ name: row.name, type, amount, clientId: school.clientIds.get(SCHOOL) });
    }
  }, 60_000);

  it('refuses a CFDI whose total does not fit a ticket (the random-values fixture) with a reason, not a failed batch', async () => {
    const issuer = await userWith(env, ['SKDR690105TM0']);
    const r = await upload(env, issuer, [{ name: 'edge.xml', bytes: fixture('edge-cfdi40-multiple-tfd-addenda-random-values.xml') }, { name: 'otra.xml', bytes: fixture('cfdi40-ingreso-real-pase-stamped.xml') }]);
    const rows = await settled(env, (r.json.response.files as { id: string }[]).map((f) => f.id));
    expect(rows.find((x) => x.name === 'edge.xml')).toMatchObject({ status: 'rechazado', reason: `${MSG.cfdiInvalid} Total` });
    expect(rows.find((x) => x.name === 'otra.xml')).toMatchObject({ status: 'rechazado', reason: notYoursReason('ISD950921HE5', 'COSC8001137NA') });
  }, 30_000);

  it('converts a foreign-currency CFDI to pesos with its TipoCambio', async () => {
    const xml = new TextDecoder()
      .decode(fixture('cfdi40-ingreso-usd-tipocambio-unstamped.xml'))
      .replace(
        '</cfdi:Comprobante>',
        '<cfdi:Complemento><tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d" FechaTimbrado="2023-06-18T19:30:00" RfcProvCertif="SPR190613I52" SelloCFD="c2VsbG8=" NoCertificadoSAT="30001000000500003456" SelloSAT="c2F0"/></cfdi:Complemento></cfdi:Comprobante>',
      );
    const r = await upload(env, receiver, [{ name: 'usd.xml', bytes: utf8(xml) }]);
    const [row] = await settled(env, [r.json.response.files[0].id]);
    expect(row!.status).toBe('importado');
    const [t] = await env.h.database.db
      .select({ amount: tickets.amount, currency: receipts.currency, total: receipts.total })
      .from(tickets)
      .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
      .where(eq(tickets.id, row!.ticketIds[0]!));
    // 3,248.00 USD × 18.9008
    expect(t).toEqual({ amount: '61389.80', currency: 'USD', total: '3248.00' });
  }, 30_000);

  it('files a CFDI between two accounts of the same user in both: spending for the receiver, income for the issuer', async () => {
    const both = await userWith(env, [SCHOOL, 'URE180429TM6']);
    const r = await upload(env, both, [{ name: 'a.xml', bytes: fixture('cfdi40-ingreso-retenciones-sw-stamped.xml') }]);
    const [row] = await settled(env, [r.json.response.files[0].id]);
    expect(row!.ticketIds).toHaveLength(2);
    const ts = await env.h.database.db.select({ type: tickets.type, clientId: tickets.clientId }).from(tickets).where(inArray(tickets.id, row!.ticketIds));
    expect(ts.sort((a, b) => a.type - b.type)).toEqual([
      { type: 2, clientId: both.clientIds.get('URE180429TM6') },
      { type: 3, clientId: both.clientIds.get(SCHOOL) },
    ]);
    // With an account chosen, only that one gets it.
    const chosen = await userWith(env, [SCHOOL, 'URE180429TM6']);
    const r2 = await upload(env, chosen, [{ name: 'a.xml', bytes: fixture('cfdi40-ingreso-retenciones-sw-stamped.xml') }], { rfc: SCHOOL });
    const [row2] = await settled(env, [r2.json.response.files[0].id]);
    const ts2 = await env.h.database.db.select({ type: tickets.type, clientId: tickets.clientId }).from(tickets).where(and(inArray(tickets.id, row2!.ticketIds)));
    expect(ts2).toEqual([{ type: 3, clientId: chosen.clientIds.get(SCHOOL) }]);
  }, 30_000);
});
