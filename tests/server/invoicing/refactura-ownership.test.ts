// Whoever owns a ticket's invoice decides about it: refacturar (invoice4 with refactura) shows the
// ticket beyond its ref (its check code and total, and its form values when sent), a signed-in user's invoice
// is replaced only by that user, and invoice4 without an account only where the merchant offers the
// anonymous form. Every refusal leaves the invoice, the requests and the mailbox as they were.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { invoiceRequests, merchantTickets, tickets } from '../../../src/server/db/schema';
import { DRIVERS } from '../helpers/harness';
import {
  COPEXA, copexaValues, folio, invoicingEnv, merchantTicket, MOVIL_NORTE, MOVIL_NORTE_FIELDS, movilNorteValues, mxDate, requester, requestRow,
  type InvoicingEnv,
} from './invoicing-helpers';

const DAY = 86_400_000;
const EMPRESA = { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' };
const RECEIVER = {
  client: 0, email: 'dueno@example.com', rfc: 'EKU9003173C9', uso_cfdi: 'G03', nombre: 'ESCUELA KEMPER URGATE',
  regimen_fiscal_receptor: '601', codigo_postal: '42501',
};
/** What an attacker re-issues the invoice to. */
const ATTACKER = { ...RECEIVER, email: 'otro@example.com', rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimen_fiscal_receptor: '612', codigo_postal: '88965', uso_cfdi: 'G01' };

describe.each(DRIVERS)('refacturar: proof and ownership on %s', (driver) => {
  let env: InvoicingEnv;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const reference = () => `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7');
  const movilTicket = () => merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: reference(), issuedAt: new Date(Date.now() - DAY), postalCode: '64000', checkCode: 'QRK9X2' });
  const invoice4 = (ref: string, body: Record<string, unknown>, token?: string) => env.call('POST', `/api/v33/tickets/${ref}/invoice4`, { body, token });
  const proof = (t: Awaited<ReturnType<typeof movilTicket>>) => ({ refactura: 1, check: t.checkCode, total: t.total, ticket: movilNorteValues(t) });

  /** Everything a refusal must leave alone: the ticket's request, every request row, the queue and the mailbox. */
  async function snapshot(ticketId: string) {
    const db = env.h.database.db;
    const [mt] = await db.select({ held: merchantTickets.invoiceRequestId }).from(merchantTickets).where(eq(merchantTickets.id, ticketId));
    const holder = await requestRow(env, mt!.held!);
    const [rows] = await db.select({ n: count() }).from(invoiceRequests);
    return { held: mt!.held, status: holder.status, uuid: holder.uuid, receiver: holder.receiver, requests: rows!.n, queued: env.queued.length, mails: env.smtp.received.length };
  }

  /** A Móvil Norte ticket invoiced and delivered to `u`'s account through the merchant form. */
  async function ownersInvoice() {
    const u = await requester(env, EMPRESA);
    const t = await movilTicket();
    const r = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(r.status, r.text).toBe(202);
    await env.drain();
    const first = await requestRow(env, r.json.response.request_id);
    expect(first).toMatchObject({ status: 'enviada', userId: u.userId });
    return { u, t, first };
  }

  it("an anonymous refactura of a signed-in user's invoice is refused, even with the ticket's data", async () => {
    const { t, first } = await ownersInvoice();
    const before = await snapshot(t.id);
    const r = await invoice4(t.ref, { ...ATTACKER, ...proof(t) });
    expect([r.status, r.json]).toEqual([403, { errors: [MSG.refacturaSignInRequired] }]);
    // Knowing only the ref, the same.
    const bare = await invoice4(t.ref, { ...ATTACKER, refactura: 1 });
    expect([bare.status, bare.json]).toEqual([422, { errors: [MSG.refacturaProofRequired] }]);
    await env.drain();
    expect(await snapshot(t.id)).toEqual(before);
    expect(before).toMatchObject({ held: first.id, status: 'enviada', uuid: first.uuid, receiver: first.receiver });
    const [own] = await env.h.database.db.select().from(tickets).where(eq(tickets.id, first.ticketId!));
    expect(own).toMatchObject({ statusId: 4, receiptId: first.receiptId });
  }, 30_000);

  it("another signed-in user cannot refacturar it, from the anonymous form or from the merchant form", async () => {
    const { t } = await ownersInvoice();
    const before = await snapshot(t.id);
    const other = await requester(env, { rfc: 'XIQB891116QE4' });
    const fromAnonymousForm = await invoice4(t.ref, { ...ATTACKER, ...proof(t) }, other.token);
    expect([fromAnonymousForm.status, fromAnonymousForm.json]).toEqual([403, { errors: [MSG.refacturaNotOwner] }]);
    const fromMerchantForm = await invoice4(t.ref, { ...ATTACKER, client: other.clientId, ...proof(t) }, other.token);
    expect([fromMerchantForm.status, fromMerchantForm.json]).toEqual([403, { errors: [MSG.refacturaNotOwner] }]);
    await env.drain();
    expect(await snapshot(t.id)).toEqual(before);
  }, 30_000);

  it('the owner refactura works, from the merchant form and from the anonymous form signed in; the new invoice stays theirs', async () => {
    const { u, t, first } = await ownersInvoice();
    const mails = env.smtp.received.length;
    const re = await invoice4(t.ref, { ...RECEIVER, client: u.clientId, uso_cfdi: 'G01', ...proof(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    await env.drain();
    const second = await requestRow(env, re.json.response.request_id);
    expect(second).toMatchObject({ status: 'enviada', replacesId: first.id, userId: u.userId, channel: 'merchant' });
    expect((await requestRow(env, first.id)).status).toBe('sustituida');
    expect(env.smtp.received.length).toBe(mails + 1);

    // The anonymous form sends the session when signed in: the owner's refactura, and the invoice is still theirs.
    const again = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G03', ...proof(t) }, u.token);
    expect(again.status, again.text).toBe(202);
    await env.drain();
    const third = await requestRow(env, again.json.response.request_id);
    expect(third).toMatchObject({ status: 'enviada', replacesId: second.id, userId: u.userId, clientId: null, channel: 'anonymous' });
    const before = await snapshot(t.id);
    const stranger = await invoice4(t.ref, { ...ATTACKER, ...proof(t) });
    expect([stranger.status, stranger.json]).toEqual([403, { errors: [MSG.refacturaSignInRequired] }]);
    expect(await snapshot(t.id)).toEqual(before);
  }, 60_000);

  it("an anonymous refactura needs the ticket's check code and total; form values, when sent, must match too", async () => {
    const t = await movilTicket();
    const first = await invoice4(t.ref, RECEIVER);
    expect(first.status, first.text).toBe(202);
    await env.drain();
    const before = await snapshot(t.id);
    const values = movilNorteValues(t);
    const refused = async (over: Record<string, unknown>) => {
      const r = await invoice4(t.ref, { ...ATTACKER, refactura: 1, ...over });
      return [r.status, r.json];
    };
    const required = [422, { errors: [MSG.refacturaProofRequired] }];
    const mismatch = [422, { errors: [MSG.refacturaProofMismatch] }];
    expect(await refused({})).toEqual(required);
    // Folio, date and total are on the public receipt of the ref: they are not proof without the code.
    const receipt = await env.call('GET', `/api/v3/tickets/${t.ref}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain(t.ticketNumber);
    expect(receipt.text).not.toContain('QRK9X2');
    expect(await refused({ ticket: values, total: t.total })).toEqual(required);
    expect(await refused({ check: 'QRK9X2' })).toEqual(required);
    expect(await refused({ check: '', total: t.total, ticket: values })).toEqual(required);
    // A wrong code or total is a tampered ticket.
    expect(await refused({ check: 'ZZZZZZ', total: t.total, ticket: values })).toEqual(mismatch);
    expect(await refused({ check: 'QRK9X2', total: '1.00', ticket: values })).toEqual(mismatch);
    // The right code and total beside form values that are not this ticket's.
    const withValue = (id: number, value: string) => values.map((v) => (v.form_configuration_id === id ? { ...v, value } : v));
    expect(await refused({ check: 'QRK9X2', total: t.total, ticket: withValue(MOVIL_NORTE_FIELDS.fecha, mxDate(new Date(Date.now() - 3 * DAY))) })).toEqual(mismatch);
    expect(await refused({ check: 'QRK9X2', total: t.total, ticket: withValue(MOVIL_NORTE_FIELDS.referencia, reference()) })).toEqual(mismatch);
    // Some values missing: the anonymous form asks for all of them.
    expect(await refused({ check: 'QRK9X2', total: t.total, ticket: values.slice(0, 1) })).toEqual([422, { errors: [MSG.fieldRequired] }]);
    // Another ticket's facts, complete and right, do not prove this one.
    const other = await movilTicket();
    expect(await refused({ check: other.checkCode, total: other.total, ticket: movilNorteValues(other) })).toEqual(mismatch);
    await env.drain();
    expect(await snapshot(t.id)).toEqual(before);

    const ok = await invoice4(t.ref, { ...ATTACKER, refactura: 1, check: 'qrk9x2', total: t.total, ticket: values });
    expect(ok.status, ok.text).toBe(202);
    await env.drain();
    const row = await requestRow(env, ok.json.response.request_id);
    expect(row).toMatchObject({ status: 'enviada', replacesId: before.held, userId: null });
    expect(row.receiver.rfc).toBe('XIQB891116QE4');
    // The QR's facts alone (code and total, a number or text) prove it as well.
    const byQr = await invoice4(t.ref, { ...RECEIVER, refactura: 1, check: 'QRK9X2', total: Number(t.total) });
    expect(byQr.status, byQr.text).toBe(202);
    await env.drain();
    expect(await requestRow(env, byQr.json.response.request_id)).toMatchObject({ status: 'enviada', replacesId: row.id });
  }, 60_000);

  it('too many attempts at proving one ticket: 429, even with the right data, and nothing changes', async () => {
    const t = await movilTicket();
    expect((await invoice4(t.ref, RECEIVER)).status).toBe(202);
    await env.drain();
    const before = await snapshot(t.id);
    // Knowing nothing is refused before it counts.
    expect((await invoice4(t.ref, { ...ATTACKER, refactura: 1 })).json).toEqual({ errors: [MSG.refacturaProofRequired] });
    for (let i = 0; i < 20; i++) {
      const r = await invoice4(t.ref, { ...ATTACKER, refactura: 1, check: `GUESS${i}`, total: t.total });
      expect(r.json).toEqual({ errors: [MSG.refacturaProofMismatch] });
    }
    const limited = await invoice4(t.ref, { ...ATTACKER, ...proof(t) });
    expect([limited.status, limited.json]).toEqual([429, { errors: [MSG.refacturaLimited] }]);
    expect(await snapshot(t.id)).toEqual(before);
  }, 60_000);

  it('a merchant without the anonymous form refuses an invoice4 without an account; its merchant form still works', async () => {
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - DAY) });
    const [rows] = await env.h.database.db.select({ n: count() }).from(invoiceRequests);
    const anonymous = await invoice4(t.ref, RECEIVER);
    expect([anonymous.status, anonymous.json]).toEqual([403, { errors: [MSG.anonymousInvoiceUnavailable] }]);
    // A session does not make client 0 the merchant form, and refacturar is no way around it.
    const u = await requester(env, EMPRESA);
    const signedIn = await invoice4(t.ref, RECEIVER, u.token);
    expect([signedIn.status, signedIn.json]).toEqual([403, { errors: [MSG.anonymousInvoiceUnavailable] }]);
    const re = await invoice4(t.ref, { ...RECEIVER, refactura: 1, check: t.checkCode, total: t.total, ticket: copexaValues(t) });
    expect([re.status, re.json]).toEqual([403, { errors: [MSG.anonymousInvoiceUnavailable] }]);
    const [after] = await env.h.database.db.select().from(merchantTickets).where(eq(merchantTickets.id, t.id));
    expect(after!.invoiceRequestId).toBeNull();
    expect((await env.h.database.db.select({ n: count() }).from(invoiceRequests))[0]!.n).toBe(rows!.n);
    expect(env.queued).toEqual([]);

    const own = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(own.status, own.text).toBe(202);
    expect(await requestRow(env, own.json.response.request_id)).toMatchObject({ channel: 'merchant', userId: u.userId });
    env.queued.splice(0);
  }, 30_000);
});
