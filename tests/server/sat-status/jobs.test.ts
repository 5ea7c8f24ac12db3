// The SAT status job: which receipts it asks about, what it writes, how it behaves when SAT fails, and
// that pg-boss runs it once registered — always against the local fake SAT (fake-sat.ts).
import { eq, inArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readCfdi } from '../../../src/server/cfdi/read';
import { verificationUrl } from '../../../src/server/cfdi/verification-url';
import { readEnv } from '../../../src/server/config';
import { toCents } from '../../../src/domain/decimal';
import { newId } from '../../../src/domain/ids';
import { MANUAL_COMPANY_ID } from '../../../src/domain/ticket';
import { clients, receipts, ticketMonthTotals, tickets, users } from '../../../src/server/db/schema';
import { DEMO_USER } from '../../../src/server/db/demo-accounts';
import { startBoss } from '../../../src/server/jobs/boss';
import { factsFromCfdi, saveReceipt } from '../../../src/server/cfdi/receipts';
import { SAT_ESTADO_PRODUCTION_URL, satEstadoCfdi } from '../../../src/server/sat-status/estado-cfdi';
import { checkSatStatuses, registerSatStatus, SAT_STATUS_QUEUE } from '../../../src/server/sat-status/jobs';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { fixtureXml } from '../receipts/receipt-fixtures';
import { startFakeSat, type FakeSat } from './fake-sat';

const DAY = 86_400_000;
const NOW = new Date('2026-11-22T18:00:00Z');
const FILES = {
  vigente: 'cfdi40-ingreso-eku-descuento-stamped.xml',
  cancelado: 'cfdi33-ingreso-traslados-retenciones-stamped.xml',
  unknown: 'cfdi40-ingreso-real-pase-stamped.xml',
  later: 'cfdi40-pago20-sw-stamped.xml',
} as const;

function uuidOf(file: string): string {
  const read = readCfdi(fixtureXml(file));
  if (!read.ok) throw new Error(read.reason);
  return read.cfdi.uuid;
}

describe('SAT status settings', () => {
  it('never calls SAT unless SAT_ESTADO_URL is set or SAT_ESTADO=on (then SAT production)', () => {
    expect(readEnv({}).satEstadoUrl).toBeUndefined();
    expect(readEnv({ SAT_ESTADO: 'off' }).satEstadoUrl).toBeUndefined();
    expect(readEnv({ SAT_ESTADO: 'on' }).satEstadoUrl).toBe(SAT_ESTADO_PRODUCTION_URL);
    expect(readEnv({ SAT_ESTADO_URL: 'http://127.0.0.1:9/x.svc' }).satEstadoUrl).toBe('http://127.0.0.1:9/x.svc');
  });
});

