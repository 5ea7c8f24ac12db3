import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MERCHANTS } from '../../../src/domain/merchants';
import { MSG } from '../../../src/domain/messages';
import { manualTicketPayload } from '../../../src/domain/spending-form';
import type { Ticket } from '../../../src/domain/ticket';
import { tickets } from '../../../src/server/db/schema';
import { DRIVERS, type Harness } from '../helpers/harness';
import { harnessWithOwner } from './owner-setup';
import { createEntry, income, listMonth, ownerWithRfc, pngOfSize, spending, tomorrow, uploadImage, type Owner } from './ticket-fixtures';

describe.each(DRIVERS)('tickets API on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  harnessWithOwner(driver, (setup) => ({ h, a } = setup));

  it('lists the supported companies: manual entries as id 1, tickets made from a CFDI file as id 2', async () => {
    const r = await h.call('GET', '/company/all.json');
    expect(r.status).toBe(200);
    expect(r.json.response.slice(0, 2)).toEqual([
      { short_name: 'manual', diverza_client_id: 1, name: 'Registro manual', value: '/favicon.svg' },
      { short_name: 'cfdi', diverza_client_id: 2, name: 'Factura importada', value: '/favicon.svg' },
    ]);
    // Then the merchants, each with its own logo.
    const byId = (a: { diverza_client_id: number }, b: { diverza_client_id: number }) => a.diverza_client_id - b.diverza_client_id;
    expect([...r.json.response.slice(2)].sort(byId)).toEqual(
      MERCHANTS.map((m) => ({ short_name: m.short_name, diverza_client_id: m.id, name: m.name, value: m.logo })).sort(byId),
    );
  });

  it('creates a manual spending (type 2, status 3) and shows it in its Mexico City month', async () => {
    const created = await createEntry(h, a, spending({ amount: '1234.5', date: '2026/02/10', category: '11', note: '  Comisión  ' }));
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ response: { ticket: { ticket_id: created.id } } });
    const list = await listMonth(h, a, 2026, 2);
    expect(list.status).toBe(200);
    const t = (list.json.response.tickets as Ticket[]).find((x) => x.ticket_id === created.id);
    expect(t).toEqual({
      ticket_id: created.id,
      ticket_type_id: 2,
      ticket_status_name: 'no facturable',
      received_at: '2026-02-10T12:00:00-06:00',
      company_short_name: 'manual',
      ticket_number: '',
      amount: '1234.50',
      tags: [{ tag_id: 11, tag_name: 'Gastos Financieros' }],
      income_meta_tag_id: null,
      note: 'Comisión',
      include_ticket_image: false,
      ticket_image_text: '',
      user_area: '',
      username: expect.stringMatching(/^tk/),
      receipt: null,
      rfc: a.rfc,
      currency: 'MXN',
      original_amount: null,
      // Only merchant tickets have invoice requests.
      invoice: null,
    });
  });

  it('creates a manual income (type 4, status 9) with its income category and no tags', async () => {
    const created = await createEntry(h, a, income({ date: '2026/03/05', category: '4' }));
    expect(created.status).toBe(200);
    const t = (await listMonth(h, a, 2026, 3)).json.response.tickets.find((x: Ticket) => x.ticket_id === created.id);
    expect(t).toMatchObject({ ticket_type_id: 4, ticket_status_name: 'ingreso no facturable', income_meta_tag_id: 4, tags: [], amount: '15000.00' });
  });

  it('keeps the original amount of a foreign-currency entry and stores the national amount', async () => {
    const created = await createEntry(h, a, spending({ date: '2026/03/06', currency: 'USD', amount: '100', nationalAmount: '1725.30' }));
    expect(created.status).toBe(200);
    const t = (await listMonth(h, a, 2026, 3)).json.response.tickets.find((x: Ticket) => x.ticket_id === created.id);
    expect(t).toMatchObject({ amount: '1725.30', currency: 'USD', original_amount: '100.00' });
  });

  it('rejects bad input with the panel messages and stores nothing', async () => {
    const cases: [ReturnType<typeof spending>, string][] = [
      [spending({ category: '999' }), MSG.categoryUnknown],
      [income({ category: '99' }), MSG.categoryUnknown],
      [spending({ date: tomorrow() }), MSG.dateInFuture],
      [spending({ date: '2026/02/30' }), MSG.dateInvalid],
    ];
    for (const [form, message] of cases) {
      const r = await createEntry(h, a, form);
      expect(r.status, message).toBe(400);
      expect(r.json).toEqual({ errors: [message] });
      expect(await h.database.db.select().from(tickets).where(eq(tickets.id, r.id))).toHaveLength(0);
    }
    for (const amount of ['-5', 'abc', '1.234', '1e3']) {
      const body = manualTicketPayload(spending(), a.rfc, newId());
      body.ticket[2] = { form_configuration_id: 3, value: amount };
      const r = await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body });
      expect(r.status, amount).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.amountInvalid] });
    }
    const missing = manualTicketPayload(spending(), a.rfc, newId());
    missing.additional_info.meta_tag = null;
    expect((await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body: missing })).json).toEqual({ errors: [MSG.categoryRequired] });
  });

  it('answers a month with only that Mexico City month, newest first (2026-12-01T03:00Z is November)', async () => {
    const late = await createEntry(h, a, spending({ date: '2026/01/31' }));
    const early = await createEntry(h, a, spending({ date: '2026/01/31' }));
    await h.database.db.update(tickets).set({ receivedAt: new Date('2026-12-01T03:00:00Z') }).where(eq(tickets.id, late.id));
    await h.database.db.update(tickets).set({ receivedAt: new Date('2026-12-01T06:00:00Z') }).where(eq(tickets.id, early.id));
    const nov = (await listMonth(h, a, 2026, 11)).json.response.tickets as Ticket[];
    expect(nov.map((t) => t.ticket_id)).toContain(late.id);
    expect(nov.map((t) => t.ticket_id)).not.toContain(early.id);
    expect(nov.find((t) => t.ticket_id === late.id)?.received_at).toBe('2026-11-30T21:00:00-06:00');
    const dec = (await listMonth(h, a, 2026, 12)).json.response.tickets as Ticket[];
    expect(dec.map((t) => t.ticket_id)).toEqual([early.id]);
    expect(dec[0]?.received_at).toBe('2026-12-01T00:00:00-06:00');

    const year = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&usuario[view]=annual`, { token: a.token });
    const all = year.json.response.tickets as Ticket[];
    expect(all.map((t) => t.ticket_id)).toEqual(expect.arrayContaining([late.id, early.id]));
    const times = all.map((t) => new Date(t.received_at).getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const other = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2025&usuario[view]=annual`, { token: a.token });
    expect(other.json.response.tickets).toEqual([]);
  });

  it('finds the account by its RFC however it is typed; a month without tickets is empty, an RFC the caller has not is 404', async () => {
    const created = await createEntry(h, a, spending({ date: '2024/08/05' }));
    const typed = await listMonth(h, a, 2024, 8, a.rfc.toLowerCase());
    expect(typed.status).toBe(200);
    expect((typed.json.response.tickets as Ticket[]).map((t) => t.ticket_id)).toEqual([created.id]);
    expect((await listMonth(h, a, 2024, 9)).json).toEqual({ response: { tickets: [] } });
    const unknown = await listMonth(h, a, 2024, 9, 'XAXX010101000');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ errors: [MSG.notFound] });
  });

  it('rejects a month query without a month or with a bad one', async () => {
    expect((await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026`, { token: a.token })).status).toBe(400);
    expect((await listMonth(h, a, 2026, 13)).status).toBe(400);
    expect((await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=1`)).status).toBe(401);
  });

  it('updates the category, the income category and the note by the rules of spec §5', async () => {
    const s = await createEntry(h, a, spending({ date: '2026/04/01' }));
    const put = (ticket: Record<string, unknown>) => h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: s.id, ...ticket } } });

    const tagged = await put({ meta_tag_id: 4 });
    expect(tagged.status).toBe(200);
    expect(tagged.json.response).toMatchObject({ ticket_id: s.id, tags: [{ tag_id: 4, tag_name: 'Gasolina' }] });

    const notExpense = await put({ meta_tag_id: 999 });
    expect(notExpense.status).toBe(200);
    expect(notExpense.json.response).toEqual(tagged.json.response);
    const incomeOnSpending = await put({ income_meta_tag_id: 2 });
    expect(incomeOnSpending.json.response.income_meta_tag_id).toBeNull();

    const noted = await put({ notes: '  Carga antes de salir a carretera ' });
    expect(noted.json.response.note).toBe('Carga antes de salir a carretera');
    const blank = await put({ notes: '   ' });
    expect(blank.status).toBe(200);
    expect(blank.json.response.note).toBe('Carga antes de salir a carretera');
    const full = 'x'.repeat(500);
    expect((await put({ notes: full })).json.response.note).toBe(full);
    const tooLong = await put({ notes: 'y'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toEqual({ errors: [MSG.noteTooLong] });

    const inc = await createEntry(h, a, income({ date: '2026/04/02' }));
    const r = await h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: inc.id, income_meta_tag_id: 5 } } });
    expect(r.json.response).toMatchObject({ ticket_id: inc.id, income_meta_tag_id: 5 });
  });

  it('deletes softly: the ticket leaves the lists, later updates and images get 404, a replayed delete counts 0', async () => {
    const t = await createEntry(h, a, spending({ date: '2026/05/03' }));
    expect((await uploadImage(h, a.token, t.id, pngOfSize(100))).status).toBe(204);
    const del = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [t.id] } });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ response: { deleted: 1 } });
    expect((await listMonth(h, a, 2026, 5)).json.response.tickets.map((x: Ticket) => x.ticket_id)).not.toContain(t.id);
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, t.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(row?.imageKey).toBeNull();

    const upd = await h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: t.id, notes: 'tarde' } } });
    expect(upd.status).toBe(404);
    expect(upd.json).toEqual({ errors: [MSG.ticketNotFound] });
    const img = await uploadImage(h, a.token, t.id, pngOfSize(100));
    expect(img.status).toBe(404);
    expect(img.json).toEqual({ errors: [MSG.ticketNotFound] });
    expect((await h.call('GET', `/api/v2/ticket_image?ticket_id=${t.id}&access_token=${a.token}`)).status).toBe(404);
    expect((await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [t.id] } })).json).toEqual({ response: { deleted: 0 } });
    // A late replay of the create answers the same id and does not bring it back.
    const replay = await createEntry(h, a, spending({ date: '2026/05/03' }), { id: t.id });
    expect(replay.json).toEqual({ response: { ticket: { ticket_id: t.id } } });
    expect((await listMonth(h, a, 2026, 5)).json.response.tickets.map((x: Ticket) => x.ticket_id)).not.toContain(t.id);
  });

  it("never lets another user read, change, delete or attach to a ticket, nor use their RFC (404, never data)", async () => {
    const b = await ownerWithRfc(h, 'BOGE561231GR9');
    const t = await createEntry(h, a, spending({ date: '2026/06/10', note: 'privada' }));
    expect((await uploadImage(h, a.token, t.id, pngOfSize(64))).status).toBe(204);

    const list = await listMonth(h, b, 2026, 6, a.rfc);
    expect(list.status).toBe(404);
    expect(list.json).toEqual({ errors: [MSG.notFound] });
    const create = await createEntry(h, b, spending(), { rfc: a.rfc });
    expect(create.status).toBe(404);
    expect(create.json).toEqual({ errors: [MSG.notFound] });

    const upd = await h.call('PUT', '/api/v2/update_ticket', { token: b.token, body: { ticket: { ticket_id: t.id, notes: 'mía' } } });
    expect(upd.status).toBe(404);
    expect(upd.json).toEqual({ errors: [MSG.ticketNotFound] });
    const del = await h.call('DELETE', '/api/v2/tickets', { token: b.token, body: { tickets: [t.id] } });
    expect(del.json).toEqual({ response: { deleted: 0 } });
    const img = await uploadImage(h, b.token, t.id, pngOfSize(64));
    expect(img.status).toBe(404);
    const get = await h.call('GET', `/api/v2/ticket_image?ticket_id=${t.id}&access_token=${b.token}`);
    expect(get.status).toBe(404);
    expect(get.json).toEqual({ errors: [MSG.notFound] });
    const steal = await createEntry(h, b, spending(), { id: t.id });
    expect(steal.status).toBe(409);
    expect(steal.text).not.toContain('privada');

    const mine = (await listMonth(h, a, 2026, 6)).json.response.tickets.find((x: Ticket) => x.ticket_id === t.id);
    expect(mine).toMatchObject({ note: 'privada', include_ticket_image: true });
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, t.id));
    expect(row).toMatchObject({ userId: a.userId, deletedAt: null });

    // Same RFC on two users: each sees only their own tickets.
    const shared = await ownerWithRfc(h, a.rfc);
    const theirs = await listMonth(h, shared, 2026, 6);
    expect(theirs.status).toBe(200);
    expect(theirs.json.response.tickets).toEqual([]);

    for (const [method, path] of [
      ['GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=6`],
      ['POST', '/form/ticket_create?format=json'],
      ['PUT', '/api/v2/update_ticket'],
      ['DELETE', '/api/v2/tickets'],
      ['GET', `/api/v2/ticket_image?ticket_id=${t.id}`],
    ] as const) {
      const r = await h.call(method, path, method === 'GET' ? {} : { body: {} });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
    expect((await uploadImage(h, 'no-es-un-token', t.id, pngOfSize(64))).status).toBe(401);
  });
});
