import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { sql } from 'drizzle-orm';
import { clients, companies, ticketMonthTotals, tickets } from '../../../src/server/db/schema';
import { attachReceipt } from '../receipts/receipt-fixtures';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { createEntry, income, ownerWithRfc, spending, type Owner } from '../tickets/ticket-fixtures';

const months = (year: number, sums: Record<number, string>) =>
  Array.from({ length: 12 }, (_, i) => ({ month: `${year}-${String(i + 1).padStart(2, '0')}`, sum: sums[i + 1] ?? '0.00' }));

describe.each(DRIVERS)('stats and spending analytics on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  let b: Owner;

  async function add(o: Owner, form: Parameters<typeof createEntry>[2]): Promise<string> {
    const r = await createEntry(h, o, form);
    if (r.status !== 200) throw new Error(`ticket_create: ${r.text}`);
    return r.id;
  }

  beforeAll(async () => {
    h = await createHarness(driver);
    a = await ownerWithRfc(h, 'GODE561231GR8');
    b = await ownerWithRfc(h, 'BOGE561231GR9');
    // 2025: March and December.
    await add(a, spending({ amount: '25', date: '2025/03/10', category: '2' }));
    await add(a, spending({ amount: '500', date: '2025/12/31', category: '1' }));
    // 2026-01.
    await add(a, spending({ amount: '40', date: '2026/01/05', category: '4' }));
    // 2026-10.
    await add(a, spending({ amount: '100.10', date: '2026/10/01', category: '1' }));
    await add(a, spending({ amount: '200.20', date: '2026/10/31', category: '2' }));
    await add(a, income({ amount: '5000', date: '2026/10/15', category: '2' }));
    // 2026-11.
    await add(a, spending({ amount: '300', date: '2026/11/01', category: '1' }));
    await add(a, spending({ amount: '50.25', date: '2026/11/02', category: '3' }));
    const uncategorised = await add(a, spending({ amount: '10', date: '2026/11/03', category: '2' }));
    const lateNight = await add(a, spending({ amount: '70', date: '2026/11/20', category: '3' }));
    const removed = await add(a, spending({ amount: '999', date: '2026/11/04', category: '1' }));
    await add(a, income({ amount: '1000', date: '2026/11/05', category: '1' }));
    const typeThree = await add(a, income({ amount: '250.50', date: '2026/11/06', category: '1' }));
    // What the API cannot make yet: a ticket with no category (CFDI import), a type 3 income,
    // and 21:00 on 30 November in Mexico City, which is already 1 December in UTC.
    const db = h.database.db;
    await db.update(tickets).set({ metaTagId: null }).where(eq(tickets.id, uncategorised));
    await db.update(tickets).set({ type: 3 }).where(eq(tickets.id, typeThree));
    await db.update(tickets).set({ receivedAt: new Date('2026-12-01T03:00:00Z') }).where(eq(tickets.id, lateNight));
    const del = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [removed] } });
    if (del.status !== 200) throw new Error(`delete: ${del.text}`);
    // Another user's money never counts.
    await add(b, spending({ amount: '777', date: '2026/11/10', category: '1' }));
    await add(b, income({ amount: '888', date: '2026/11/10', category: '1' }));
  });
  afterAll(async () => h?.close());

  const stats = (o: Owner, query: string, rfc = o.rfc) =>
    h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&${query}&action=stats`, { token: o.token });
  const analytics = (o: Owner, path: string) => h.call('GET', `/api/v3/analytics/spending/${path}`, { token: o.token });

  it('gives the 12 Mexico City months of the year: spending = type 2, income = types 3 and 4, deleted left out', async () => {
    const r = await stats(a, 'date[year]=2026&date[month]=11');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      response: {
        stats: {
          spending: months(2026, { 1: '40.00', 10: '300.30', 11: '430.25' }),
          income: months(2026, { 10: '5000.00', 11: '1250.50' }),
        },
      },
    });
  });

  it('answers the annual view (month 12) with the same totals, and other years on their own', async () => {
    const annual = await stats(a, 'date[year]=2026&date[month]=12&usuario[view]=annual');
    expect(annual.status).toBe(200);
    expect(annual.json.response.stats.spending[11]).toEqual({ month: '2026-12', sum: '0.00' });
    expect(annual.json).toEqual((await stats(a, 'date[year]=2026&date[month]=11')).json);
    const y2025 = await stats(a, 'date[year]=2025&usuario[view]=annual');
    expect(y2025.json.response.stats).toEqual({ spending: months(2025, { 3: '25.00', 12: '500.00' }), income: months(2025, {}) });
  });

  it('answers stats only for the caller’s own RFC', async () => {
    const r = await stats(b, 'date[year]=2026&date[month]=11', a.rfc);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ errors: [MSG.notFound] });
    const own = await stats(b, 'date[year]=2026&date[month]=11');
    expect(own.json.response.stats.spending[10]).toEqual({ month: '2026-11', sum: '777.00' });
    expect(own.json.response.stats.income[10]).toEqual({ month: '2026-11', sum: '888.00' });
  });

  it('groups a month’s spending by venue and category, with the previous month as past; manual entries name no venue', async () => {
    const r = await analytics(a, `${a.rfc}/2026/11`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      response: {
        current: {
          venues: [],
          categories: [
            { label: 'Alimentos y bebidas', value: 300 },
            { label: 'Transporte', value: 120.25 },
            { label: 'Sin Categoría', value: 10 },
          ],
        },
        past: {
          venues: [],
          categories: [
            { label: 'Supermercado', value: 200.2 },
            { label: 'Alimentos y bebidas', value: 100.1 },
          ],
        },
      },
    });
  });

  it('compares January with December of the previous year', async () => {
    const r = await analytics(a, `${a.rfc}/2026/1`);
    expect(r.json.response).toEqual({
      current: { venues: [], categories: [{ label: 'Gasolina', value: 40 }] },
      past: { venues: [], categories: [{ label: 'Alimentos y bebidas', value: 500 }] },
    });
  });

  it('groups a year’s spending with the previous year as past (token in access_token)', async () => {
    const r = await h.call('GET', `/api/v3/analytics/spending/${a.rfc}/2026?action=spending&access_token=${a.token}`);
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual({
      current: {
        venues: [],
        categories: [
          { label: 'Alimentos y bebidas', value: 400.1 },
          { label: 'Supermercado', value: 200.2 },
          { label: 'Transporte', value: 120.25 },
          { label: 'Gasolina', value: 40 },
          { label: 'Sin Categoría', value: 10 },
        ],
      },
      past: {
        venues: [],
        categories: [
          { label: 'Alimentos y bebidas', value: 500 },
          { label: 'Supermercado', value: 25 },
        ],
      },
    });
  });

  it('answers empty lists for a period with no spending', async () => {
    const r = await analytics(a, `${a.rfc}/2026/6`);
    expect(r.json.response).toEqual({ current: { venues: [], categories: [] }, past: { venues: [], categories: [] } });
  });

  it('refuses another user’s RFC with a 404 that leaks nothing, and asks for a session', async () => {
    for (const path of [`${a.rfc}/2026/11`, `${a.rfc}/2026`]) {
      const r = await analytics(b, path);
      expect(r.status, path).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.notFound] });
    }
    const own = await analytics(b, `${b.rfc}/2026/11`);
    expect(own.json.response.current.categories).toEqual([{ label: 'Alimentos y bebidas', value: 777 }]);
    const anonymous = await h.call('GET', `/api/v3/analytics/spending/${a.rfc}/2026/11`);
    expect(anonymous.status).toBe(401);
  });

  it('rejects a year before 2013 or not a number, and a month outside 1-12, in Spanish', async () => {
    const cases: [string, string][] = [
      [`${a.rfc}/2012/5`, MSG.analyticsYear],
      [`${a.rfc}/2012`, MSG.analyticsYear],
      [`${a.rfc}/dosmil/5`, MSG.analyticsYear],
      [`${a.rfc}/2026.5`, MSG.analyticsYear],
      [`${a.rfc}/2026/0`, MSG.analyticsMonth],
      [`${a.rfc}/2026/13`, MSG.analyticsMonth],
      [`${a.rfc}/2026/once`, MSG.analyticsMonth],
    ];
    for (const [path, message] of cases) {
      const r = await analytics(a, path);
      expect(r.status, path).toBe(400);
      expect(r.json, path).toEqual({ errors: [message] });
    }
  });

  it("names a merchant's spending by its brand, as the rows do, invoiced (its CFDI names the legal name) or not", async () => {
    const db = h.database.db;
    const [autozone] = await db.select({ id: companies.id, name: companies.name, legalName: companies.legalName }).from(companies).where(eq(companies.shortName, 'autozone'));
    expect(autozone!.legalName).not.toBe(autozone!.name);
    const invoiced = await add(a, spending({ amount: '300', date: '2026/08/03', category: '5' }));
    await db.update(tickets).set({ companyId: autozone!.id }).where(eq(tickets.id, invoiced));
    await attachReceipt(h, a, invoiced, { uuid: '44444444-2222-4333-8444-555555555555', facts: { nameIssuer: autozone!.legalName } });
    const notYet = await add(a, spending({ amount: '20.50', date: '2026/08/04', category: '5' }));
    await db.update(tickets).set({ companyId: autozone!.id }).where(eq(tickets.id, notYet));
    const other = await add(a, spending({ amount: '10', date: '2026/08/05', category: '5' }));
    await attachReceipt(h, a, other, { uuid: '55555555-2222-4333-8444-555555555555', facts: { nameIssuer: 'PAPELERÍA LA PLUMA' } });
    await add(a, spending({ amount: '1000', date: '2026/08/06', category: '5' }));
    const aug = await analytics(a, `${a.rfc}/2026/8`);
    expect(aug.json.response.current.venues).toEqual([
      { label: 'Autozone', value: 320.5 },
      { label: 'PAPELERÍA LA PLUMA', value: 10 },
    ]);
    expect(aug.json.response.current.categories).toEqual([{ label: 'Hospedaje', value: 1330.5 }]);
  });

  it('keeps the monthly totals exact under every kind of write (they are what analytics read)', async () => {
    const db = h.database.db;
    // A CFDI's issuer becomes the venue; a bulk update, a category change and a delete all move money.
    const bought = await add(a, spending({ amount: '116', date: '2026/09/09', category: '5' }));
    await attachReceipt(h, a, bought, { uuid: '33333333-2222-4333-8444-555555555555', facts: { nameIssuer: 'PAPELERÍA LA PLUMA' } });
    await db.update(tickets).set({ amount: sql`${tickets.amount} + 1` }).where(eq(tickets.clientId, (await clientOf(a)).id));
    const moved = await add(a, spending({ amount: '12', date: '2026/09/10', category: '5' }));
    await h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: moved, meta_tag_id: 7 } } });
    await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [moved] } });
    await add(a, spending({ amount: '8', date: '2026/09/11', category: '5' }));
    const recomputed = await db.execute(sql`
      select t.client_id, to_char(date_trunc('month', t.received_at at time zone 'America/Mexico_City'), 'YYYY-MM-DD') as month, t.type,
             coalesce(t.meta_tag_id, 0) as tag, coalesce(nullif(r.name_issuer, ''), c.name) as venue, sum(t.amount)::numeric(18,2)::text as total, count(*)::int as n
      from tickets t join companies c on c.id = t.company_id left join receipts r on r.id = t.receipt_id
      where t.deleted_at is null group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`);
    const kept = await db
      .select()
      .from(ticketMonthTotals)
      .where(sql`${ticketMonthTotals.tickets} > 0`)
      .orderBy(ticketMonthTotals.clientId, ticketMonthTotals.month, ticketMonthTotals.type, ticketMonthTotals.metaTagId, ticketMonthTotals.venue);
    const rows = (recomputed as unknown as { rows?: Record<string, unknown>[] }).rows ?? (recomputed as unknown as Record<string, unknown>[]);
    expect(kept.map((k) => [k.clientId, k.month, k.type, k.metaTagId, k.venue, k.total, k.tickets])).toEqual(
      rows.map((r) => [r.client_id, r.month, r.type, r.tag, r.venue, r.total, r.n]),
    );
    const sept = await analytics(a, `${a.rfc}/2026/9`);
    // The manual entry beside it counts in its category but is no establishment.
    expect(sept.json.response.current.venues).toEqual([{ label: 'PAPELERÍA LA PLUMA', value: 117 }]);
    expect(sept.json.response.current.categories).toEqual([{ label: 'Hospedaje', value: 125 }]);
    // Deleting a tax account takes its tickets and totals with it (the triggers skip a vanishing account).
    await db.delete(clients).where(eq(clients.id, (await clientOf(b)).id));
    expect(await db.select().from(ticketMonthTotals).where(eq(ticketMonthTotals.clientId, (await clientOf(a)).id))).not.toHaveLength(0);
  });

  async function clientOf(o: Owner) {
    const [c] = await h.database.db.select().from(clients).where(eq(clients.rfc, o.rfc));
    return c!;
  }
});
