// Each CFDI type in the books as SAT means it (DESIGN §5), through the routes the app reads: the month
// and year totals of GET /api/v2/tickets?action=stats (ticket_month_totals, kept by the triggers), the
// spending analytics by venue and category, and the month's ticket list (its receipt JSON). One case per
// CFDI type and rule, each for a fresh user so its totals are its own. Fixtures named ours-* are small
// unsigned CFDI written for these rules (tests/fixtures/cfdi/SOURCES.md).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import type { FileEvent } from '../../../src/domain/import-files';
import type { Ticket } from '../../../src/domain/ticket';
import { readCfdi, type CfdiData } from '../../../src/server/cfdi/read';
import { ticketMonthTotals, tickets } from '../../../src/server/db/schema';
import { bookAmount, detailsOf, typeOfSide } from '../../../src/server/cfdi/books';
import { notYoursReason } from '../../../src/server/imports/import-cfdi';
import { paymentState } from '../../../src/server/lib/ticket-json';
import { DRIVERS } from '../helpers/harness';
import { sum, usdStamped, type Books } from '../imports/books-helpers';
import { fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv, type User } from '../imports/import-helpers';

const PASE = 'cfdi40-ingreso-real-pase-stamped.xml'; // I, ISD950921HE5 → COSC8001137NA, 1,000.00, 2025-01-24
const PASE_UUID = 'C2832671-DA6D-11EF-A83D-00155D012007';
const CREDIT_NOTE = 'ours-cfdi40-egreso-nota-credito-pase.xml'; // E, 200.00 of PASE, 2025-01-28
const IVA8_PPD = 'cfdi40-ingreso-iva8-frontera-simulated-tfd.xml'; // I PPD, → KIJ0906199R1, 16,621.52, 2020-01-01
const PAGO_IVA16 = 'cfdi40-pago20-iva16-simulated-tfd.xml'; // P paying IVA8_PPD in full (saldo insoluto 0)
const FINKOK_PPD = 'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml'; // I PPD, EKU9003173C9 → ICV060329BY0, 1,191.95, 2024-06-15
const PAGO_PARCIAL = 'ours-cfdi40-pago20-parcial-finkok.xml'; // P, 500.00 of FINKOK_PPD, 2024-07-10
const NOMINA = 'cfdi40-nomina12-sw-stamped.xml'; // N, EKU9003173C9 → XOJI740919U48, net 4,700.00, 2024-03-01
const TRASLADO = 'ours-cfdi40-traslado.xml'; // T, → COSC8001137NA, Total 1,500.00 (never counted), 2025-02-10
const SAME_RFC = 'ours-cfdi40-ingreso-mismo-rfc.xml'; // I, COSC8001137NA → COSC8001137NA, 116.00, 2025-02-15
const TIJUANA = 'ours-cfdi40-ingreso-tijuana.xml'; // I from 22000 at 2025-01-31T22:30 local (UTC-8), 580.00

const CARLOS = 'COSC8001137NA';

interface Case {
  rule: string;
  accounts: string[];
  files: { name: string; bytes: () => Uint8Array }[];
  /** Per account, per 'YYYY-MM': what the month shows (absent = 0.00). */
  books: Record<string, Books>;
}

const file = (name: string) => ({ name, bytes: () => fixture(name) });

