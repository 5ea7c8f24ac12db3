// Receipts stored before the books knew CFDI types (books_version 0, rows with the old defaults and the
// old ticket amounts) are re-read from their XML by reclassify.ts: the month and year totals through the
// app's stats route and ticket_month_totals come out as an import today makes them, the receipts get their
// type, seals, findings and payment links, manual tickets are left alone, and a second run does nothing.
import { eq, inArray } from 'drizzle-orm';
import { v7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { CFDI_COMPANY_ID, MANUAL_COMPANY_ID, MANUAL_EXPENSE_STATUS, type Ticket } from '../../../src/domain/ticket';
import { readCfdi } from '../../../src/server/cfdi/read';
import { cfdiPayments, receipts, ticketMonthTotals, tickets } from '../../../src/server/db/schema';
import { booksInstant } from '../../../src/server/cfdi/books';
import { reclassifyAll, registerReclassify } from '../../../src/server/imports/reclassify';
import { factsFromCfdi, receiptKeys } from '../../../src/server/cfdi/receipts';
import { DRIVERS } from '../helpers/harness';
import { sum, usdStamped, type Books } from './books-helpers';
import { fixture, importEnvPerSuite, userWith, utf8, type ImportEnv, type User } from './import-helpers';

const PAGO = 'cfdi40-pago20-sw-stamped.xml'; // P, EKU9003173C9 → URE180429TM6, 2022-02-08
const ALTERED = 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml'; // I PPD 180.00, EKU → URE180429TM6, edited after stamping
const NOMINA = 'cfdi40-nomina12-sw-stamped.xml'; // N, EKU → XOJI740919U48, net 4,700.00, 2024-03-01
const PASE = 'cfdi40-ingreso-real-pase-stamped.xml'; // I, → COSC8001137NA, 1,000.00, 2025-01-24
const CREDIT_NOTE = 'ours-cfdi40-egreso-nota-credito-pase.xml'; // E, 200.00 of PASE, 2025-01-28
const SAME_RFC = 'ours-cfdi40-ingreso-mismo-rfc.xml'; // I, COSC8001137NA → itself, 116.00, 2025-02-15
const TIJUANA = 'ours-cfdi40-ingreso-tijuana.xml'; // I 580.00, 2025-01-31 (stored cancelled here)
const FINKOK_PPD = 'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml'; // I PPD → ICV060329BY0, 1,191.95, 2024-06
const PAGO_PARCIAL = 'ours-cfdi40-pago20-parcial-finkok.xml'; // P, 500.00 of FINKOK_PPD, 2024-07-10
const CARLOS = 'COSC8001137NA';

describe.each(DRIVERS)('receipts stored before the books rules, re-read (%s)', (driver) => {
  let env: ImportEnv;
  let user: User;
  const ids = new Map<string, { receiptId: string; ticketId: string }>();
  let manualId: string;
  let missingReceipt: string;

  importEnvPerSuite(driver, async (e) => {
    env = e;
    user = await userWith(env, ['URE180429TM6', 'XOJI740919U48', CARLOS, 'ICV060329BY0']);
  });

  const db = () => env.h.database.db;

  /**
   * A receipt and its one ticket as the import wrote them before: the receipt's defaults, the Total in
   * pesos counted as the account's spending (or income when it issued it), no currency, no payments.
   */
  async function storeOld(rfc: string, name: string, bytes: Uint8Array, opts: { amount?: string; cancelled?: boolean; noXml?: boolean; stored?: Uint8Array } = {}) {
    const r = readCfdi(bytes);
    if (!r.ok) throw new Error(r.reason);
    const c = r.cfdi;
    const { tipo: _t, details: _d, ...facts } = factsFromCfdi(c);
    const receiptId = v7();
    const key = receiptKeys(user.userId, receiptId).xml;
    if (!opts.noXml) await env.h.files.put(key, opts.stored ?? bytes);
    const clientId = user.clientIds.get(rfc)!;
    await db().insert(receipts).values({
      id: receiptId, userId: user.userId, clientId, ...facts, uuid: c.uuid.toUpperCase(), xmlKey: key, xmlSize: bytes.byteLength,
      booksVersion: 0, ...(opts.cancelled ? { cancelStatus: 'cancelada' } : {}),
    });
    const ticketId = v7();
    await db().insert(tickets).values({
      id: ticketId, userId: user.userId, clientId, type: c.issuer.rfc === rfc && c.receiver.rfc !== rfc ? 3 : 2, statusId: 4, companyId: CFDI_COMPANY_ID,
      ticketNumber: `${c.serie}${c.folio}`, amount: opts.amount ?? c.amountMxn, receivedAt: booksInstant(c), receiptId,
      createdAt: new Date('2025-03-01T00:00:00Z'), updatedAt: new Date('2025-03-01T00:00:00Z'),
    });
    ids.set(name, { receiptId, ticketId });
  }

  const get = async (path: string) => {
    const res = await env.app.request(path, { headers: { 'x-access-token': user.token } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { response: unknown }).response;
  };
  const monthTickets = async (rfc: string, year: number, month: number) =>
    ((await get(`/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${year}&date[month]=${month}`)) as { tickets: Ticket[] }).tickets;

  /** Month and year totals through the stats route, and ticket_month_totals itself, equal `books`. */
  async function expectBooks(books: Record<string, Books>) {
    for (const [rfc, months] of Object.entries(books)) {
      for (const year of new Set(Object.keys(months).map((m) => Number(m.slice(0, 4))))) {
        const s = ((await get(`/api/v2/tickets?usuario[rfc_owner]=${rfc}&usuario[view]=annual&date[year]=${year}&action=stats`)) as { stats: { spending: { month: string; sum: string }[]; income: { month: string; sum: string }[] } }).stats;
        const want = (m: string, side: 'spending' | 'income') => months[m]?.[side] ?? '0.00';
        expect({ rfc, spending: s.spending.map((x) => [x.month, x.sum]) }).toEqual({ rfc, spending: s.spending.map((x) => [x.month, want(x.month, 'spending')]) });
        expect({ rfc, income: s.income.map((x) => [x.month, x.sum]) }).toEqual({ rfc, income: s.income.map((x) => [x.month, want(x.month, 'income')]) });
        const inYear = Object.keys(months).filter((m) => m.startsWith(String(year)));
        expect(sum(s.spending.map((x) => x.sum))).toBe(sum(inYear.map((m) => want(m, 'spending'))));
        expect(sum(s.income.map((x) => x.sum))).toBe(sum(inYear.map((m) => want(m, 'income'))));
      }
      const rows = await db().select().from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, user.clientIds.get(rfc)!));
      const byMonth = new Map<string, { spending: string[]; income: string[] }>();
      for (const r of rows) {
        const e = byMonth.get(r.month.slice(0, 7)) ?? { spending: [], income: [] };
        (r.type === 2 ? e.spending : e.income).push(r.total);
        byMonth.set(r.month.slice(0, 7), e);
      }
      for (const [m, e] of byMonth) {
        expect({ rfc, m, spending: sum(e.spending), income: sum(e.income) }).toEqual({ rfc, m, spending: months[m]?.spending ?? '0.00', income: months[m]?.income ?? '0.00' });
      }
    }
  }

  it('stores the old way: the totals are the old, wrong ones', async () => {
    await storeOld('URE180429TM6', PAGO, fixture(PAGO), { amount: '200.00' }); // the payment counted as money
    await storeOld('URE180429TM6', ALTERED, fixture(ALTERED));
    await storeOld('XOJI740919U48', NOMINA, fixture(NOMINA)); // payroll as the employee's spending
    await storeOld(CARLOS, PASE, fixture(PASE));
    await storeOld(CARLOS, CREDIT_NOTE, fixture(CREDIT_NOTE)); // a credit note counted positive
    await storeOld(CARLOS, 'usd', usdStamped()); // pesos, no currency, no original amount
    await storeOld(CARLOS, SAME_RFC, fixture(SAME_RFC)); // one ticket for both sides
    await storeOld(CARLOS, TIJUANA, fixture(TIJUANA), { amount: '0.00', cancelled: true });
    await storeOld('ICV060329BY0', FINKOK_PPD, fixture(FINKOK_PPD));
    await storeOld('ICV060329BY0', PAGO_PARCIAL, fixture(PAGO_PARCIAL), { amount: '500.00' });
    // A receipt whose XML is gone: marked read, its ticket as it was.
    await storeOld(CARLOS, 'missing', utf8(new TextDecoder().decode(fixture(PASE)).replace(/C2832671-DA6D-11EF-A83D-00155D012007/g, 'C2832671-DA6D-11EF-A83D-00155D0120FF')), { noXml: true });
    missingReceipt = ids.get('missing')!.receiptId;
    // One whose stored file is not a CFDI any more (its ticket in 2024-03 as it was).
    await storeOld('XOJI740919U48', 'garbage', utf8(new TextDecoder().decode(fixture(NOMINA)).replace(/1ac10691-e5c5-422f-9ec0-0aafe486d493/gi, '1ac10691-e5c5-422f-9ec0-0aafe486d4ff')), { stored: utf8('<no es un cfdi') });
    manualId = v7();
    await db().insert(tickets).values({
      id: manualId, userId: user.userId, clientId: user.clientIds.get(CARLOS)!, type: 2, statusId: MANUAL_EXPENSE_STATUS, companyId: MANUAL_COMPANY_ID,
      amount: '50.00', note: 'mío', receivedAt: new Date('2025-01-10T18:00:00Z'), createdAt: new Date('2025-03-01T00:00:00Z'), updatedAt: new Date('2025-03-01T00:00:00Z'),
    });
    await expectBooks({
      URE180429TM6: { '2022-02': { spending: '380.00' } },
      XOJI740919U48: { '2024-03': { spending: '9400.00' } },
      [CARLOS]: { '2025-01': { spending: '2250.00' }, '2025-02': { spending: '116.00' }, '2023-06': { spending: '61389.80' } },
      ICV060329BY0: { '2024-06': { spending: '1191.95' }, '2024-07': { spending: '500.00' } },
    });
  }, 120_000);

  it('re-reads them: the totals, types, seals and payments are what an import makes today', async () => {
    const run = await reclassifyAll(db(), env.h.files, { batch: 4 });
    expect(run.receipts).toBe(12);
    await expectBooks({
      URE180429TM6: { '2022-02': { spending: '180.00' } },
      // The payroll is the employee's income now; the unreadable file's ticket stays as it was.
      XOJI740919U48: { '2024-03': { income: '4700.00', spending: '4700.00' } },
      // 1,000 − 200 (credit note) + 50 (manual) + 1,000 (the receipt without XML, as it was); Tijuana cancelled.
      [CARLOS]: { '2025-01': { spending: '1850.00' }, '2025-02': { spending: '116.00', income: '116.00' }, '2023-06': { spending: '61389.80' } },
      ICV060329BY0: { '2024-06': { spending: '1191.95' } },
    });
    const rows = await db().select().from(receipts).where(eq(receipts.userId, user.userId));
    expect(rows.every((r) => r.booksVersion === 1)).toBe(true);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.get(ALTERED)!.receiptId)).toMatchObject({ tipo: 'I', seal: 'invalido', sealSat: 'sin_verificar' });
    expect(byId.get(ids.get(NOMINA)!.receiptId)).toMatchObject({ tipo: 'N', details: { payroll: { net: '4700.00' } } });
    expect(byId.get(ids.get(CREDIT_NOTE)!.receiptId)).toMatchObject({ tipo: 'E' });
    expect(byId.get(missingReceipt)).toMatchObject({ tipo: 'I', seal: 'sin_verificar', booksVersion: 1 });
    expect(byId.get(ids.get('garbage')!.receiptId)).toMatchObject({ tipo: 'I', details: {}, seal: 'sin_verificar', booksVersion: 1 });
    const payments = await db().select().from(cfdiPayments).where(inArray(cfdiPayments.receiptId, [ids.get(PAGO)!.receiptId, ids.get(PAGO_PARCIAL)!.receiptId]));
    expect(payments.map((p) => [p.documentUuid, p.impPagado]).sort()).toEqual([['BFC36522-4B8E-45C4-8F14-D11B289F9EB7', '200.00'], ['F08A8B8C-26DB-5385-86AF-2A1D354C5CC3', '500.00']]);

    // The PPD invoice shows the payment; the payment is a document of 0.00.
    expect((await monthTickets('ICV060329BY0', 2024, 6))[0]!.receipt).toMatchObject({ tipo: 'I', payment: { status: 'parcial', balance: '691.95' } });
    expect(await monthTickets('ICV060329BY0', 2024, 7)).toMatchObject([{ amount: '0.00', receipt: { tipo: 'P' } }]);
    expect((await monthTickets('XOJI740919U48', 2024, 3)).find((t) => t.ticket_id === ids.get(NOMINA)!.ticketId)).toMatchObject({ ticket_type_id: 3, amount: '4700.00', receipt: { tipo: 'N' } });
    const jan = await monthTickets(CARLOS, 2025, 1);
    expect(jan.find((t) => t.ticket_id === ids.get(CREDIT_NOTE)!.ticketId)).toMatchObject({ amount: '-200.00', ticket_type_id: 2 });
    expect(jan.find((t) => t.ticket_id === ids.get(TIJUANA)!.ticketId)).toMatchObject({ amount: '0.00' });
    expect(jan.find((t) => t.ticket_id === manualId)).toMatchObject({ amount: '50.00', note: 'mío' });
    expect(await monthTickets(CARLOS, 2023, 6)).toMatchObject([{ amount: '61389.80', currency: 'USD', original_amount: '3248.00' }]);
    const same = await monthTickets(CARLOS, 2025, 2);
    expect(same.map((t) => t.ticket_type_id).sort()).toEqual([2, 3]);
    expect(new Set(same.map((t) => t.receipt!.receipt_id))).toEqual(new Set([ids.get(SAME_RFC)!.receiptId]));

    // Changed tickets are pulled again by the apps; the manual one and those already right are not.
    const stamps = new Map((await db().select({ id: tickets.id, updatedAt: tickets.updatedAt }).from(tickets).where(eq(tickets.userId, user.userId))).map((t) => [t.id, t.updatedAt.getTime()]));
    const old = new Date('2025-03-01T00:00:00Z').getTime();
    for (const name of [PAGO, NOMINA, CREDIT_NOTE, 'usd', PAGO_PARCIAL]) expect({ name, bumped: stamps.get(ids.get(name)!.ticketId)! > old }).toEqual({ name, bumped: true });
    for (const name of [PASE, TIJUANA, 'missing', 'garbage', ALTERED]) expect({ name, bumped: stamps.get(ids.get(name)!.ticketId)! > old }).toEqual({ name, bumped: false });
    expect(stamps.get(manualId)).toBe(old);
  }, 120_000);

  it('a second run changes nothing', async () => {
    const before = await db().select().from(tickets).where(eq(tickets.userId, user.userId));
    expect(await reclassifyAll(db(), env.h.files)).toEqual({ receipts: 0, tickets: 0 });
    const after = await db().select().from(tickets).where(eq(tickets.userId, user.userId));
    expect(after).toEqual(before);
    expect(await db().select().from(cfdiPayments).where(eq(cfdiPayments.clientId, user.clientIds.get('ICV060329BY0')!))).toHaveLength(1);
  }, 120_000);

  it('runs as the start-up job when registered: the singleton queue re-reads what is left', async () => {
    await storeOld(CARLOS, 'late credit note', utf8(new TextDecoder().decode(fixture(CREDIT_NOTE)).replace(/3F1B7C2E-9A4D-4E8B-B5C6-2D7E8F9A0B1C/g, '3F1B7C2E-9A4D-4E8B-B5C6-2D7E8F9A0BFF')));
    const { receiptId, ticketId } = ids.get('late credit note')!;
    await registerReclassify(env.boss, db(), env.h.files);
    const until = Date.now() + 60_000;
    for (;;) {
      const [row] = await db().select({ v: receipts.booksVersion }).from(receipts).where(eq(receipts.id, receiptId));
      if (row!.v === 1) break;
      if (Date.now() > until) throw new Error('el trabajo no releyó el recibo');
      await new Promise((ok) => setTimeout(ok, 100));
    }
    const [t] = await db().select({ amount: tickets.amount }).from(tickets).where(eq(tickets.id, ticketId));
    expect(t!.amount).toBe('-200.00');
  }, 120_000);

  it('two runs at once write each receipt once: no second ticket made twice', async () => {
    const twin = utf8(new TextDecoder().decode(fixture(SAME_RFC)).replace(/UUID="([0-9A-Fa-f-]{32})[0-9A-Fa-f]{4}"/, 'UUID="$1ABCD"'));
    await storeOld(CARLOS, 'twin', twin);
    const runs = await Promise.all([reclassifyAll(db(), env.h.files), reclassifyAll(db(), env.h.files)]);
    expect(runs[0].receipts + runs[1].receipts).toBe(1);
    const made = await db().select({ type: tickets.type, amount: tickets.amount }).from(tickets).where(eq(tickets.receiptId, ids.get('twin')!.receiptId));
    expect(made.map((t) => [t.type, t.amount]).sort()).toEqual([[2, '116.00'], [3, '116.00']]);
  }, 120_000);
});
