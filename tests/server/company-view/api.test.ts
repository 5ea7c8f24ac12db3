// The company expense view over HTTP: the month's collaborator tickets and approved-spending
// stats, 'Aprobar' / 'Rechazar' with their §8 messages, the review the collaborator then sees on the ticket,
// and every refusal — the authorisation matrix (manager, collaborator, outsider, no Gastos, no session).
import { eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DEPARTMENT, REJECTION_REASON_MAX } from '../../../src/domain/company';
import { MSG } from '../../../src/domain/messages';
import { MANUAL_COMPANY_ID, TICKET_TYPE } from '../../../src/domain/ticket';
import { companies, tickets } from '../../../src/server/db/schema';
import { collaborators, ticketReviews } from '../../../src/server/db/schema-company';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { addDepartment, companyManager, type Manager } from '../company/helpers';
import { activeCollaborator, firstMetaTags, insertTicket, personRfc, statusOf, type Member } from './helpers';

const COMPANY_RFC = 'ABC010101AB1';
const YEAR = 2026;
const MONTH = 3;
const inMarch = (day: number) => `2026-03-${String(day).padStart(2, '0')}T12:00:00-06:00`;
const query = (rfc: string, year = YEAR, month = MONTH, action = 'company-view-tickets') =>
  `?usuario[rfc_owner]=${rfc}&date[year]=${year}&date[month]=${month}&action=${action}`;
const listPath = (rfc = COMPANY_RFC) => `/tickets/colaborators${query(rfc)}`;
const statsPath = (rfc = COMPANY_RFC) => `/tickets/colaborator_stats${query(rfc, YEAR, MONTH, 'company-view-stats')}`;

type TicketJson = { ticket_id: string; ticket_status_name: string; username: string; user_area: string; amount: string; review?: { decision: string; reason: string | null } };