const CASES: Case[] = [
  { rule: 'I: spending for the receptor at emission', accounts: [CARLOS], files: [file(PASE)], books: { [CARLOS]: { '2025-01': { spending: '1000.00' } } } },
  { rule: 'I: income for the emisor at emission', accounts: ['ISD950921HE5'], files: [file(PASE)], books: { ISD950921HE5: { '2025-01': { income: '1000.00' } } } },
  {
    rule: 'E: a received credit note lowers spending in its month',
    accounts: [CARLOS],
    files: [file(PASE), file(CREDIT_NOTE)],
    books: { [CARLOS]: { '2025-01': { spending: '800.00' } } },
  },
  {
    rule: 'E: an issued credit note lowers income',
    accounts: ['ISD950921HE5'],
    files: [file(CREDIT_NOTE), file(PASE)],
    books: { ISD950921HE5: { '2025-01': { income: '800.00' } } },
  },
  {
    rule: 'P: a payment and the PPD invoice it pays are counted once (at emission)',
    accounts: ['KIJ0906199R1'],
    files: [file(PAGO_IVA16), file(IVA8_PPD)],
    books: { KIJ0906199R1: { '2020-01': { spending: '16621.52' } } },
  },
  {
    rule: 'P: a partial payment counts nothing; the invoice counted at emission',
    accounts: ['ICV060329BY0', 'EKU9003173C9'],
    files: [file(FINKOK_PPD), file(PAGO_PARCIAL)],
    books: { ICV060329BY0: { '2024-06': { spending: '1191.95' } }, EKU9003173C9: { '2024-06': { income: '1191.95' } } },
  },
  {
    rule: "N: payroll is the employee's income and the employer's spending",
    accounts: ['XOJI740919U48', 'EKU9003173C9'],
    files: [file(NOMINA)],
    books: { XOJI740919U48: { '2024-03': { income: '4700.00' } }, EKU9003173C9: { '2024-03': { spending: '4700.00' } } },
  },
  { rule: 'T: a traslado counts 0', accounts: [CARLOS], files: [file(TRASLADO)], books: { [CARLOS]: {} } },
  {
    rule: 'Foreign currency: the MXN amount at TipoCambio',
    accounts: [CARLOS],
    files: [{ name: 'usd.xml', bytes: usdStamped }],
    books: { [CARLOS]: { '2023-06': { spending: '61389.80' } } },
  },
  {
    rule: 'The same account as emisor and receptor: both books',
    accounts: [CARLOS],
    files: [file(SAME_RFC)],
    books: { [CARLOS]: { '2025-02': { spending: '116.00', income: '116.00' } } },
  },
  {
    rule: "A CFDI is in the month its Fecha names: 22:30 on 31 January in Tijuana is January's, though it is February in Mexico City",
    accounts: [CARLOS],
    files: [file(TIJUANA)],
    books: { [CARLOS]: { '2025-01': { spending: '580.00' } } },
  },
];

const read = (bytes: Uint8Array): CfdiData => {
  const r = readCfdi(bytes);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
};

