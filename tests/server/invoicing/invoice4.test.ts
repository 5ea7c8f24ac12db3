// invoice4 (the anonymous form, and the merchant form signed in), where a request is (status, PDF,
// resend, retry), and the SAT-QR lookup and import of an invoice we issued.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { PacError, type PacPort } from '../../../src/server/cfdi/pac';
import { inactiveRfcs, merchantTickets, tickets } from '../../../src/server/db/schema';
import { processInvoiceRequest } from '../../../src/server/invoicing/process';
import { maskEmail } from '../../../src/server/lib/mask-email';
import { DRIVERS } from '../helpers/harness';
import { markRfcVerifiedForTest } from '../helpers/rfc-verified';
import { invoicingEnv, merchantTicket, MOVIL_NORTE, movilNorteValues, requester, requestRow, type InvoicingEnv } from './invoicing-helpers';

const DAY = 86_400_000;
const RECEIVER = {
  client: 0, email: 'Cliente.Anonimo@Example.com', rfc: 'eku9003173c9', uso_cfdi: 'g03', nombre: '  escuela   kemper urgate ',
  regimen_fiscal_receptor: '601', codigo_postal: '42501',
};

describe.each(DRIVERS)('invoice4 on %s', (driver) => {
  let env: InvoicingEnv;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const ticket = () => merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7'), issuedAt: new Date(Date.now() - DAY), postalCode: '64000' });
  const invoice4 = (ref: string, body: Record<string, unknown>, token?: string) => env.call('POST', `/api/v33/tickets/${ref}/invoice4`, { body, token });

  it('anonymous: 202 solicitada, normalised receiver, the path up to enviada, masked e-mail, the PDF', async () => {
    const t = await ticket();
    const r = await invoice4(t.ref, RECEIVER);
    expect(r.status, r.text).toBe(202);
    expect(r.json.response).toEqual({ request_id: expect.any(String), status: 'solicitada' });
    const id = r.json.response.request_id as string;
    const row = await requestRow(env, id);
    expect(row).toMatchObject({ channel: 'anonymous', userId: null, ticketId: null, email: 'cliente.anonimo@example.com' });
    expect(row.receiver).toEqual({ rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', codigo_postal: '42501', regimen_fiscal: '601', uso_cfdi: 'G03' });

    const before = await env.call('GET', `/api/v33/invoice_requests/${id}`);
    expect(before.json.response).toEqual({ request_id: id, status: 'solicitada', error: null, email: maskEmail('cliente.anonimo@example.com'), uuid: null, pdf_url: null });
    expect((await env.call('GET', `/api/v33/invoice_requests/${id}/pdf`)).status).toBe(404);
    await env.drain();
    const after = await env.call('GET', `/api/v33/invoice_requests/${id}`);
    expect(after.json.response).toMatchObject({ status: 'enviada', uuid: expect.stringMatching(/^[0-9A-F-]{36}$/), pdf_url: `/api/v33/invoice_requests/${id}/pdf` });
    const pdf = await env.call('GET', after.json.response.pdf_url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    expect(env.smtp.received.filter((m) => m.to.includes('cliente.anonimo@example.com'))).toHaveLength(1);

    // Resend: mailed again, at most 3 times an hour per request.
    for (let i = 0; i < 3; i++) expect((await env.call('POST', `/api/v33/invoice_requests/${id}/resend`)).json).toEqual({ response: { status: 'enviada' } });
    expect(env.smtp.received.filter((m) => m.to.includes('cliente.anonimo@example.com'))).toHaveLength(4);
    const limited = await env.call('POST', `/api/v33/invoice_requests/${id}/resend`);
    expect([limited.status, limited.json]).toEqual([429, { errors: [MSG.resendLimited] }]);
  }, 30_000);

  it('a foreign receiver (XEXX010101000): residence and tax id, and the LugarExpedicion as fiscal address', async () => {
    const t = await ticket();
    const r = await invoice4(t.ref, {
      ...RECEIVER, rfc: 'XEXX010101000', nombre: 'Acme Trading LLC', regimen_fiscal_receptor: '616', uso_cfdi: 'S01',
      codigo_postal: '00000', residencia_fiscal: 'usa', num_reg_id_trib: '123456789',
    });
    expect(r.status, r.text).toBe(202);
    await env.drain();
    const row = await requestRow(env, r.json.response.request_id);
    expect(row.status).toBe('enviada');
    const xml = new TextDecoder().decode((await env.h.files.get(row.xmlKey!))!);
    expect(xml).toMatch(/<cfdi:Receptor Rfc="XEXX010101000" Nombre="ACME TRADING LLC" DomicilioFiscalReceptor="64000" ResidenciaFiscal="USA" NumRegIdTrib="123456789" RegimenFiscalReceptor="616" UsoCFDI="S01"\/>/);
  }, 30_000);

  it('refuses bad receivers with the spec messages', async () => {
    const t = await ticket();
    const bad = async (over: Record<string, unknown>) => {
      const r = await invoice4(t.ref, { ...RECEIVER, ...over });
      return [r.status, r.json];
    };
    expect(await bad({ rfc: 'EKU900317' })).toEqual([422, { errors: [MSG.rfcPatternInvalid] }]);
    expect(await bad({ email: 'no-es-correo' })).toEqual([422, { errors: [MSG.receiverEmailInvalid] }]);
    // Spec §5: regime 605 only allows S01.
    expect(await bad({ rfc: 'XIQB891116QE4', regimen_fiscal_receptor: '605', uso_cfdi: 'G03' })).toEqual([422, { errors: [MSG.regimeOnlyS01] }]);
    // SAT's matrix: D01 (honorarios médicos) is for personas físicas; 601 cannot use it.
    expect(await bad({ uso_cfdi: 'D01' })).toEqual([422, { errors: [MSG.invoiceRejected] }]);
    expect(await bad({ codigo_postal: '123' })).toEqual([422, { errors: [MSG.postalCodeInvalid] }]);
    await env.h.database.db.insert(inactiveRfcs).values({ rfc: 'AAA010101AAA', list: 'prueba' }).onConflictDoNothing();
    expect(await bad({ rfc: 'AAA010101AAA' })).toEqual([422, { errors: [MSG.rfcInactive] }]);
    expect((await invoice4('NOEXISTE12345678', RECEIVER)).json).toEqual({ errors: [MSG.merchantTicketNotFound] });
    // A client id needs a session.
    expect(await bad({ client: 5 })).toEqual([401, { errors: [MSG.unauthorized] }]);
    // Nothing was requested for the ticket.
    const [after] = await env.h.database.db.select().from(merchantTickets).where(eq(merchantTickets.id, t.id));
    expect(after!.invoiceRequestId).toBeNull();
  }, 30_000);

  it('already invoiced → 409; refactura replaces it, relating the new CFDI to the old one', async () => {
    const t = await ticket();
    const first = (await invoice4(t.ref, RECEIVER)).json.response.request_id as string;
    await env.drain();
    const again = await invoice4(t.ref, RECEIVER);
    expect([again.status, again.json]).toEqual([409, { errors: [MSG.ticketAlreadyInvoiced] }]);
    const re = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01', refactura: 1, check: t.checkCode, total: t.total, ticket: movilNorteValues(t) });
    expect(re.status, re.text).toBe(202);
    await env.drain();
    const old = await requestRow(env, first);
    const now = await requestRow(env, re.json.response.request_id);
    expect(old.status).toBe('sustituida');
    expect(now).toMatchObject({ status: 'enviada', replacesId: first });
    const xml = new TextDecoder().decode((await env.h.files.get(now.xmlKey!))!);
    expect(xml).toContain(`<cfdi:CfdiRelacionados TipoRelacion="04">`);
    expect(xml).toContain(`<cfdi:CfdiRelacionado UUID="${old.uuid}"/>`);
    expect(now.uuid).not.toBe(old.uuid);
    // The replaced request no longer serves its PDF.
    expect((await env.call('GET', `/api/v33/invoice_requests/${first}/pdf`)).status).toBe(404);
  }, 30_000);

  it('signed in with a client id: the ticket lands in that account; the SAT QR then finds it as imported', async () => {
    const u = await requester(env, { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' });
    const t = await ticket();
    const otherRfc = await invoice4(t.ref, { ...RECEIVER, rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimen_fiscal_receptor: '612', codigo_postal: '88965', client: u.clientId }, u.token);
    expect([otherRfc.status, otherRfc.json]).toEqual([422, { errors: [MSG.receiverNotAccount] }]);
    const r = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(r.status, r.text).toBe(202);
    await env.drain();
    const row = await requestRow(env, r.json.response.request_id);
    expect(row).toMatchObject({ channel: 'merchant', userId: u.userId, clientId: u.clientId, status: 'enviada' });
    const [own] = await env.h.database.db.select().from(tickets).where(eq(tickets.id, row.ticketId!));
    expect(own).toMatchObject({ statusId: 4, companyId: MOVIL_NORTE, amount: t.total });
    const status = await env.call('GET', `/api/v33/invoice_requests/${row.id}`, { token: u.token });
    expect(status.json.response.email).toBe('cliente.anonimo@example.com');
    const q = `id=${row.uuid}&re=EKU9003173C9&rr=EKU9003173C9&tt=${Number(t.total)}`;
    const found = await env.call('GET', `/api/v3/cfdi/lookup?${q}`, { token: u.token });
    expect(found.json.response).toMatchObject({ uuid: row.uuid, state: 'imported', ticket_id: row.ticketId, rfc_issuer: 'EKU9003173C9' });
  }, 30_000);

  it('SAT QR of an invoice we issued to someone else: importable, then imported into the account it names', async () => {
    const t = await ticket();
    const id = (await invoice4(t.ref, { ...RECEIVER, rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimen_fiscal_receptor: '612', codigo_postal: '88965' })).json.response.request_id;
    await env.drain();
    const row = await requestRow(env, id);
    const u = await requester(env);
    const q = (tt: string) => `/api/v3/cfdi/lookup?id=${row.uuid}&re=EKU9003173C9&rr=XIQB891116QE4&tt=${tt}`;
    const lookup = await env.call('GET', q(String(Number(t.total))), { token: u.token });
    expect(lookup.json.response).toMatchObject({ uuid: row.uuid, state: 'importable', ticket_id: null, rfc_receiver: 'XIQB891116QE4', total: t.total });
    // A tampered total matches nothing.
    expect((await env.call('GET', q('1.00'), { token: u.token })).json.response.state).toBe('unknown');
    // Importing someone else's CFDI by UUID needs a proved RFC and the QR's data (tests/server/rfc-verification).
    await markRfcVerifiedForTest(env.h.database.db, u.clientId);
    const qr = { uuid: row.uuid, re: 'EKU9003173C9', rr: 'XIQB891116QE4', tt: t.total };
    const imported = await env.call('POST', '/api/v3/cfdi/import', { token: u.token, body: qr });
    expect(imported.status, imported.text).toBe(200);
    const again = await env.call('GET', q(t.total), { token: u.token });
    expect(again.json.response).toMatchObject({ state: 'imported', ticket_id: imported.json.response.ticket_id });
    // Someone whose RFCs it does not name cannot import it.
    const stranger = await requester(env, { rfc: 'CACX7605101P8' });
    const refused = await env.call('POST', '/api/v3/cfdi/import', { token: stranger.token, body: qr });
    expect([refused.status, refused.json]).toEqual([422, { errors: [MSG.importNotYours] }]);
  }, 30_000);

  it('a PAC refusal ends in error with the §8 message; only the owner may retry', async () => {
    const refusing: PacPort = { name: 'rechaza', cancel: (r) => env.pac.cancel(r), cancellationStatus: (u) => env.pac.cancellationStatus(u), stamp: async () => { throw new PacError('CFDI40158', 'RegimenFiscalReceptor no válido'); } };
    const u = await requester(env, { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' });
    const t = await ticket();
    const id = (await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token)).json.response.request_id as string;
    env.queued.splice(0);
    expect(await processInvoiceRequest({ ...env.deps, pac: refusing }, id)).toBe('rejected');
    expect(await requestRow(env, id)).toMatchObject({ status: 'error', error: MSG.invoiceRejected, uuid: null });
    const listed = (await env.call('GET', `/api/v33/invoice_requests/${id}`)).json.response;
    expect(listed).toMatchObject({ status: 'error', error: MSG.invoiceRejected });
    const stranger = await requester(env);
    expect((await env.call('POST', `/api/v3/invoice_requests/${id}/retry`, { token: stranger.token })).status).toBe(404);
    const retry = await env.call('POST', `/api/v3/invoice_requests/${id}/retry`, { token: u.token });
    expect([retry.status, retry.json]).toEqual([202, { response: { request_id: id, status: 'solicitada' } }]);
    expect(env.queued).toEqual([id]);
    await env.drain();
    expect(await requestRow(env, id)).toMatchObject({ status: 'enviada', error: null });
    const twice = await env.call('POST', `/api/v3/invoice_requests/${id}/retry`, { token: u.token });
    expect([twice.status, twice.json]).toEqual([409, { errors: [MSG.ticketAlreadyInvoiced] }]);
  }, 30_000);

  it('a request the PAC refused is replaced by a new one for the same ticket', async () => {
    const t = await ticket();
    const id = (await invoice4(t.ref, RECEIVER)).json.response.request_id as string;
    env.queued.splice(0);
    const refusing: PacPort = { name: 'rechaza', cancel: (r) => env.pac.cancel(r), cancellationStatus: (u) => env.pac.cancellationStatus(u), stamp: async () => { throw new PacError('CFDI40147', 'no'); } };
    await processInvoiceRequest({ ...env.deps, pac: refusing }, id);
    const next = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01' });
    expect(next.status).toBe(202);
    expect((await requestRow(env, id)).status).toBe('sustituida');
    await env.drain();
    const row = await requestRow(env, next.json.response.request_id);
    expect(row).toMatchObject({ status: 'enviada', replacesId: id });
    expect(new TextDecoder().decode((await env.h.files.get(row.xmlKey!))!)).not.toContain('CfdiRelacionados');
  }, 30_000);
});
