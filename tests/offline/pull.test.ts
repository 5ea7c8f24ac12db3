import { afterEach, describe, expect, it } from 'vitest';
import type { AppDb } from '../../src/offline/db';
import { MSG } from '../../src/domain/messages';
import { PULL_CHUNK, applyPull, isMonthSeen, pullMonth, pullYear } from '../../src/offline/pull';
import { refreshReferenceData } from '../../src/offline/reference-data';
import { LIST_TTL_MS } from '../../src/offline/local-data';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { deleteTickets } from '../../src/offline/operations/ticket-delete';
import { setTicketNote } from '../../src/offline/operations/ticket-update';
import { ApiError, createHttp } from '../../src/offline/http';
import { CTX, RFC, apiTicket, expenseForm, freshDb, json, scriptedFetch } from './outbox-fixtures';

let db: AppDb;
afterEach(async () => {
  await db.delete();
});

/** The month (or year) list, not the change feed a first load asks for its cursor first. */
const isMonthList = (s: { method: string; path: string }) => s.method === 'GET' && s.path.startsWith('/api/v2/tickets?');

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

describe('pullMonth / pullYear', () => {
  it('asks for the month with bracketed params and stores the tickets, marking the month seen', async () => {
    db = freshDb();
    const api = scriptedFetch();
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(1) }), apiTicket({ ticket_id: id(2), received_at: '2026-11-01T00:30:00-06:00' })] } }));
    expect(await isMonthSeen(db, RFC, 2026, 11)).toBe(false);
    const r = await pullMonth(db, createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' }), RFC, 2026, 11);
    expect(r).toEqual({ received: 2, written: 2, removed: 0 });
    const url = new URL(`http://x${api.sent.find(isMonthList)!.path}`);
    expect(url.pathname).toBe('/api/v2/tickets');
    expect(Object.fromEntries(url.searchParams)).toEqual({ 'usuario[rfc_owner]': RFC, 'date[year]': '2026', 'date[month]': '11' });
    expect(api.sent.find(isMonthList)!.headers.get('x-access-token')).toBe('t');
    expect(await db.tickets.get(id(2))).toMatchObject({ month: '2026-11', syncState: 'synced', pendingOps: 0 });
    expect(await isMonthSeen(db, RFC, 2026, 11)).toBe(true);
    expect(await isMonthSeen(db, RFC, 2026, 10)).toBe(false);
  });

  it('never overwrites a ticket with queued operations nor brings back one deleted here', async () => {
    db = freshDb();
    const edited = await createManualTicket(db, expenseForm(), CTX);
    const deleted = await createManualTicket(db, expenseForm({ amount: '2' }), CTX);
    await db.outbox.clear();
    await db.tickets.toCollection().modify({ syncState: 'synced', pendingOps: 0, syncedAt: 1 });
    await setTicketNote(db, edited, 'mía');
    await deleteTickets(db, [deleted]);
    const r = await applyPull(db, RFC, ['2026-11'], [
      apiTicket({ ticket_id: edited, note: 'vieja' }), apiTicket({ ticket_id: deleted }), apiTicket({ ticket_id: id(3) }),
    ], Date.now());
    expect(r.written).toBe(1);
    expect((await db.tickets.get(edited))?.note).toBe('mía');
    expect(await db.tickets.get(deleted)).toBeUndefined();
    expect(await db.tickets.get(id(3))).toBeDefined();
  });

  it('removes synced rows of the month the server no longer has, but not newer or pending ones', async () => {
    db = freshDb();
    await applyPull(db, RFC, ['2026-11'], [apiTicket({ ticket_id: id(1) }), apiTicket({ ticket_id: id(2) }), apiTicket({ ticket_id: id(3), received_at: '2026-10-05T12:00:00-06:00' })], 0);
    const pending = await createManualTicket(db, expenseForm(), CTX);
    const started = Date.now();
    await db.tickets.update(id(2), { syncedAt: started + 5 }); // acknowledged after the pull started
    const r = await applyPull(db, RFC, ['2026-11'], [], started);
    expect(r.removed).toBe(1);
    expect(await db.tickets.get(id(1))).toBeUndefined();
    expect(await db.tickets.get(id(2))).toBeDefined();
    expect(await db.tickets.get(id(3))).toBeDefined(); // another month
    expect(await db.tickets.get(pending)).toBeDefined();
  });

  it('writes big pulls in chunks and a year pull marks every month seen', async () => {
    db = freshDb();
    const many = Array.from({ length: PULL_CHUNK * 2 + 7 }, (_, i) =>
      apiTicket({ ticket_id: id(i + 1), received_at: `2026-${String((i % 12) + 1).padStart(2, '0')}-10T12:00:00-06:00` }));
    const api = scriptedFetch();
    api.on(isMonthList, json(200, { response: { tickets: many } }));
    const r = await pullYear(db, createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' }), RFC, 2026);
    expect(r.written).toBe(many.length);
    expect(await db.tickets.count()).toBe(many.length);
    expect(new URL(`http://x${api.sent.find(isMonthList)!.path}`).searchParams.get('usuario[view]')).toBe('annual');
    for (let m = 1; m <= 12; m++) expect(await isMonthSeen(db, RFC, 2026, m)).toBe(true);
  });

  it('offline or refused: throws an offline ApiError and leaves the stored copy', async () => {
    db = freshDb();
    await applyPull(db, RFC, ['2026-11'], [apiTicket({ ticket_id: id(1) })], 0);
    const api = scriptedFetch();
    // A GET is retried once (ky) before it counts as offline.
    api.on(() => true, 'network');
    api.on(() => true, 'network');
    api.on(() => true, json(404, { errors: [MSG.notFound] }));
    const deps = createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' });
    const offline = await pullMonth(db, deps, RFC, 2026, 11).catch((e: unknown) => e);
    expect(offline).toBeInstanceOf(ApiError);
    expect((offline as ApiError).offline).toBe(true);
    const refused = await pullMonth(db, deps, RFC, 2026, 11).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 404, message: MSG.notFound });
    expect(await db.tickets.count()).toBe(1);
  });
});