describe('what a CFDI counts (books.ts, no database)', () => {
  it.each([
    ['I', 'receptor', 2], ['I', 'emisor', 3], ['E', 'receptor', 2], ['E', 'emisor', 3], ['P', 'receptor', 2], ['P', 'emisor', 3],
    ['T', 'receptor', 2], ['T', 'emisor', 3], ['N', 'receptor', 3], ['N', 'emisor', 2],
  ] as const)('%s, %s side → ticket type %i', (tipo, side, type) => {
    expect(typeOfSide(tipo, side)).toBe(type);
  });

  it.each([
    [PASE, { amount: '1000.00', currency: 'MXN', originalAmount: null }],
    [CREDIT_NOTE, { amount: '-200.00', currency: 'MXN', originalAmount: null }],
    [PAGO_IVA16, { amount: '0.00', currency: 'MXN', originalAmount: null }],
    [NOMINA, { amount: '4700.00', currency: 'MXN', originalAmount: null }],
    [TRASLADO, { amount: '0.00', currency: 'MXN', originalAmount: null }],
  ])('%s counts %o', (name, want) => {
    expect(bookAmount(read(fixture(name)))).toEqual(want);
  });

  it('keeps a foreign currency and its Total, and signs a foreign credit note', () => {
    const usd = read(usdStamped());
    expect(bookAmount(usd)).toEqual({ amount: '61389.80', currency: 'USD', originalAmount: '3248.00' });
    expect(bookAmount({ ...usd, tipoDeComprobante: 'E' })).toEqual({ amount: '-61389.80', currency: 'USD', originalAmount: '-3248.00' });
    // A figure that does not fit a ticket is refused, not a failed batch.
    expect(bookAmount({ ...usd, amountMxn: '1000000000000.00' })).toBeNull();
  });

  it('reads CfdiRelacionados of 3.3 and 4.0 (several in 4.0) into the receipt details', () => {
    expect(detailsOf(read(fixture('cfdi33-ingreso-traslados-retenciones-stamped.xml'))).related).toEqual([{ type: '01', uuids: ['A39DA66B-52CA-49E3-879B-5C05185B0EF7'] }]);
    const two = new TextDecoder()
      .decode(fixture(CREDIT_NOTE))
      .replace('</cfdi:CfdiRelacionados>', '</cfdi:CfdiRelacionados>\n  <cfdi:CfdiRelacionados TipoRelacion="07"><cfdi:CfdiRelacionado UUID="6f35d3b5-3651-5370-bc2c-14cdbe384cd7"/><cfdi:CfdiRelacionado UUID="no-es-uuid"/></cfdi:CfdiRelacionados>');
    expect(detailsOf(read(utf8(two))).related).toEqual([
      { type: '01', uuids: [PASE_UUID] },
      { type: '07', uuids: ['6F35D3B5-3651-5370-BC2C-14CDBE384CD7'] },
    ]);
  });

  it("states a PPD invoice's payments: pendiente, parcial with the balance, pagada by the last balance or by the sum", () => {
    const part = (installment: number, paid: bigint, balance: bigint | null) => ({ key: `p|${installment}`, installment, paidAt: `2024-0${installment}-01`, seq: 1, paid, balance });
    expect(paymentState('1191.95', [])).toEqual({ status: 'pendiente', balance: '1191.95' });
    expect(paymentState('1191.95', [part(1, 50000n, 69195n)])).toEqual({ status: 'parcial', balance: '691.95' });
    expect(paymentState('1191.95', [part(2, 69195n, 0n), part(1, 50000n, 69195n)])).toEqual({ status: 'pagada', balance: '0.00' });
    // Pagos 1.0 without ImpSaldoInsoluto: the sum of what was paid.
    expect(paymentState('1191.95', [part(1, 50000n, null)])).toEqual({ status: 'parcial', balance: '691.95' });
    expect(paymentState('1191.95', [part(1, 50000n, null), part(2, 69195n, null)])).toEqual({ status: 'pagada', balance: '0.00' });
  });
});