describe.each(DRIVERS)('company expense view on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let ventas: Member;
  let sinArea: Member;
  let tags: { id: number; metaTag: string }[];
  const ids = {} as Record<'a' | 'b' | 'c' | 'income' | 'deleted' | 'february', string>;

  beforeAll(async () => {
    h = await createHarness(driver);
    m = await companyManager(h, 4, COMPANY_RFC);
    const areaVentas = await addDepartment(h, m, 'ventas');
    ventas = await activeCollaborator(h, m.clientId, areaVentas, personRfc());
    sinArea = await activeCollaborator(h, m.clientId, null, personRfc());
    tags = await firstMetaTags(h, 7);
    ids.a = await insertTicket(h, ventas, { amount: '100.00', receivedAt: inMarch(2), metaTagId: tags[0]!.id });
    ids.b = await insertTicket(h, ventas, { amount: '250.50', receivedAt: inMarch(5), metaTagId: tags[1]!.id });
    ids.c = await insertTicket(h, sinArea, { amount: '40.00', receivedAt: inMarch(7) });
    // Not in the view: income, deleted, another month.
    ids.income = await insertTicket(h, ventas, { amount: '999.00', receivedAt: inMarch(3), type: TICKET_TYPE.income, statusId: 9 });
    ids.deleted = await insertTicket(h, ventas, { amount: '77.00', receivedAt: inMarch(4), deleted: true });
    ids.february = await insertTicket(h, ventas, { amount: '60.00', receivedAt: '2026-02-15T12:00:00-06:00', statusId: 6 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("lists the month's type-2 tickets of the active collaborators with username and department", async () => {
    const r = await h.call('GET', listPath(), { token: m.token });
    expect(r.status, r.text).toBe(200);
    const list = r.json.response.tickets as TicketJson[];
    expect(list.map((t) => t.ticket_id).sort()).toEqual([ids.a, ids.b, ids.c].sort());
    const b = list.find((t) => t.ticket_id === ids.b)!;
    expect(b).toMatchObject({ username: ventas.username, user_area: 'Ventas', amount: '250.50', ticket_status_name: 'no facturable' });
    expect(list.find((t) => t.ticket_id === ids.c)).toMatchObject({ username: sinArea.username, user_area: '' });
    // Newest first.
    expect(list.map((t) => t.ticket_id)).toEqual([ids.c, ids.b, ids.a]);
    expect(r.json.response).toMatchObject({ total: 3, page: 1, per_page: 50 });
  });

  it('pages the list newest first; total counts the whole month', async () => {
    const first = await h.call('GET', `${listPath()}&page=1&per_page=2`, { token: m.token });
    expect(first.json.response).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect((first.json.response.tickets as TicketJson[]).map((t) => t.ticket_id)).toEqual([ids.c, ids.b]);
    const second = await h.call('GET', `${listPath()}&page=2&per_page=2`, { token: m.token });
    expect((second.json.response.tickets as TicketJson[]).map((t) => t.ticket_id)).toEqual([ids.a]);
    expect((await h.call('GET', `${listPath()}&per_page=1001`, { token: m.token })).status).toBe(400);
    expect((await h.call('GET', `${listPath()}&page=0`, { token: m.token })).status).toBe(400);
  });

  it('answers 400 for a month that is not a month', async () => {
    const r = await h.call('GET', `/tickets/colaborators${query(COMPANY_RFC, YEAR, 13)}`, { token: m.token });
    expect(r.status).toBe(400);
  });

  it('approves with the §8 message; the ticket moves to aprobado and the collaborator sees the review', async () => {
    const r = await h.call('PUT', '/tickets/mark_as_paid', { token: m.token, body: { tickets: [ids.a, ids.b] } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.response).toEqual({ message: MSG.ticketsApproved, tickets: 2 });
    expect(await statusOf(h, ids.a)).toBe(6);
    const own = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${ventas.rfc}&date[year]=${YEAR}&date[month]=${MONTH}`, { token: ventas.token });
    const a = (own.json.response.tickets as TicketJson[]).find((t) => t.ticket_id === ids.a)!;
    expect(a.ticket_status_name).toBe('aprobado');
    expect(a.review).toEqual({ decision: 'aprobado', reason: null });
    const [review] = await h.database.db.select().from(ticketReviews).where(eq(ticketReviews.ticketId, ids.a));
    expect(review).toMatchObject({ companyClientId: m.clientId, decision: 'aprobado', reviewedBy: m.userId });
  });

  it('computes approved spending: per month, by department (no department → Otros), top categories and venues', async () => {
    const [store] = await h.database.db.select({ id: companies.id, name: companies.name }).from(companies).where(ne(companies.id, MANUAL_COMPANY_ID)).limit(1);
    await insertTicket(h, sinArea, { amount: '10.25', receivedAt: inMarch(8), statusId: 6, companyId: store!.id });
    const r = await h.call('GET', statsPath(), { token: m.token });
    expect(r.status, r.text).toBe(200);
    const stats = r.json.response.stats;
    expect(stats.monthly).toHaveLength(12);
    expect(stats.monthly[1]).toEqual({ month: '2026-02', sum: 60 });
    expect(stats.monthly[2]).toEqual({ month: '2026-03', sum: 360.75 });
    expect(stats.monthly[3]).toEqual({ month: '2026-04', sum: 0 });
    expect(stats.departments).toEqual([{ label: 'Ventas', value: 350.5 }, { label: NO_DEPARTMENT, value: 10.25 }]);
    expect(stats.categories[0]).toEqual({ label: tags[1]!.metaTag, value: 250.5 });
    expect(stats.categories.map((c: { label: string }) => c.label)).toContain('Sin Categoría');
    // Manual entries are no establishment: only the store's ticket is a venue.
    expect(stats.venues).toEqual([{ label: store!.name, value: 10.25 }]);
  });

  it('shows only the top 5 categories', async () => {
    for (let i = 0; i < 7; i++) await insertTicket(h, ventas, { amount: `${i + 1}.00`, receivedAt: inMarch(9), statusId: 6, metaTagId: tags[i]!.id });
    const r = await h.call('GET', statsPath(), { token: m.token });
    expect(r.json.response.stats.categories).toHaveLength(5);
  });

  it('rejects with a reason the collaborator sees; the reason is required and limited', async () => {
    const none = await h.call('PUT', '/tickets/mark_as_rejected', { token: m.token, body: { tickets: [ids.c] } });
    expect(none.status).toBe(400);
    expect(none.json.errors).toEqual([MSG.rejectionReasonRequired]);
    const blank = await h.call('PUT', '/tickets/mark_as_rejected', { token: m.token, body: { tickets: [ids.c], reason: '   ' } });
    expect(blank.json.errors).toEqual([MSG.rejectionReasonRequired]);
    const long = await h.call('PUT', '/tickets/mark_as_rejected', { token: m.token, body: { tickets: [ids.c], reason: 'x'.repeat(REJECTION_REASON_MAX + 1) } });
    expect(long.status).toBe(400);
    expect(long.json.errors).toEqual([MSG.rejectionReasonTooLong]);
    expect(await statusOf(h, ids.c)).toBe(3);

    const r = await h.call('PUT', '/tickets/mark_as_rejected', { token: m.token, body: { tickets: [ids.c], reason: '  Falta la factura  ', client_id: m.clientId } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.response).toEqual({ message: MSG.ticketsRejected, tickets: 1 });
    const own = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${sinArea.rfc}&date[year]=${YEAR}&date[month]=${MONTH}`, { token: sinArea.token });
    const c = (own.json.response.tickets as TicketJson[]).find((t) => t.ticket_id === ids.c)!;
    expect(c.ticket_status_name).toBe('rechazado');
    expect(c.review).toEqual({ decision: 'rechazado', reason: 'Falta la factura' });
  });

  it('a later approval replaces the rejection and clears its reason', async () => {
    const r = await h.call('PUT', '/tickets/mark_as_paid', { token: m.token, body: { tickets: [ids.c] } });
    expect(r.status).toBe(200);
    const [review] = await h.database.db.select().from(ticketReviews).where(eq(ticketReviews.ticketId, ids.c));
    expect(review).toMatchObject({ decision: 'aprobado', reason: null });
    expect(await statusOf(h, ids.c)).toBe(6);
  });

  it('404 and nothing changed when one id is not the company’s (another company, income, deleted, unknown)', async () => {
    const other = await companyManager(h, 4, 'XYZ010101AB2', 'Otra Empresa SA');
    const stranger = await activeCollaborator(h, other.clientId, null, personRfc());
    const foreign = await insertTicket(h, stranger, { amount: '5.00', receivedAt: inMarch(3) });
    const fresh = await insertTicket(h, ventas, { amount: '8.00', receivedAt: inMarch(3) });
    for (const bad of [foreign, ids.income, ids.deleted, '018f0000-0000-7000-8000-000000000000']) {
      const r = await h.call('PUT', '/tickets/mark_as_paid', { token: m.token, body: { tickets: [fresh, bad], client_id: m.clientId } });
      expect(r.status, bad).toBe(404);
      expect(r.json.errors).toEqual([MSG.notFound]);
      const rej = await h.call('PUT', '/tickets/mark_as_rejected', { token: m.token, body: { tickets: [fresh, bad], reason: 'No' } });
      expect(rej.status, bad).toBe(404);
    }
    expect(await statusOf(h, fresh)).toBe(3);
    expect(await statusOf(h, foreign)).toBe(3);
    expect(await h.database.db.select().from(ticketReviews).where(inArray(ticketReviews.ticketId, [fresh, foreign]))).toEqual([]);
    // The other company's manager cannot approve ours either.
    const cross = await h.call('PUT', '/tickets/mark_as_paid', { token: other.token, body: { tickets: [fresh] } });
    expect(cross.status).toBe(404);
    const named = await h.call('PUT', '/tickets/mark_as_paid', { token: other.token, body: { tickets: [fresh], client_id: other.clientId } });
    expect(named.status).toBe(404);
    expect(await statusOf(h, fresh)).toBe(3);
  });

  it('drops the tickets of a collaborator who is no longer active', async () => {
    const gone = await activeCollaborator(h, m.clientId, null, personRfc());
    const t = await insertTicket(h, gone, { amount: '12.00', receivedAt: inMarch(6) });
    await h.database.db.update(collaborators).set({ status: 'inactivo' }).where(eq(collaborators.id, gone.collaboratorId));
    const list = await h.call('GET', listPath(), { token: m.token });
    expect((list.json.response.tickets as TicketJson[]).some((x) => x.ticket_id === t)).toBe(false);
    const r = await h.call('PUT', '/tickets/mark_as_paid', { token: m.token, body: { tickets: [t], client_id: m.clientId } });
    expect(r.status).toBe(404);
  });

  it('authorisation matrix: collaborator 403, outsider 404, no Gastos 403, no session 401', async () => {
    const t = await insertTicket(h, ventas, { amount: '3.00', receivedAt: inMarch(3) });
    const outsider = await h.signUp('fuera');
    const poor = await companyManager(h, 1, 'POB010101AB3', 'Pobre SA');
    const poorMember = await activeCollaborator(h, poor.clientId, null, personRfc());
    const poorTicket = await insertTicket(h, poorMember, { amount: '3.00', receivedAt: inMarch(3) });
    const calls = (token: string | undefined, rfc: string, ticket: string, clientId?: number) => [
      h.call('GET', listPath(rfc), { token }),
      h.call('GET', statsPath(rfc), { token }),
      h.call('PUT', '/tickets/mark_as_paid', { token, body: { tickets: [ticket], ...(clientId ? { client_id: clientId } : {}) } }),
      h.call('PUT', '/tickets/mark_as_rejected', { token, body: { tickets: [ticket], reason: 'No', ...(clientId ? { client_id: clientId } : {}) } }),
    ];
    const statuses = async (token: string | undefined, rfc: string, ticket: string, clientId?: number) =>
      (await Promise.all(calls(token, rfc, ticket, clientId))).map((r) => [r.status, r.json?.errors?.[0]]);

    expect(await statuses(ventas.token, COMPANY_RFC, t)).toEqual(Array(4).fill([403, MSG.forbidden]));
    expect(await statuses(ventas.token, COMPANY_RFC, t, m.clientId)).toEqual(Array(4).fill([403, MSG.forbidden]));
    expect(await statuses(outsider.token, COMPANY_RFC, t)).toEqual(Array(4).fill([404, MSG.notFound]));
    expect(await statuses(outsider.token, COMPANY_RFC, t, m.clientId)).toEqual(Array(4).fill([404, MSG.notFound]));
    expect(await statuses(poor.token, 'POB010101AB3', poorTicket)).toEqual(Array(4).fill([403, MSG.featureLocked]));
    expect((await Promise.all(calls(undefined, COMPANY_RFC, t))).map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(await statusOf(h, t)).toBe(3);
    expect(await statusOf(h, poorTicket)).toBe(3);
  });

  it('reviews 1,000 tickets in one request', async () => {
    const many: string[] = [];
    for (let i = 0; i < 1000; i++) many.push(await insertTicket(h, sinArea, { amount: '1.00', receivedAt: inMarch(20) }));
    const r = await h.call('PUT', '/tickets/mark_as_paid', { token: m.token, body: { tickets: many } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.response.tickets).toBe(1000);
    const rows = await h.database.db.select({ s: tickets.statusId }).from(tickets).where(inArray(tickets.id, many));
    expect(rows.every((x) => x.s === 6)).toBe(true);
    expect(rows).toHaveLength(1000);
  });
});
