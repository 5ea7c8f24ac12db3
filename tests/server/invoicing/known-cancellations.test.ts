// A CFDI that arrives in a second account after the first one learnt it was cancelled (SAT said so) or
// replaced: markKnownCancellations marks the new copy and takes its ticket out of the totals, and leaves
// CFDI nobody knows anything about alone; the upload import applies it to every batch, in the batch's
// transaction: no reader ever sees the upload 'importado' with its CFDI not yet marked.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MANUAL_COMPANY_ID } from '../../../src/domain/ticket';
import { readCfdi } from '../../../src/server/cfdi/read';
import type { Db } from '../../../src/server/db/client';
import { clients, receipts, ticketMonthTotals, tickets, uploads, users } from '../../../src/server/db/schema';
import { DEMO_USER } from '../../../src/server/db/demo-accounts';
import { markCfdiCancelled, markKnownCancellations } from '../../../src/server/cfdi/cancellation';
import { factsFromCfdi, saveReceipt } from '../../../src/server/cfdi/receipts';
import { processUploads } from '../../../src/server/imports/process';
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
    // Read as soon as the upload shows 'importado': the mark committed with it.
    const [copy] = await db.select({ id: receipts.id, satStatus: receipts.satStatus }).from(receipts).where(eq(receipts.clientId, second.clientIds.get(c.receiver.rfc)!));
    expect(copy!.satStatus).toBe('Cancelado');
    const [ticket] = await db.select({ amount: tickets.amount }).from(tickets).where(eq(tickets.receiptId, copy!.id));
    expect(ticket!.amount).toBe('0.00');
    const totals = await db.select({ total: ticketMonthTotals.total }).from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, second.clientIds.get(c.receiver.rfc)!));
    expect(totals.every((t) => Number(t.total) === 0)).toBe(true);
  }, 60_000);
});

describe.each(DRIVERS)('the import job and a CFDI known cancelled on %s', (driver) => {
  let env: ImportEnv;
  // The test runs the job by hand, on a database handle that looks after each of its transactions.
  importEnvPerSuite(driver, (e) => (env = e), { manualJobs: true });

  it("commits 'importado' and the mark in one transaction: after none of the job's is one seen without the other", async () => {
    const file = 'cfdi40-ingreso-eku-descuento-stamped.xml';
    const read = readCfdi(fixture(file));
    if (!read.ok) throw new Error(read.reason);
    const c = read.cfdi;
    const db = env.h.database.db;
    const first = await userWith(env, [c.receiver.rfc]);
    const second = await userWith(env, [c.receiver.rfc]);
    const stored = async (u: typeof first) => {
      const r = await upload(env, u, [{ name: 'factura.xml', bytes: fixture(file) }], { rfc: c.receiver.rfc });
      expect(r.status, r.text).toBeLessThan(300);
      return (r.json.response.files as { id: string }[]).map((f) => f.id);
    };
    await processUploads({ db, files: env.h.files, clock: () => new Date() }, first.userId, await stored(first));
    await markCfdiCancelled(db, { uuid: c.uuid, cancelStatus: null, satCancelled: true }, new Date());

    const ids = await stored(second);
    const clientId = second.clientIds.get(c.receiver.rfc)!;
    const seen: string[] = [];
    const look = async () => {
      const [up] = await db.select({ status: uploads.status }).from(uploads).where(inArray(uploads.id, ids));
      const [copy] = await db.select({ satStatus: receipts.satStatus }).from(receipts).where(eq(receipts.clientId, clientId));
      seen.push(`${up?.status}:${copy ? (copy.satStatus ?? 'sin marca') : 'sin recibo'}`);
    };
    // What any reader sees right after each transaction the job commits.
    const watched = new Proxy(db, {
      get(target, key) {
        if (key === 'transaction') {
          return async (...args: Parameters<Db['transaction']>) => {
            const out = await target.transaction(...args);
            await look();
            return out;
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    await processUploads({ db: watched, files: env.h.files, clock: () => new Date() }, second.userId, ids);
    const imported = seen.filter((s) => s.startsWith('importado:'));
    expect(imported.length, seen.join(', ')).toBeGreaterThan(0);
    expect(imported, seen.join(', ')).toEqual(imported.map(() => 'importado:Cancelado'));
  }, 60_000);
});