describe('refreshReferenceData', () => {
  it('stores plans, categories, income categories and companies, refetching after 24 h', async () => {
    db = freshDb();
    const api = scriptedFetch();
    const companies = [{ short_name: 'manual', diverza_client_id: 1, name: 'Registro manual', value: '/logos/manual.svg', extra: 1 }];
    const answer = () => (s: { path: string }) =>
      s.path === '/api/v3/plans.json' ? json(200, [{ id: 3, name: 'Profesional', summary: 'Todo', price: 99, features: [] }])
        : s.path === '/meta_tags.json' ? json(200, { response: [{ id: 1, meta_tag: 'A' }] })
        : s.path === '/income_meta_tags.json' ? json(200, { response: [{ id: 2, income_meta_tag: 'B' }] })
          : json(200, { response: companies });
    api.on(() => true, answer(), false);
    const deps = createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' });
    const t0 = 1_000_000;
    expect(await refreshReferenceData(db, deps, { now: t0 })).toEqual({ refreshed: ['categories', 'companies', 'incomeCategories', 'plans'], failed: [] });
    expect(await db.plans.toArray()).toEqual([{ id: 3, name: 'Profesional', summary: 'Todo', price: 99 }]);
    expect(await db.companies.toArray()).toEqual([{ short_name: 'manual', diverza_client_id: 1, name: 'Registro manual', value: '/logos/manual.svg' }]);
    expect(await db.incomeCategories.toArray()).toEqual([{ id: 2, income_meta_tag: 'B' }]);
    expect(await refreshReferenceData(db, deps, { now: t0 + LIST_TTL_MS - 1 })).toEqual({ refreshed: [], failed: [] });
    expect(api.sent).toHaveLength(4);
    expect((await refreshReferenceData(db, deps, { now: t0 + LIST_TTL_MS })).refreshed).toHaveLength(4);
  });

  it('a failed list keeps its stored copy', async () => {
    db = freshDb();
    await db.companies.put({ short_name: 'manual', diverza_client_id: 1, name: 'Registro manual', value: 'x' });
    const api = scriptedFetch();
    api.on(() => true, 'network', false);
    const r = await refreshReferenceData(db, createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' }));
    expect(r.failed).toEqual(['categories', 'companies', 'incomeCategories', 'plans']);
    expect(await db.companies.count()).toBe(1);
  });
});
