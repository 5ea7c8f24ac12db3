// The ticket form and the multi-ticket form (spec §4): signed in, the receiver is the chosen tax account.
// Happy paths through to 'facturado' in the purchase month, every refusal with its exact message, and two
// requests for one ticket at once giving exactly one invoice.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { inactiveRfcs, invoiceRequests, merchantTickets, receipts, tickets } from '../../../src/server/db/schema';
import { DRIVERS } from '../helpers/harness';
import {
  AUTOZONE, COPEXA, copexaValues, folio, invoicingEnv, merchantTicket, mxDate, requester, requestRow, type InvoicingEnv,
} from './invoicing-helpers';

const DAY = 86_400_000;

describe.each(DRIVERS)('invoice from the ticket form on %s', (driver) => {
  let env: InvoicingEnv;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const create = (token: string, rfc: string, companyId: number, ticket: unknown, info: Record<string, unknown> = {}) =>
    env.call('POST', '/form/ticket_create?format=json', { token, body: { usuario: { rfc }, company: { id: companyId }, ticket, additional_info: info } });

  it('creates a pending ticket and a request, and the job makes it facturado with its receipt in the purchase month', async () => {
    const u = await requester(env);
    const issuedAt = new Date(Date.now() - 3 * DAY);
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt });
    const r = await create(u.token, u.rfc, COPEXA.id, copexaValues(t), { note: '  para la oficina  ' });
    expect(r.status, r.text).toBe(200);
    const ticketId = r.json.response.ticket.ticket_id as string;
    const requestId = r.json.response.request_id as string;
    expect(env.queued).toEqual([requestId]);

    const month = () => env.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${u.rfc}&date[year]=${mxDate(issuedAt).slice(0, 4)}&date[month]=${Number(mxDate(issuedAt).slice(5, 7))}`, { token: u.token });
    let listed = (await month()).json.response.tickets.find((x: { ticket_id: string }) => x.ticket_id === ticketId);
    expect(listed).toMatchObject({ ticket_status_name: 'pendiente', company_short_name: 'copexa', ticket_number: t.ticketNumber, amount: t.total, note: 'para la oficina', receipt: null });
    expect(listed.invoice).toMatchObject({ request_id: requestId, status: 'solicitada', email: u.email, error: null });

    await env.drain();
    const row = await requestRow(env, requestId);
    expect(row).toMatchObject({ status: 'enviada', channel: 'form', error: null, note: 'para la oficina' });
    expect(row.receiver).toEqual({ rfc: u.rfc, nombre: 'BERENICE XIMO QUEZADA', codigo_postal: '88965', regimen_fiscal: '612', uso_cfdi: 'G03' });
    listed = (await month()).json.response.tickets.find((x: { ticket_id: string }) => x.ticket_id === ticketId);
    expect(listed).toMatchObject({ ticket_status_name: 'facturado', receipt: { uuid: row.uuid, rfc_issuer: 'EKU9003173C9', rfc_receiver: u.rfc } });
    expect(listed.invoice).toMatchObject({ request_id: requestId, status: 'enviada' });
    const [mt] = await env.h.database.db.select().from(merchantTickets).where(eq(merchantTickets.id, t.id));
    expect(mt!.invoiceRequestId).toBe(requestId);
    expect(env.smtp.received.filter((m) => m.to.includes(u.email))).toHaveLength(1);
  }, 30_000);

  it('refuses with the exact messages', async () => {
    const u = await requester(env);
    const issuedAt = new Date(Date.now() - 2 * DAY);
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt });
    const values = copexaValues(t);

    // Not found (wrong amount), and a field rule.
    const wrong = values.map((v) => (v.form_configuration_id === COPEXA.importe ? { ...v, value: '1.00' } : v));
    expect((await create(u.token, u.rfc, COPEXA.id, wrong)).json).toEqual({ errors: [MSG.ticketNotFound33] });
    const short = values.map((v) => (v.form_configuration_id === COPEXA.folio ? { ...v, value: 'AB' } : v));
    const r422 = await create(u.token, u.rfc, COPEXA.id, short);
    expect([r422.status, r422.json]).toEqual([422, { errors: ['8 caracteres mínimo'] }]);
    // A ticket of Copexa asked through Autozone's form: not found there.
    const other = await create(u.token, u.rfc, AUTOZONE.id, [
      { form_configuration_id: AUTOZONE.number, value: '123456' }, { form_configuration_id: AUTOZONE.venue, value: '1' },
      { form_configuration_id: AUTOZONE.fecha, value: mxDate(issuedAt) }, { form_configuration_id: AUTOZONE.importe, value: t.total },
    ]);
    expect([other.status, other.json]).toEqual([404, { errors: [MSG.ticketNotFound33] }]);

    // A tax account without postal code or regime.
    const bare = await requester(env, { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '', taxRegime: '' });
    const incomplete = await create(bare.token, 'EKU9003173C9', COPEXA.id, values);
    expect([incomplete.status, incomplete.json]).toEqual([422, { errors: [MSG.receiverIncomplete] }]);
    // Regime 612 with Uso D01 is fine for SAT; 612 with CN01 (nómina) is not.
    const uso = await create(u.token, u.rfc, COPEXA.id, values, { uso_cfdi: 'CN01' });
    expect([uso.status, uso.json]).toEqual([422, { errors: [MSG.invoiceRejected] }]);
    // An RFC on SAT's lists.
    const listed = await requester(env, { rfc: 'CACX7605101P8' });
    await env.h.database.db.insert(inactiveRfcs).values({ rfc: 'CACX7605101P8', list: 'prueba' }).onConflictDoNothing();
    const inactive = await create(listed.token, 'CACX7605101P8', COPEXA.id, values);
    expect([inactive.status, inactive.json]).toEqual([422, { errors: [MSG.rfcInactive] }]);
    expect(await env.h.database.db.select().from(invoiceRequests).where(eq(invoiceRequests.userId, u.userId))).toEqual([]);

    // In flight, then already invoiced.
    const first = await create(u.token, u.rfc, COPEXA.id, values);
    expect(first.status).toBe(200);
    const again = await create(u.token, u.rfc, COPEXA.id, values);
    expect([again.status, again.json]).toEqual([409, { errors: [MSG.invoiceInFlight] }]);
    await env.drain();
    const done = await create(u.token, u.rfc, COPEXA.id, values);
    expect([done.status, done.json]).toEqual([409, { errors: [MSG.ticketAlreadyInvoiced] }]);
    // Refused attempts left no ticket behind.
    expect(await env.h.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, u.userId))).toHaveLength(1);
  }, 30_000);

  it('a replay with the same ticket id answers the same request; two requests at once give one invoice', async () => {
    const u = await requester(env);
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - DAY) });
    const ticketId = '01937a4e-0000-7000-8000-00000000c0de'.replace('c0de', Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0'));
    const a = await create(u.token, u.rfc, COPEXA.id, copexaValues(t), { ticket_id: ticketId });
    const b = await create(u.token, u.rfc, COPEXA.id, copexaValues(t), { ticket_id: ticketId });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.response).toEqual(a.json.response);
    env.queued.splice(0);

    const t2 = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - DAY) });
    const other = await requester(env);
    const both = await Promise.all([create(u.token, u.rfc, COPEXA.id, copexaValues(t2)), create(other.token, other.rfc, COPEXA.id, copexaValues(t2))]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.json).toEqual({ errors: [MSG.invoiceInFlight] });
    await env.drain();
    const reqs = await env.h.database.db.select().from(invoiceRequests).where(eq(invoiceRequests.id, both.find((r) => r.status === 200)!.json.response.request_id));
    expect(reqs.map((r) => r.status)).toEqual(['enviada']);
    const stamped = await env.h.database.db.select().from(receipts).where(eq(receipts.uuid, reqs[0]!.uuid!));
    expect(stamped).toHaveLength(1);
  }, 30_000);
});

describe.each(DRIVERS)('one invoice for several tickets on %s', (driver) => {
  let env: InvoicingEnv;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const values = (t: { ticketNumber: string; issuedAt: Date; total: string; venue: string }) => [
    { form_configuration_id: AUTOZONE.number, value: t.ticketNumber },
    { form_configuration_id: AUTOZONE.venue, value: t.venue === 'San Nicolás' ? '2' : '1' },
    { form_configuration_id: AUTOZONE.fecha, value: mxDate(t.issuedAt) },
    { form_configuration_id: AUTOZONE.importe, value: t.total },
  ];
  const multi = (token: string, rfc: string, list: unknown[]) =>
    env.call('POST', '/form/ticket_create_multi?format=json', { token, body: { usuario: { rfc }, company: { id: AUTOZONE.id }, tickets: list, additional_info: { uso_cfdi: 'G01' } } });
  const number = () => String(100000 + Math.floor(Math.random() * 899999));

  it('makes one request, one ticket with the summed amount, and one CFDI with every ticket line', async () => {
    const u = await requester(env);
    const a = await merchantTicket(env, { companyId: AUTOZONE.id, ticketNumber: number(), venue: 'Monterrey Centro', issuedAt: new Date(Date.now() - 4 * DAY), formaPago: '01' });
    const b = await merchantTicket(env, { companyId: AUTOZONE.id, ticketNumber: number(), venue: 'San Nicolás', issuedAt: new Date(Date.now() - 2 * DAY), formaPago: '04', items: [{ description: 'Batería 12V', quantity: '1', unit_price: '2500.00', clave_prod_serv: '26111701', clave_unidad: 'H87', iva: 'IVA16' }] });
    const r = await multi(u.token, u.rfc, [values(a), values(b)]);
    expect(r.status, r.text).toBe(200);
    const [ticket] = await env.h.database.db.select().from(tickets).where(eq(tickets.id, r.json.response.ticket.ticket_id));
    expect(ticket).toMatchObject({ ticketNumber: `${a.ticketNumber}, ${b.ticketNumber}`, amount: (Number(a.total) + Number(b.total)).toFixed(2), statusId: 2 });
    await env.drain();
    const row = await requestRow(env, r.json.response.request_id);
    expect(row).toMatchObject({ status: 'enviada', channel: 'multi' });
    const xml = new TextDecoder().decode((await env.h.files.get(row.xmlKey!))!);
    expect(xml.match(/<cfdi:Concepto /g)).toHaveLength(a.items.length + b.items.length);
    expect(xml).toContain(`Total="${(Number(a.total) + Number(b.total)).toFixed(2)}"`);
    // The larger payment was by card (04).
    expect(xml).toContain('FormaPago="04"');
    expect(xml).toContain('UsoCFDI="G01"');
  }, 30_000);

  it('refuses a ticket listed twice and a ticket that does not exist, with the §8 messages', async () => {
    const u = await requester(env);
    const a = await merchantTicket(env, { companyId: AUTOZONE.id, ticketNumber: number(), venue: 'Monterrey Centro', issuedAt: new Date(Date.now() - DAY) });
    const dup = await multi(u.token, u.rfc, [values(a), values(a)]);
    expect([dup.status, dup.json]).toEqual([422, { errors: [MSG.multiDuplicate] }]);
    const missing = await multi(u.token, u.rfc, [values(a), values({ ...a, ticketNumber: '999999' })]);
    expect([missing.status, missing.json]).toEqual([404, { errors: [MSG.multiTicketNotFound] }]);
    const one = await multi(u.token, u.rfc, [values(a)]);
    expect([one.status, one.json]).toEqual([400, { errors: [MSG.multiTicketNotFound] }]);
    // Copexa does not offer the multi-ticket form.
    const copexa = await env.call('POST', '/form/ticket_create_multi', { token: u.token, body: { usuario: { rfc: u.rfc }, company: { id: COPEXA.id }, tickets: [[], []] } });
    expect([copexa.status, copexa.json]).toEqual([404, { errors: [MSG.notFound] }]);
  }, 30_000);
});
