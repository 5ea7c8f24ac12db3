// Per-diem (viáticos) events over HTTP: each rule with its exact message (deposit not a
// number, start date in the past, …), the transitions open → approved → closed and their 409s, the
// spending of the event's tickets and the totals frozen on close, and who may call (manager, collaborator,
// outsider, the plan gate).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients } from '../../../src/server/db/schema';
import { companyAreas, ticketReviews } from '../../../src/server/db/schema-company';
import { mexicoCityToday } from '../../../src/domain/mexico-time';
import { companyManager, type Manager } from '../company/helpers';
import { activeCollaborator, insertTicket, personRfc, type Member } from '../company-view/helpers';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** yyyy-mm-dd `days` after `ymd` (calendar arithmetic). */
function plusDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
/** Noon of that Mexico City day, as an instant. */
const noon = (ymd: string) => `${ymd}T12:00:00-06:00`;

describe.each(DRIVERS)('per-diem events on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let ventas: number;
  let ana: Member;
  let beto: Member;
  let today: string;
  const url = (who: Manager = m) => `/api/v3/clients/${who.clientId}/per_diem_events.json`;
  const create = (over: Record<string, unknown> = {}, who: Manager = m) =>
    h.call('POST', url(who), {
      token: who.token,
      body: { per_diem_event: { event_name: 'Expo Monterrey', start_date: today, end_date: plusDays(today, 2), area_id: null, collaborator_id: null, deposit: '5000', notes: '', ...over } },
    });
  const act = (id: number, action: 'approve' | 'close', who: Manager = m) =>
    h.call('POST', `/api/v3/clients/${who.clientId}/per_diem_events/${id}/${action}.json`, { token: who.token });

  beforeAll(async () => {
    h = await createHarness(driver);
    m = await companyManager(h, 6, 'VIA010101AB1', 'Viajes Del Norte SA');
    // Departments through the table (the areas API is gated by Colaboradores, which plan 6 lacks).
    const [a] = await h.database.db.insert(companyAreas).values({ companyClientId: m.clientId, area: 'Ventas' }).returning({ id: companyAreas.id });
    ventas = a!.id;
    const [b] = await h.database.db.insert(companyAreas).values({ companyClientId: m.clientId, area: 'Compras' }).returning({ id: companyAreas.id });
    ana = await activeCollaborator(h, m.clientId, ventas, personRfc());
    beto = await activeCollaborator(h, m.clientId, b!.id, personRfc());
    today = mexicoCityToday(new Date());
  });
  afterAll(async () => h?.close());

  it('refuses each bad input with its exact message, in the rule order', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ event_name: '  ' }, 422, MSG.perDiemNameRequired],
      [{ deposit: '' }, 422, MSG.perDiemDepositRequired],
      [{ deposit: null }, 422, MSG.perDiemDepositRequired],
      [{ deposit: 'mil pesos' }, 422, MSG.perDiemDepositNumeric],
      [{ deposit: '12abc' }, 422, MSG.perDiemDepositNumeric],
      [{ deposit: '-5' }, 422, MSG.perDiemDepositNumeric],
      [{ deposit: 0 }, 422, MSG.perDiemDepositNumeric],
      [{ deposit: '10.555' }, 422, MSG.perDiemDepositNumeric],
      [{ deposit: true }, 400, MSG.perDiemDepositNumeric],
      [{ start_date: '' }, 422, MSG.perDiemStartRequired],
      [{ start_date: plusDays(today, -1) }, 422, MSG.perDiemStartPast],
      [{ start_date: `${Number(today.slice(0, 4)) + 1}-02-30`, end_date: '' }, 422, MSG.perDiemStartRequired],
      [{ end_date: plusDays(today, -1) }, 422, MSG.perDiemEndBeforeStart],
      [{ area_id: 999_999 }, 422, MSG.perDiemAreaInvalid],
      [{ collaborator_id: 999_999 }, 422, MSG.perDiemCollaboratorInvalid],
    ];
    for (const [over, status, message] of cases) {
      const r = await create(over);
      expect({ over, status: r.status, errors: r.json?.errors }).toEqual({ over, status, errors: [message] });
    }
    expect((await h.call('GET', url(), { token: m.token })).json.response).toEqual([]);
  });

  it('creates open events, accepts a numeric deposit and lists them newest first', async () => {
    const first = await create({ event_name: ' Feria Guadalajara ', deposit: 1200.5, end_date: '' });
    expect(first.status).toBe(201);
    expect(first.json.response).toMatchObject({
      status: 'open',
      event_name: 'Feria Guadalajara',
      start_date: today,
      end_date: today,
      deposit: 1200.5,
      area: null,
      username: null,
      authorized_total: null,
      spent_total: null,
    });
    const second = await create({ event_name: 'Visita a clientes', area_id: ventas, collaborator_id: ana.collaboratorId, deposit: '3000.00', notes: 'Hotel incluido' });
    expect(second.status).toBe(201);
    expect(second.json.response).toMatchObject({ area: 'Ventas', area_id: ventas, username: 'Ana López', collaborator_id: ana.collaboratorId, notes: 'Hotel incluido' });
    const list = await h.call('GET', url(), { token: m.token });
    expect(list.status).toBe(200);
    expect(list.json.response.map((e: { id: number }) => e.id)).toEqual([second.json.response.id, first.json.response.id]);
  });

  it('moves open → approved → closed, refusing every other move with 409', async () => {
    const id = (await create({ event_name: 'Congreso' })).json.response.id as number;
    expect(await act(id, 'close')).toMatchObject({ status: 409, json: { errors: [MSG.perDiemNotApproved] } });
    const approved = await act(id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.json.response.status).toBe('approved');
    expect(await act(id, 'approve')).toMatchObject({ status: 409, json: { errors: [MSG.perDiemNotOpen] } });
    const closed = await act(id, 'close');
    expect(closed.status).toBe(200);
    expect(closed.json.response.status).toBe('closed');
    expect(await act(id, 'approve')).toMatchObject({ status: 409, json: { errors: [MSG.perDiemNotOpen] } });
    expect(await act(id, 'close')).toMatchObject({ status: 409, json: { errors: [MSG.perDiemNotApproved] } });
    expect((await act(987_654, 'approve')).status).toBe(404);
    expect((await h.call('POST', `/api/v3/clients/${m.clientId}/per_diem_events/abc/approve.json`, { token: m.token })).status).toBe(404);
  });

  it("sums the event's type-2 tickets between its dates and freezes authorised vs spent on close", async () => {
    const start = plusDays(today, 1);
    const end = plusDays(today, 3);
    const approvedTicket = await insertTicket(h, ana, { amount: '400.25', receivedAt: noon(start) });
    await insertTicket(h, ana, { amount: '100.00', receivedAt: `${end}T23:30:00-06:00` }); // pending, last minutes of the end day
    const rejected = await insertTicket(h, ana, { amount: '999.00', receivedAt: noon(start) });
    await insertTicket(h, ana, { amount: '50.00', receivedAt: noon(today) }); // before the start
    await insertTicket(h, ana, { amount: '60.00', receivedAt: `${plusDays(end, 1)}T00:30:00-06:00` }); // after the end
    await insertTicket(h, ana, { amount: '70.00', receivedAt: noon(start), type: 4 }); // income
    await insertTicket(h, ana, { amount: '80.00', receivedAt: noon(start), deleted: true });
    await insertTicket(h, beto, { amount: '20.00', receivedAt: noon(start) }); // another department
    await h.database.db.insert(ticketReviews).values([
      { ticketId: approvedTicket, companyClientId: m.clientId, decision: 'aprobado' },
      { ticketId: rejected, companyClientId: m.clientId, decision: 'rechazado', reason: 'Sin factura' },
    ]);

    const byCollaborator = (await create({ event_name: 'Por colaborador', start_date: start, end_date: end, collaborator_id: ana.collaboratorId, deposit: '450' })).json.response;
    expect(byCollaborator).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 100 });
    const byArea = (await create({ event_name: 'Por departamento', start_date: start, end_date: end, area_id: ventas })).json.response;
    expect(byArea).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 100 });
    const wholeCompany = (await create({ event_name: 'Toda la empresa', start_date: start, end_date: end })).json.response;
    expect(wholeCompany).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 120 });

    await act(byCollaborator.id, 'approve');
    const closed = (await act(byCollaborator.id, 'close')).json.response;
    expect(closed).toMatchObject({ status: 'closed', authorized_total: 450, spent_total: 500.25 });
    expect(closed.closed_at).toEqual(expect.any(String));
    // Frozen: a ticket added afterwards changes the live figures, not the totals.
    await insertTicket(h, ana, { amount: '10.00', receivedAt: noon(start) });
    const empty = (await create({ event_name: 'Sin gastos', start_date: plusDays(end, 5), end_date: plusDays(end, 6) })).json.response;
    // Events over part of the others' days: each counts only its own days.
    const firstDay = (await create({ event_name: 'Primer día', start_date: start, end_date: start })).json.response;
    const lastDay = (await create({ event_name: 'Último día', start_date: end, end_date: end, collaborator_id: ana.collaboratorId })).json.response;
    // The list computes every event's figures at once: each keeps its own scope and days.
    const list = (await h.call('GET', url(), { token: m.token })).json.response as { id: number }[];
    const listed = (id: number) => list.find((e) => e.id === id);
    expect(listed(byCollaborator.id)).toMatchObject({ authorized_total: 450, spent_total: 500.25, spending_pending_of_authorization_: 110 });
    expect(listed(byArea.id)).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 110 });
    expect(listed(wholeCompany.id)).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 130 });
    expect(listed(empty.id)).toMatchObject({ authorized_spending: 0, spending_pending_of_authorization_: 0 });
    expect(listed(firstDay.id)).toMatchObject({ authorized_spending: 400.25, spending_pending_of_authorization_: 30 });
    expect(listed(lastDay.id)).toMatchObject({ authorized_spending: 0, spending_pending_of_authorization_: 100 });
  });

  it('serves the departments and collaborators for the form', async () => {
    const r = await h.call('GET', `/api/v3/clients/${m.clientId}/per_diem_events/options.json`, { token: m.token });
    expect(r.status).toBe(200);
    expect(r.json.response.areas.map((a: { area: string }) => a.area)).toEqual(['Compras', 'Ventas']);
    expect(r.json.response.collaborators).toContainEqual({ id: ana.collaboratorId, name: 'Ana López', area_id: ventas });
  });

  it('lets only the manager in: collaborator 403, outsider 404, no Viaticos 403', async () => {
    const id = (await create({ event_name: 'Matriz' })).json.response.id as number;
    const outsider = await h.signUp('ajeno');
    const asColab = { ...m, token: ana.token };
    const asOutsider = { ...m, token: outsider.token };
    const calls = (who: Manager) => [
      h.call('GET', url(who), { token: who.token }),
      h.call('GET', `/api/v3/clients/${who.clientId}/per_diem_events/options.json`, { token: who.token }),
      create({}, who),
      act(id, 'approve', who),
      act(id, 'close', who),
    ];
    for (const r of await Promise.all(calls(asColab))) expect(r).toMatchObject({ status: 403, json: { errors: [MSG.forbidden] } });
    for (const r of await Promise.all(calls(asOutsider))) expect(r).toMatchObject({ status: 404, json: { errors: [MSG.notFound] } });
    expect((await h.call('GET', url(), {})).status).toBe(401);

    // Plan 4 has Colaboradores but not Viaticos; a person's RFC on plan 6 neither.
    const plan4 = await companyManager(h, 4, 'COL010101AB1');
    const personUser = await h.signUp('persona');
    const personRfcValue = personRfc();
    const madePerson = await h.call('POST', '/new_client', { token: personUser.token, body: { client: { rfc: personRfcValue, first_name: 'Gil', last_name: 'Díaz' }, ubication_data: { street: 'Calle 1', external_number: '2', city: 'Puebla', state: 'Puebla', zip_code: '72000' } } });
    expect(madePerson.status, madePerson.text).toBe(200);
    const person: Manager = { ...personUser, clientId: madePerson.json.response.diverza_client_id };
    await h.database.db.update(clients).set({ planId: 6 }).where(eq(clients.id, person.clientId));
    for (const who of [plan4, person]) {
      for (const r of await Promise.all([h.call('GET', url(who), { token: who.token }), create({}, who)])) {
        expect(r).toMatchObject({ status: 403, json: { errors: [MSG.featureLocked] } });
      }
    }
    // Events of another company are not found through this one.
    const other = await companyManager(h, 7, 'OTR010101AB1');
    expect((await act(id, 'approve', other)).status).toBe(404);
    expect((await h.call('GET', url(other), { token: other.token })).json.response).toEqual([]);
    expect((await act(id, 'approve')).status).toBe(200);
  });

  it('uses the clock: today in Mexico City moves with it', async () => {
    h.advance(3 * 86_400_000);
    const later = await companyManager(h, 6, 'TAR010101AB1'); // signed in after the clock moved
    expect(await create({ start_date: plusDays(today, 2) }, later)).toMatchObject({ status: 422, json: { errors: [MSG.perDiemStartPast] } });
    expect((await create({ start_date: plusDays(today, 3), end_date: plusDays(today, 3) }, later)).status).toBe(201);
  });
});
