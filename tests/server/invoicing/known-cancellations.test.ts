// A CFDI that arrives in a second account after the first one learnt it was cancelled (SAT said so) or
// replaced: markKnownCancellations marks the new copy and takes its ticket out of the totals, and leaves
// CFDI nobody knows anything about alone; the upload import applies it to every batch.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MANUAL_COMPANY_ID } from '../../../src/domain/ticket';
import { readCfdi } from '../../../src/server/cfdi/read';
import { clients, receipts, ticketMonthTotals, tickets, users } from '../../../src/server/db/schema';
import { DEMO_USER } from '../../../src/server/db/demo-accounts';
import { markCfdiCancelled, markKnownCancellations } from '../../../src/server/cfdi/cancellation';
import { factsFromCfdi, saveReceipt } from '../../../src/server/cfdi/receipts';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { fixture, importEnvPerSuite, settled, upload, userWith, type ImportEnv } from '../imports/import-helpers';
import { fixtureXml } from '../receipts/receipt-fixtures';

const NOW = new Date('2026-11-22T18:00:00Z');

describe.each(DRIVERS)('known cancellations on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a second copy of a cancelled or replaced CFDI is marked on arrival and counts nothing; an unknown one is untouched', async () => {
    const db = h.database.db;
    const accounts = await db.select({ userId: users.id, clientId: clients.id }).from(clients).innerJoin(users, eq(users.id, clients.userId)).where(eq(users.username, DEMO_USER.username));
    const [first, second] = accounts;
    const save = async (file: string, owner: typeof first) => {
      const xml = fixtureXml(file);
      const read = readCfdi(xml);
      if (!read.ok) throw new Error(read.reason);
      const r = await saveReceipt(db, h.files, { ...owner!, facts: factsFromCfdi(read.cfdi), xml });
      const id = newId();
      await db.insert(tickets).values({ id, userId: owner!.userId, clientId: owner!.clientId, type: 2, statusId: 4, companyId: MANUAL_COMPANY_ID, amount: '100.00', receivedAt: NOW, receiptId: r.id, createdAt: NOW, updatedAt: NOW });
      return { uuid: read.cfdi.uuid, ticket: id };
    };
    const cancelled = await save('cfdi33-ingreso-traslados-retenciones-stamped.xml', first);
    const replaced = await save('cfdi40-ingreso-eku-descuento-stamped.xml', first);
    const unknown = await save('cfdi40-pago20-sw-stamped.xml', first);
    await db.update(receipts).set({ satStatus: 'Cancelado' }).where(eq(receipts.uuid, cancelled.uuid));
    await markCfdiCancelled(db, { uuid: cancelled.uuid, cancelStatus: null, satCancelled: true }, NOW);
    await markCfdiCancelled(db, { uuid: replaced.uuid, cancelStatus: 'en_proceso', replacedBy: '6F1E2B3C-0000-4000-8000-000000000001' }, NOW);

    const late = [await save('cfdi33-ingreso-traslados-retenciones-stamped.xml', second), await save('cfdi40-ingreso-eku-descuento-stamped.xml', second), await save('cfdi40-pago20-sw-stamped.xml', second)];
    await markKnownCancellations(db, h.files, [cancelled.uuid, replaced.uuid.toLowerCase(), unknown.uuid], NOW);
    const copies = await db.select({ uuid: receipts.uuid, clientId: receipts.clientId, cancelStatus: receipts.cancelStatus, replacedBy: receipts.replacedBy, satStatus: receipts.satStatus })
      .from(receipts).where(eq(receipts.clientId, second!.clientId));
    expect(copies.find((c) => c.uuid === cancelled.uuid)).toMatchObject({ satStatus: 'Cancelado', cancelStatus: null });
    expect(copies.find((c) => c.uuid === replaced.uuid)).toMatchObject({ cancelStatus: 'en_proceso', replacedBy: '6F1E2B3C-0000-4000-8000-000000000001' });
    expect(copies.find((c) => c.uuid === unknown.uuid)).toMatchObject({ cancelStatus: null, replacedBy: null, satStatus: null });
    const amounts = new Map((await db.select({ id: tickets.id, amount: tickets.amount }).from(tickets).where(inArray(tickets.id, late.map((l) => l.ticket)))).map((t) => [t.id, t.amount]));
    expect(late.map((l) => amounts.get(l.ticket))).toEqual(['0.00', '0.00', '100.00']);
  }, 60_000);
});

describe.each(DRIVERS)('an uploaded XML of a CFDI known cancelled on %s', (driver) => {
  let env: ImportEnv;
  importEnvPerSuite(driver, (e) => { env = e; });

  it('arrives marked, with its ticket at 0.00 in the month\'s books', async () => {
    const file = 'cfdi40-ingreso-eku-descuento-stamped.xml';
    const read = readCfdi(fixture(file));
    if (!read.ok) throw new Error(read.reason);
    const c = read.cfdi;
    const first = await userWith(env, [c.receiver.rfc]);
    const second = await userWith(env, [c.receiver.rfc]);
    const up = async (u: typeof first) => {
      const r = await upload(env, u, [{ name: 'factura.xml', bytes: fixture(file) }], { rfc: c.receiver.rfc });
      expect(r.status, r.text).toBeLessThan(300);
      const ids = (r.json.response.files as { id: string }[]).map((f) => f.id);
      const rows = await settled(env, ids);
      expect(rows.map((x) => x.status)).toEqual(['importado']);
    };
    await up(first);
    const db = env.h.database.db;
    await db.update(receipts).set({ satStatus: 'Cancelado' }).where(eq(receipts.uuid, c.uuid));
    await markCfdiCancelled(db, { uuid: c.uuid, cancelStatus: null, satCancelled: true }, new Date());
    await up(second);
    // The job marks known cancellations right after the batch's transaction (which writes 'importado')
    // commits, so on a busy machine the mark can land a moment after the status: wait for it, briefly.
    const copy = await vi.waitFor(async () => {
      const [row] = await db.select({ id: receipts.id, satStatus: receipts.satStatus }).from(receipts).where(eq(receipts.clientId, second.clientIds.get(c.receiver.rfc)!));
      expect(row!.satStatus).toBe('Cancelado');
      return row!;
    }, { timeout: 10_000, interval: 50 });
    const [ticket] = await db.select({ amount: tickets.amount }).from(tickets).where(eq(tickets.receiptId, copy.id));
    expect(ticket!.amount).toBe('0.00');
    const totals = await db.select({ total: ticketMonthTotals.total }).from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, second.clientIds.get(c.receiver.rfc)!));
    expect(totals.every((t) => Number(t.total) === 0)).toBe(true);
  }, 60_000);
});
