import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryMonthPage, querySelectableIds, type StoredTicket } from '../../../src/app/tickets/month-query';
import { receipt, ticket } from './fixtures';

const lookups = { companies: new Map<string, string>(), incomeCategories: new Map<number, string>() };
let db: Dexie;

function stored(i: number, over: Partial<StoredTicket> = {}): StoredTicket {
  const day = String(i).padStart(2, '0');
  return {
    ...ticket({ ticket_id: `t-${day}`, received_at: `2026-11-${day}T12:00:00-06:00`, note: i % 5 === 0 ? 'taxi' : '' }),
    month: '2026-11',
    syncState: 'synced',
    ...over,
  };
}

beforeEach(async () => {
  // The issue-3 contract's schema for tickets.
  db = new Dexie(`month-query-${Math.random()}`);
  db.version(1).stores({ tickets: 'ticket_id, [rfc+month], [rfc+month+received_at], syncState' });
  await db.open();
  const rows = Array.from({ length: 23 }, (_, i) => stored(i + 1));
  rows.push(stored(30, { ticket_id: 'other-rfc', rfc: 'XAXX010101000' }));
  rows.push({ ...stored(5, { ticket_id: 'october' }), month: '2026-10', received_at: '2026-10-05T12:00:00-06:00' });
  rows.push(stored(24, { ticket_id: 't-receipt', receipt, ticket_status_name: 'facturado' }));
  await db.table('tickets').bulkPut(rows);
});

afterEach(async () => {
  db.close();
  await db.delete();
});

describe('a month page from Dexie', () => {
  it('pages 10 rows newest first, only of the account and month', async () => {
    const p1 = await queryMonthPage(db, { rfc: 'LOVA850101AB1', month: '2026-11', search: '', page: 1 }, lookups);
    expect(p1.total).toBe(24);
    expect(p1.rows.map((r) => r.ticket_id)).toEqual([
      't-receipt', 't-23', 't-22', 't-21', 't-20', 't-19', 't-18', 't-17', 't-16', 't-15',
    ]);
    const p3 = await queryMonthPage(db, { rfc: 'LOVA850101AB1', month: '2026-11', search: '', page: 3 }, lookups);
    expect(p3.rows.map((r) => r.ticket_id)).toEqual(['t-04', 't-03', 't-02', 't-01']);
  });

  it('searches within the month and clamps the page', async () => {
    const p = await queryMonthPage(db, { rfc: 'LOVA850101AB1', month: '2026-11', search: 'TAXI', page: 3 }, lookups);
    expect(p.total).toBe(4);
    expect(p.monthTotal).toBe(24);
    expect(p.page).toBe(1);
    expect(p.rows.map((r) => r.ticket_id)).toEqual(['t-20', 't-15', 't-10', 't-05']);
  });

  it('lists the selectable ids of every matching row, not only the page', async () => {
    // fixtures are 'no facturable' (selectable) and one invoiced with a receipt
    expect(await querySelectableIds(db, { rfc: 'LOVA850101AB1', month: '2026-11', search: '' }, lookups)).toHaveLength(24);
    expect(await querySelectableIds(db, { rfc: 'XAXX010101000', month: '2026-11', search: '' }, lookups)).toEqual(['other-rfc']);
  });

  it("pages a run of months (the annual view's year) newest first", async () => {
    const year = await queryMonthPage(db, { rfc: 'LOVA850101AB1', month: '2026-01', toMonth: '2026-12', search: '', page: 3 }, lookups);
    expect(year.monthTotal).toBe(25);
    expect(year.rows.map((r) => r.ticket_id)).toEqual(['t-04', 't-03', 't-02', 't-01', 'october']);
    const october = await queryMonthPage(db, { rfc: 'LOVA850101AB1', month: '2026-10', toMonth: '2026-10', search: '', page: 1 }, lookups);
    expect(october.rows.map((r) => r.ticket_id)).toEqual(['october']);
  });
});