describe.each(DRIVERS)('each CFDI type in the books on %s', (driver) => {
  let env: ImportEnv;

  importEnvPerSuite(driver, (e) => (env = e));

  const get = async (user: User, path: string) => {
    const res = await env.app.request(path, { headers: { 'x-access-token': user.token } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { response: unknown }).response;
  };
  const stats = async (user: User, rfc: string, year: number) =>
    ((await get(user, `/api/v2/tickets?usuario[rfc_owner]=${rfc}&usuario[view]=annual&date[year]=${year}&action=stats`)) as { stats: { spending: { month: string; sum: string }[]; income: { month: string; sum: string }[] } }).stats;
  const monthTickets = async (user: User, rfc: string, year: number, month: number) =>
    ((await get(user, `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${year}&date[month]=${month}`)) as { tickets: Ticket[] }).tickets;

  /** Uploads the files, waits, and answers the upload rows by file name. */
  const imported = async (user: User, files: { name: string; bytes: Uint8Array }[], rfc?: string) => {
    const r = await upload(env, user, files, rfc ? { rfc } : {});
    expect(r.status).toBe(200);
    const rows = await settled(env, (r.json.response.files as { id: string }[]).map((f) => f.id));
    return new Map(rows.map((row) => [row.name, row]));
  };

  /** Month and year totals through the app's routes, and the triggers' own rows, equal what the case says. */
  async function expectBooks(user: User, books: Record<string, Books>) {
    for (const [rfc, months] of Object.entries(books)) {
      const years = new Set([...Object.keys(months).map((m) => Number(m.slice(0, 4)))]);
      if (years.size === 0) years.add(2025);
      for (const year of years) {
        const s = await stats(user, rfc, year);
        const want = (m: string, side: 'spending' | 'income') => months[m]?.[side] ?? '0.00';
        expect({ rfc, spending: s.spending.map((x) => [x.month, x.sum]) }).toEqual({ rfc, spending: s.spending.map((x) => [x.month, want(x.month, 'spending')]) });
        expect({ rfc, income: s.income.map((x) => [x.month, x.sum]) }).toEqual({ rfc, income: s.income.map((x) => [x.month, want(x.month, 'income')]) });
        // The year: the sum of its months, as the annual view adds them.
        const inYear = Object.keys(months).filter((m) => m.startsWith(String(year)));
        expect(sum(s.spending.map((x) => x.sum))).toBe(sum(inYear.map((m) => want(m, 'spending'))));
        expect(sum(s.income.map((x) => x.sum))).toBe(sum(inYear.map((m) => want(m, 'income'))));
      }
      // ticket_month_totals itself (what every total reads).
      const rows = await env.h.database.db.select().from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, user.clientIds.get(rfc)!));
      const byMonth = new Map<string, { spending: string[]; income: string[] }>();
      for (const r of rows) {
        const m = r.month.slice(0, 7);
        const e = byMonth.get(m) ?? { spending: [], income: [] };
        (r.type === 2 ? e.spending : e.income).push(r.total);
        byMonth.set(m, e);
      }
      for (const [m, e] of byMonth) {
        expect({ rfc, m, spending: sum(e.spending), income: sum(e.income) }).toEqual({ rfc, m, spending: months[m]?.spending ?? '0.00', income: months[m]?.income ?? '0.00' });
      }
    }
  }

  for (const c of CASES) {
    it(c.rule, async () => {
      const user = await userWith(env, c.accounts);
      const rows = await imported(user, c.files.map((f) => ({ name: f.name, bytes: f.bytes() })));
      for (const row of rows.values()) expect({ name: row.name, status: row.status }).toEqual({ name: row.name, status: 'importado' });
      await expectBooks(user, c.books);
    }, 60_000);
  }

  it('shows a credit note negative with its related invoice, and in the spending analytics', async () => {
    const user = await userWith(env, [CARLOS]);
    await imported(user, [PASE, CREDIT_NOTE].map((name) => ({ name, bytes: fixture(name) })));
    const list = await monthTickets(user, CARLOS, 2025, 1);
    const note = list.find((t) => t.receipt?.tipo === 'E')!;
    expect(note).toMatchObject({ amount: '-200.00', ticket_type_id: 2, receipt: { tipo: 'E', total: '200.00', details: { related: [{ type: '01', uuids: [PASE_UUID] }] } } });
    expect(list.find((t) => t.receipt?.uuid === PASE_UUID)).toMatchObject({ amount: '1000.00', receipt: { tipo: 'I' } });
    const analytics = (await get(user, `/api/v3/analytics/spending/${CARLOS}/2025/1`)) as { current: { venues: { label: string; value: number }[]; categories: { label: string; value: number }[] } };
    expect(analytics.current.venues).toEqual([{ label: 'PASE, SERVICIOS ELECTRONICOS', value: 800 }]);
    expect(analytics.current.categories.reduce((s, g) => s + g.value, 0)).toBe(800);
  }, 60_000);

  it("marks a PPD invoice 'pendiente', then 'parcial' with its balance, and 'pagada' by its payments; the payment lists what it pays", async () => {
    const user = await userWith(env, ['ICV060329BY0']);
    await imported(user, [{ name: FINKOK_PPD, bytes: fixture(FINKOK_PPD) }]);
    const before = (await monthTickets(user, 'ICV060329BY0', 2024, 6))[0]!;
    expect(before.receipt).toMatchObject({ tipo: 'I', metodo_pago: 'PPD', payment: { status: 'pendiente', balance: '1191.95' } });
    const [ticketBefore] = await env.h.database.db.select({ updatedAt: tickets.updatedAt }).from(tickets).where(eq(tickets.id, before.ticket_id));
    await new Promise((r) => setTimeout(r, 20));

    await imported(user, [{ name: PAGO_PARCIAL, bytes: fixture(PAGO_PARCIAL) }]);
    const after = (await monthTickets(user, 'ICV060329BY0', 2024, 6))[0]!;
    expect(after.receipt!.payment).toEqual({ status: 'parcial', balance: '691.95' });
    // The paid invoice's ticket is marked changed, so devices fetch it again.
    const [ticketAfter] = await env.h.database.db.select({ updatedAt: tickets.updatedAt }).from(tickets).where(eq(tickets.id, before.ticket_id));
    expect(ticketAfter!.updatedAt.getTime()).toBeGreaterThan(ticketBefore!.updatedAt.getTime());
    const payment = (await monthTickets(user, 'ICV060329BY0', 2024, 7))[0]!;
    expect(payment).toMatchObject({
      amount: '0.00',
      currency: 'MXN',
      receipt: { tipo: 'P', details: { pays: [{ uuid: 'F08A8B8C-26DB-5385-86AF-2A1D354C5CC3', amount: '500.00', currency: 'MXN', balance: '691.95', installment: 1 }] } },
    });
    expect(payment.receipt!.payment).toBeUndefined();

    const full = await userWith(env, ['KIJ0906199R1']);
    await imported(full, [PAGO_IVA16, IVA8_PPD].map((name) => ({ name, bytes: fixture(name) })));
    const jan = await monthTickets(full, 'KIJ0906199R1', 2020, 1);
    expect(jan.find((t) => t.receipt?.tipo === 'I')!.receipt!.payment).toEqual({ status: 'pagada', balance: '0.00' });
  }, 60_000);

  it('shows the payroll period and net pay on both sides', async () => {
    const user = await userWith(env, ['XOJI740919U48', 'EKU9003173C9']);
    await imported(user, [{ name: NOMINA, bytes: fixture(NOMINA) }]);
    const payroll = { from: '2023-05-09', to: '2023-05-24', paid_on: '2023-05-24', net: '4700.00' };
    expect((await monthTickets(user, 'XOJI740919U48', 2024, 3))[0]).toMatchObject({ ticket_type_id: 3, amount: '4700.00', receipt: { tipo: 'N', details: { payroll } } });
    expect((await monthTickets(user, 'EKU9003173C9', 2024, 3))[0]).toMatchObject({ ticket_type_id: 2, amount: '4700.00', receipt: { tipo: 'N', details: { payroll } } });
  }, 60_000);

  it('keeps a traslado as a document of amount 0', async () => {
    const user = await userWith(env, [CARLOS]);
    await imported(user, [{ name: TRASLADO, bytes: fixture(TRASLADO) }]);
    expect(await monthTickets(user, CARLOS, 2025, 2)).toMatchObject([{ amount: '0.00', receipt: { tipo: 'T', total: '1500.00' } }]);
  }, 60_000);

  it('keeps the currency and the amount as written of a foreign-currency CFDI', async () => {
    const user = await userWith(env, [CARLOS]);
    await imported(user, [{ name: 'usd.xml', bytes: usdStamped() }]);
    expect(await monthTickets(user, CARLOS, 2023, 6)).toMatchObject([{ amount: '61389.80', currency: 'USD', original_amount: '3248.00', receipt: { total: '3248.00' } }]);
  }, 60_000);

  it('files a CFDI of one account to itself as two tickets on one receipt', async () => {
    const user = await userWith(env, [CARLOS]);
    const rows = await imported(user, [{ name: SAME_RFC, bytes: fixture(SAME_RFC) }]);
    expect(rows.get(SAME_RFC)!.ticketIds).toHaveLength(2);
    const list = await monthTickets(user, CARLOS, 2025, 2);
    expect(list.map((t) => t.ticket_type_id).sort()).toEqual([2, 3]);
    expect(new Set(list.map((t) => t.receipt!.receipt_id)).size).toBe(1);
  }, 60_000);

  it('dates a CFDI on the day and month its Fecha names, wherever it was issued', async () => {
    const user = await userWith(env, [CARLOS]);
    await imported(user, [{ name: TIJUANA, bytes: fixture(TIJUANA) }]);
    expect(await monthTickets(user, CARLOS, 2025, 2)).toEqual([]);
    expect((await monthTickets(user, CARLOS, 2025, 1))[0]!.received_at).toBe('2025-01-31T22:30:00-06:00');
  }, 60_000);

  it("names each file's account and month in the statuses stream", async () => {
    const user = await userWith(env, [CARLOS]);
    const rows = await imported(user, [PASE, TIJUANA, SAME_RFC].map((name) => ({ name, bytes: fixture(name) })));
    const events = await readFileEvents(env, user, rows.size);
    const placed = Object.fromEntries(events.map((e) => [e.name, e.placed]));
    expect(placed).toEqual({
      [PASE]: [{ rfc: CARLOS, month: '2025-01', count: 1 }],
      [TIJUANA]: [{ rfc: CARLOS, month: '2025-01', count: 1 }],
      [SAME_RFC]: [{ rfc: CARLOS, month: '2025-02', count: 2 }],
    });
  }, 60_000);

  it('imports a CFDI of another of the user\'s RFCs into that account, and says so', async () => {
    const user = await userWith(env, [CARLOS, 'URE180429TM6']);
    const rows = await imported(user, [PASE, 'cfdi40-ingreso-real-resico626-stamped.xml'].map((name) => ({ name, bytes: fixture(name) })), 'URE180429TM6');
    const pase = rows.get(PASE)!;
    expect({ status: pase.status, reason: pase.reason }).toEqual({ status: 'importado', reason: `${MSG.importedInOtherAccount} ${CARLOS}` });
    const [t] = await env.h.database.db.select({ clientId: tickets.clientId, type: tickets.type }).from(tickets).where(eq(tickets.id, pase.ticketIds[0]!));
    expect(t).toEqual({ clientId: user.clientIds.get(CARLOS), type: 2 });
    // A CFDI of none of the user's RFCs is still refused.
    expect(rows.get('cfdi40-ingreso-real-resico626-stamped.xml')).toMatchObject({ status: 'rechazado', reason: notYoursReason('CSM190311AH6', 'MCI7306249Y1') });
    await expectBooks(user, { [CARLOS]: { '2025-01': { spending: '1000.00' } } });
  }, 60_000);
});

/** The `file` events of the statuses stream until `count` of them carry their final status. */
async function readFileEvents(env: ImportEnv, user: User, count: number): Promise<FileEvent[]> {
  const ctrl = new AbortController();
  const res = await env.app.request(`/api/v3/users/${user.userId}/files/statuses?access_token=${encodeURIComponent(user.token)}`, { signal: ctrl.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events = new Map<string, FileEvent>();
  let buffer = '';
  const deadline = Date.now() + 10_000;
  try {
    // A read that loses the race to the 1 s tick is kept for the next turn (reading again would lose its chunk).
    let read: ReturnType<typeof reader.read> | null = null;
    while ([...events.values()].filter((e) => e.status === 'importado').length < count && Date.now() < deadline) {
      read ??= reader.read();
      const chunk = await Promise.race([read, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
      if (chunk === null) continue;
      read = null;
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, cut).split('\n');
        buffer = buffer.slice(cut + 2);
        if (!lines.includes('event: file')) continue;
        const e = JSON.parse(lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')) as FileEvent;
        events.set(e.id, e);
      }
    }
  } finally {
    ctrl.abort();
    await reader.cancel().catch(() => undefined);
  }
  return [...events.values()];
}