describe.each(DRIVERS)('SAT status job on %s', (driver) => {
  let h: Harness;
  let sat: FakeSat;
  let boss: PgBoss | undefined;
  /** receipt ids by fixture, in the demo's two accounts (the issuer's and the receiver's copies). */
  const ids: Record<string, string[]> = {};
  let missingFileId: string;
  const noPause = { now: NOW, pauseMs: 0 };

  const statusOf = async (id: string) => {
    const [row] = await h.database.db.select({ s: receipts.satStatus, at: receipts.satCheckedAt }).from(receipts).where(eq(receipts.id, id));
    return row!;
  };

  beforeAll(async () => {
    sat = await startFakeSat();
    sat.answer(uuidOf(FILES.vigente), 'vigente');
    sat.answer(uuidOf(FILES.cancelado), 'cancelado');
    sat.answer(uuidOf(FILES.later), 'vigente');
    h = await createHarness(driver);
    const db = h.database.db;
    const accounts = await db
      .select({ userId: users.id, clientId: clients.id })
      .from(clients)
      .innerJoin(users, eq(users.id, clients.userId))
      .where(eq(users.username, DEMO_USER.username));
    expect(accounts).toHaveLength(2);
    for (const [name, file] of Object.entries(FILES)) {
      const xml = fixtureXml(file);
      const read = readCfdi(xml);
      if (!read.ok) throw new Error(read.reason);
      // The vigente one in both accounts, as when issuer and receiver both import it.
      const owners = name === 'vigente' ? accounts : accounts.slice(0, 1);
      ids[name] = [];
      for (const o of owners) ids[name].push((await saveReceipt(db, h.files, { ...o, facts: factsFromCfdi(read.cfdi), xml })).id);
    }
    // A receipt whose XML is gone from the store gives no expression.
    const read = readCfdi(fixtureXml('cfdi40-nomina12-sw-stamped.xml'));
    if (!read.ok) throw new Error(read.reason);
    missingFileId = (await saveReceipt(db, h.files, { ...accounts[0]!, facts: factsFromCfdi(read.cfdi), xml: fixtureXml('cfdi40-nomina12-sw-stamped.xml') })).id;
    const [row] = await db.select({ key: receipts.xmlKey }).from(receipts).where(eq(receipts.id, missingFileId));
    await h.files.delete(row!.key);
    // "later" waits: already checked yesterday.
    await db.update(receipts).set({ satStatus: 'Vigente', satCheckedAt: new Date(NOW.getTime() - DAY) }).where(inArray(receipts.id, ids.later!));
  });
  afterAll(async () => {
    // Graceful: a job still pacing its SAT calls finishes before the database closes under it.
    await boss?.stop({ graceful: true, wait: true, timeout: 15_000 });
    await h?.close();
    await sat?.stop();
  });
  beforeEach(() => {
    sat.expressions.length = 0;
  });

  it('writes each unchecked receipt\'s SAT status, asking once per CFDI, politely paced; a cancelled CFDI\'s ticket leaves the totals', async () => {
    const db = h.database.db;
    // A ticket on the CFDI SAT will call cancelled, one on a vigente one.
    const ticketOn = async (receiptId: string) => {
      const [r] = await db.select({ userId: receipts.userId, clientId: receipts.clientId }).from(receipts).where(eq(receipts.id, receiptId));
      const id = newId();
      await db.insert(tickets).values({ id, userId: r!.userId, clientId: r!.clientId, type: 2, statusId: 4, companyId: MANUAL_COMPANY_ID, amount: '1160.00', receivedAt: NOW, receiptId, createdAt: NOW, updatedAt: NOW });
      return id;
    };
    const onCancelled = await ticketOn(ids.cancelado![0]!);
    const onVigente = await ticketOn(ids.vigente![0]!);
    const [owner] = await db.select({ c: receipts.clientId }).from(receipts).where(eq(receipts.id, ids.cancelado![0]!));
    const booked = async () => (await db.select({ s: sql<string>`coalesce(sum(${ticketMonthTotals.total}), 0)::text` }).from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, owner!.c)))[0]!.s;
    const booksBefore = await booked();
    const pauses: number[] = [];
    const run = await checkSatStatuses(h.database.db, h.files, satEstadoCfdi({ url: sat.url }), {
      now: NOW,
      pauseMs: 1_000,
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    expect(run).toEqual({ checked: 4, unreadable: 1 });
    for (const id of ids.vigente!) expect(await statusOf(id)).toEqual({ s: 'Vigente', at: NOW });
    expect(await statusOf(ids.cancelado![0]!)).toEqual({ s: 'Cancelado', at: NOW });
    expect(await statusOf(ids.unknown![0]!)).toEqual({ s: 'No encontrado', at: NOW });
    // No expression: stamped as attempted without a status, so it waits a day instead of every run.
    expect(await statusOf(missingFileId)).toEqual({ s: null, at: NOW });
    expect((await statusOf(ids.later![0]!)).s).toBe('Vigente');
    // Three distinct CFDI → three calls (the shared one once), with a pause between calls.
    expect(sat.expressions).toHaveLength(3);
    expect(pauses).toEqual([1_000, 1_000]);
    const read = readCfdi(fixtureXml(FILES.cancelado));
    if (!read.ok) throw new Error(read.reason);
    expect(sat.expressions).toContain(verificationUrl(read.cfdi));
    const amounts = await db.select({ id: tickets.id, amount: tickets.amount, updatedAt: tickets.updatedAt }).from(tickets).where(inArray(tickets.id, [onCancelled, onVigente]));
    expect(amounts.find((t) => t.id === onCancelled)).toEqual({ id: onCancelled, amount: '0.00', updatedAt: NOW });
    expect(amounts.find((t) => t.id === onVigente)!.amount).toBe('1160.00');
    // The books (ticket_month_totals) lost exactly the cancelled ticket's amount.
    expect(toCents(await booked())! - toCents(booksBefore)!).toBe(-116000n);
  });

  it('rechecks after 30 days, except Cancelado (final); nothing is due the day after', async () => {
    const port = satEstadoCfdi({ url: sat.url });
    expect(await checkSatStatuses(h.database.db, h.files, port, { ...noPause, now: new Date(NOW.getTime() + DAY) })).toEqual({ checked: 0, unreadable: 0 });
    expect(sat.expressions).toHaveLength(0);
    const later = new Date(NOW.getTime() + 31 * DAY);
    const run = await checkSatStatuses(h.database.db, h.files, port, { ...noPause, now: later });
    // vigente ×2, unknown, later, and the unreadable one — not the cancelled one.
    expect(run).toEqual({ checked: 4, unreadable: 1 });
    expect((await statusOf(ids.cancelado![0]!)).at).toEqual(NOW);
    expect((await statusOf(ids.later![0]!)).at).toEqual(later);
  });

  it('takes at most a batch, never-checked first', async () => {
    const db = h.database.db;
    await db.update(receipts).set({ satStatus: null, satCheckedAt: null }).where(inArray(receipts.id, ids.unknown!));
    const run = await checkSatStatuses(db, h.files, satEstadoCfdi({ url: sat.url }), { ...noPause, now: new Date(NOW.getTime() + 400 * DAY), batch: 1 });
    expect(run).toEqual({ checked: 1, unreadable: 0 });
    expect((await statusOf(ids.unknown![0]!)).s).toBe('No encontrado');
  });

  it('SAT failing stops the batch with an error; the CFDI asked waits a day, the others go on', async () => {
    const db = h.database.db;
    await db.update(receipts).set({ satStatus: null, satCheckedAt: null });
    const port = satEstadoCfdi({ url: sat.url });
    sat.answer(uuidOf(FILES.vigente), 'http-500');
    try {
      // The vigente CFDI comes first (lowest receipt id), so the batch stops before anything is written.
      await expect(checkSatStatuses(db, h.files, port, noPause)).rejects.toThrow(/el SAT respondió 500/);
    } finally {
      sat.answer(uuidOf(FILES.vigente), 'vigente');
    }
    const all = await db.select({ id: receipts.id, s: receipts.satStatus, at: receipts.satCheckedAt }).from(receipts);
    expect(all.every((r) => r.s === null)).toBe(true);
    const attempted = all.filter((r) => r.at !== null).map((r) => r.id);
    expect(attempted).toEqual([ids.vigente![0]]);
    // The next run skips it and does the rest (the other copy of the same CFDI too).
    expect(await checkSatStatuses(db, h.files, port, noPause)).toEqual({ checked: 4, unreadable: 1 });
    expect(await statusOf(ids.vigente![0]!)).toEqual({ s: null, at: NOW });
    expect((await statusOf(ids.vigente![1]!)).s).toBe('Vigente');
    // A day later it is asked again.
    const tomorrow = new Date(NOW.getTime() + DAY + 1);
    expect(await checkSatStatuses(db, h.files, port, { ...noPause, now: tomorrow })).toEqual({ checked: 1, unreadable: 1 });
    expect(await statusOf(ids.vigente![0]!)).toEqual({ s: 'Vigente', at: tomorrow });
  });

  it('once registered with a status service, pg-boss runs the check; without one nothing is scheduled', async () => {
    const db = h.database.db;
    await db.update(receipts).set({ satStatus: null, satCheckedAt: null });
    boss = await startBoss(h.database, { supervise: false });
    await registerSatStatus(boss, db, h.files, undefined);
    expect(await boss.getQueue(SAT_STATUS_QUEUE)).toBeNull();
    await registerSatStatus(boss, db, h.files, sat.url);
    expect((await boss.getSchedules()).map((s) => s.name)).toContain(SAT_STATUS_QUEUE);
    await boss.send(SAT_STATUS_QUEUE, {});
    await expect.poll(async () => (await statusOf(ids.cancelado![0]!)).s, { timeout: 20_000, interval: 250 }).toBe('Cancelado');
    await expect.poll(async () => (await statusOf(ids.vigente![1]!)).s, { timeout: 10_000, interval: 250 }).toBe('Vigente');
  }, 40_000);
});
