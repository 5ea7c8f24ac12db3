// Refacturar replaces an invoice: the old CFDI is cancelled at the PAC with motive 01 and the new UUID
// as FolioSustitucion, every copy of it in the user's accounts says so, and it leaves the totals —
// the month counts the ticket once, through the route the app reads its totals from. Two ways the
// old invoice reached the books: the merchant form signed in (its own ticket and receipt), and the
// anonymous form followed by importing the CFDI by its SAT QR.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancelRequest, PacPort } from '../../../src/server/cfdi/pac';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { receipts, tickets } from '../../../src/server/db/schema';
import { followPendingCancellations } from '../../../src/server/cfdi/cancellation';
import { processInvoiceRequest } from '../../../src/server/invoicing/process';
import { DRIVERS } from '../helpers/harness';
import { markRfcVerifiedForTest } from '../helpers/rfc-verified';
import { invoicingEnv, merchantTicket, MOVIL_NORTE, movilNorteValues, requester, requestRow, type InvoicingEnv } from './invoicing-helpers';

const DAY = 86_400_000;
const EMPRESA = { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' };
const RECEIVER = {
  email: 'dueno@example.com', rfc: 'EKU9003173C9', uso_cfdi: 'G03', nombre: 'ESCUELA KEMPER URGATE', regimen_fiscal_receptor: '601', codigo_postal: '42501',
};

/** Year and month (1-12) of an instant in Mexico City. */
function mexicoMonth(at: Date): { year: number; month: number } {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit' }).format(at).split('-');
  return { year: Number(y), month: Number(m) };
}

describe.each(DRIVERS)('refacturar cancels the replaced CFDI on %s', (driver) => {
  let env: InvoicingEnv;
  const asked: CancelRequest[] = [];
  beforeAll(async () => {
    env = await invoicingEnv(driver);
    // Every cancellation the invoicing asks for, on its way to the sandbox PAC.
    const cancel = env.pac.cancel.bind(env.pac);
    env.deps.pac = {
      name: env.pac.name,
      stamp: (xml) => env.pac.stamp(xml),
      cancel: (r) => (asked.push(r), cancel(r)),
      cancellationStatus: (u) => env.pac.cancellationStatus(u),
    };
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const issuedAt = new Date(Date.now() - DAY);
  const when = mexicoMonth(issuedAt);
  const reference = () => `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7');
  const movilTicket = () => merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: reference(), issuedAt, postalCode: '64000', checkCode: 'QRK9X2' });
  const invoice4 = (ref: string, body: Record<string, unknown>, token?: string) => env.call('POST', `/api/v33/tickets/${ref}/invoice4`, { body, token });
  const proof = (t: Awaited<ReturnType<typeof movilTicket>>) => ({ refactura: 1, check: t.checkCode, total: t.total, ticket: movilNorteValues(t) });

  /** A Móvil Norte ticket invoiced for the user's account `client` (0: the anonymous form), then refacturado with Uso G01: accepted (202), not processed yet. */
  async function invoicedThenRefacturado(u: { token: string }, client: number) {
    const t = await movilTicket();
    const first = await invoice4(t.ref, { ...RECEIVER, client }, u.token);
    await env.drain();
    const re = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01', client, ...proof(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    return { t, first, re };
  }

  /** The month's spending as the app reads it (GET /api/v2/tickets … action=stats). */
  async function monthSpending(token: string): Promise<string> {
    const r = await env.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${EMPRESA.rfc}&date[year]=${when.year}&date[month]=${when.month}&action=stats`, { token });
    expect(r.status, r.text).toBe(200);
    return (r.json.response.stats.spending as { month: string; sum: string }[])[when.month - 1]!.sum;
  }

  /** The month's tickets as the app lists them. */
  async function monthTickets(token: string) {
    const r = await env.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${EMPRESA.rfc}&date[year]=${when.year}&date[month]=${when.month}`, { token });
    expect(r.status, r.text).toBe(200);
    return r.json.response.tickets as { ticket_id: string; amount: string; receipt: { uuid: string; total: string; cancel_status?: string | null; replaces?: { uuid: string; cancel_status: string | null }[] } | null }[];
  }

  it('merchant form signed in: the old CFDI is cancelled with motive 01 → new UUID, its ticket leaves the month, the month counts the ticket once', async () => {
    const u = await requester(env, EMPRESA);
    const t = await movilTicket();
    const first = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(first.status, first.text).toBe(202);
    await env.drain();
    expect(await monthSpending(u.token)).toBe(t.total);

    const re = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01', client: u.clientId, ...proof(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    await env.drain();
    const old = await requestRow(env, first.json.response.request_id);
    const now = await requestRow(env, re.json.response.request_id);
    expect(now).toMatchObject({ status: 'enviada', replacesId: old.id });

    expect(asked).toContainEqual(expect.objectContaining({ uuid: old.uuid, motive: '01', replacement: now.uuid, rfcEmisor: 'EKU9003173C9' }));
    expect(await env.pac.cancellationStatus(old.uuid!)).toMatchObject({ state: 'cancelada', motive: '01', replacement: now.uuid });

    const db = env.h.database.db;
    const [oldReceipt] = await db.select().from(receipts).where(eq(receipts.id, old.receiptId!));
    expect(oldReceipt).toMatchObject({ uuid: old.uuid, cancelStatus: 'cancelada', replacedBy: now.uuid, satStatus: 'Cancelado', total: t.total });
    const [oldTicket] = await db.select().from(tickets).where(eq(tickets.id, old.ticketId!));
    expect(oldTicket).toMatchObject({ amount: '0.00', receiptId: old.receiptId });
    expect(await monthSpending(u.token)).toBe(t.total);

    // The ticket JSON shows both UUIDs with their states.
    const listed = await monthTickets(u.token);
    const newRow = listed.find((x) => x.ticket_id === now.ticketId)!;
    const oldRow = listed.find((x) => x.ticket_id === old.ticketId)!;
    expect(oldRow).toMatchObject({ amount: '0.00', receipt: { uuid: old.uuid, cancel_status: 'cancelada' } });
    expect(newRow).toMatchObject({ amount: t.total, receipt: { uuid: now.uuid, replaces: [{ uuid: old.uuid, cancel_status: 'cancelada' }] } });

  }, 60_000);

  it('a crash after the cancellation (the e-mail failed): the re-run asks the PAC nothing again and counts the ticket once', async () => {
    const u = await requester(env, EMPRESA);
    const { t, first, re } = await invoicedThenRefacturado(u, u.clientId);
    const id = re.json.response.request_id as string;
    env.queued.splice(0);
    const before = asked.length;
    const mailer = env.deps.mailer;
    const failing = { ...env.deps, mailer: { send: async () => { throw new Error('SMTP caído (prueba)'); } } };
    await expect(processInvoiceRequest(failing, id)).rejects.toThrow('SMTP');
    expect(asked.length).toBe(before + 1);
    expect(await processInvoiceRequest({ ...env.deps, mailer }, id)).toBe('enviada');
    expect(asked.length).toBe(before + 1);
    const old = await requestRow(env, first.json.response.request_id);
    expect(await env.pac.cancellationStatus(old.uuid!)).toMatchObject({ state: 'cancelada', replacement: (await requestRow(env, id)).uuid });
    expect(await monthSpending(u.token)).toBe(t.total);
  }, 60_000);

  it('the PAC cannot cancel yet (the receptor must accept): en proceso, and the old CFDI still leaves the totals', async () => {
    const u = await requester(env, EMPRESA);
    const { t, first, re } = await invoicedThenRefacturado(u, u.clientId);
    env.queued.splice(0);
    // A PAC that answers as SAT does for a CFDI whose receptor must accept (over $1,000, after 24 hours).
    const pending: PacPort = {
      name: 'pendiente',
      stamp: (xml) => env.pac.stamp(xml),
      cancellationStatus: (x) => env.pac.cancellationStatus(x),
      cancel: async (r) => {
        asked.push(r);
        return { uuid: r.uuid, state: 'en_proceso', cancelable: 'Cancelable con aceptación', satStatus: 'En proceso', code: '201', motive: r.motive, replacement: r.replacement ?? null, requestedAt: new Date().toISOString(), deadline: new Date(Date.now() + 72 * 3_600_000).toISOString() };
      },
    };
    expect(await processInvoiceRequest({ ...env.deps, pac: pending }, re.json.response.request_id)).toBe('enviada');
    const old = await requestRow(env, first.json.response.request_id);
    const now = await requestRow(env, re.json.response.request_id);
    const [oldReceipt] = await env.h.database.db.select().from(receipts).where(eq(receipts.id, old.receiptId!));
    expect(oldReceipt).toMatchObject({ cancelStatus: 'en_proceso', replacedBy: now.uuid });
    expect(oldReceipt!.satStatus).not.toBe('Cancelado');
    expect(await monthSpending(u.token)).toBe(t.total);
    const listed = await monthTickets(u.token);
    expect(listed.find((x) => x.ticket_id === now.ticketId)).toMatchObject({ receipt: { replaces: [{ uuid: old.uuid, cancel_status: 'en_proceso' }] } });
  }, 60_000);

  it('anonymous form, both CFDI imported by their SAT QR: the replaced one is marked and counts nothing, before or after the new one arrives', async () => {
    const u = await requester(env, EMPRESA);
    await markRfcVerifiedForTest(env.h.database.db, u.clientId);
    const t = await movilTicket();
    const first = await invoice4(t.ref, { ...RECEIVER, client: 0 }, u.token);
    expect(first.status, first.text).toBe(202);
    await env.drain();
    const old = await requestRow(env, first.json.response.request_id);
    const qr = (uuid: string) => ({ uuid, re: 'EKU9003173C9', rr: 'EKU9003173C9', tt: t.total });
    const importedOld = await env.call('POST', '/api/v3/cfdi/import', { token: u.token, body: qr(old.uuid!) });
    expect(importedOld.status, importedOld.text).toBe(200);
    expect(await monthSpending(u.token)).toBe(t.total);

    const re = await invoice4(t.ref, { ...RECEIVER, client: 0, uso_cfdi: 'G01', ...proof(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    await env.drain();
    const now = await requestRow(env, re.json.response.request_id);
    expect(asked).toContainEqual(expect.objectContaining({ uuid: old.uuid, motive: '01', replacement: now.uuid }));
    // The old CFDI left the month as soon as it was cancelled.
    expect(await monthSpending(u.token)).toBe('0.00');
    const importedNew = await env.call('POST', '/api/v3/cfdi/import', { token: u.token, body: qr(now.uuid!) });
    expect(importedNew.status, importedNew.text).toBe(200);
    expect(await monthSpending(u.token)).toBe(t.total);
    const listed = await monthTickets(u.token);
    expect(listed.find((x) => x.ticket_id === importedOld.json.response.ticket_id)).toMatchObject({ amount: '0.00', receipt: { uuid: old.uuid, cancel_status: 'cancelada' } });
    expect(listed.find((x) => x.ticket_id === importedNew.json.response.ticket_id)).toMatchObject({ amount: t.total, receipt: { uuid: now.uuid, replaces: [{ uuid: old.uuid, cancel_status: 'cancelada' }] } });
  }, 60_000);

  it('the replaced CFDI imported only after the refacturación: it arrives cancelled and counts nothing', async () => {
    const u = await requester(env, EMPRESA);
    await markRfcVerifiedForTest(env.h.database.db, u.clientId);
    const { t, first, re } = await invoicedThenRefacturado(u, 0);
    await env.drain();
    const old = await requestRow(env, first.json.response.request_id);
    const now = await requestRow(env, re.json.response.request_id);
    const qr = (uuid: string) => ({ uuid, re: 'EKU9003173C9', rr: 'EKU9003173C9', tt: t.total });
    expect((await env.call('POST', '/api/v3/cfdi/import', { token: u.token, body: qr(now.uuid!) })).status).toBe(200);
    const late = await env.call('POST', '/api/v3/cfdi/import', { token: u.token, body: qr(old.uuid!) });
    expect(late.status, late.text).toBe(200);
    expect(await monthSpending(u.token)).toBe(t.total);
    const [oldTicket] = await env.h.database.db.select().from(tickets).where(eq(tickets.id, late.json.response.ticket_id));
    expect(oldTicket!.amount).toBe('0.00');
  }, 60_000);
});

describe.each(DRIVERS)('refacturar over $1,000 a day later: the receptor must accept (%s)', (driver) => {
  let env: InvoicingEnv;
  let pac: SandboxPac;
  const clock = { now: new Date() };
  beforeAll(async () => {
    env = await invoicingEnv(driver);
    pac = new SandboxPac({ now: () => clock.now });
    env.deps.pac = pac;
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  const issuedAt = new Date(Date.now() - DAY);
  const when = mexicoMonth(issuedAt);
  const items = [{ description: 'Plan anual', quantity: '1', unit_price: '1500.00', clave_prod_serv: '81161700', clave_unidad: 'E48', iva: 'IVA16' as const }];
  const movilTicket = () => merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7'), issuedAt, postalCode: '64000', checkCode: 'QRK9X2', items });
  const invoice4 = (ref: string, body: Record<string, unknown>, token?: string) => env.call('POST', `/api/v33/tickets/${ref}/invoice4`, { body, token });
  const spending = async (token: string) => {
    const r = await env.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${EMPRESA.rfc}&date[year]=${when.year}&date[month]=${when.month}&action=stats`, { token });
    return (r.json.response.stats.spending as { sum: string }[])[when.month - 1]!.sum;
  };

  /** An invoice stamped now, replaced 25 hours later: the cancellation waits for the receptor. */
  async function replacedLater() {
    clock.now = new Date();
    const u = await requester(env, EMPRESA);
    const t = await movilTicket();
    const first = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(first.status, first.text).toBe(202);
    await env.drain();
    clock.now = new Date(Date.now() + 25 * 3_600_000);
    const re = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01', client: u.clientId, refactura: 1, check: t.checkCode, total: t.total, ticket: movilNorteValues(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    await env.drain();
    const old = await requestRow(env, first.json.response.request_id);
    const now = await requestRow(env, re.json.response.request_id);
    const receipt = async () => (await env.h.database.db.select().from(receipts).where(eq(receipts.id, old.receiptId!)))[0]!;
    expect(await receipt()).toMatchObject({ cancelStatus: 'en_proceso', replacedBy: now.uuid });
    expect(await spending(u.token)).toBe(t.total);
    return { u, t, old, now, receipt };
  }

  it('the receptor accepts: the next follow-up marks it cancelada (SAT: Cancelado); refuses: rechazada, still out of the totals', async () => {
    const accepted = await replacedLater();
    const refused = await replacedLater();
    expect(await followPendingCancellations(env.deps)).toBe(0);
    const ticketUpdated = async () => (await env.h.database.db.select({ at: tickets.updatedAt }).from(tickets).where(eq(tickets.id, accepted.old.ticketId!)))[0]!.at.getTime();
    const before = await ticketUpdated();
    await new Promise((r) => setTimeout(r, 5));
    await pac.answerCancellation(accepted.old.uuid!, true);
    await pac.answerCancellation(refused.old.uuid!, false);
    expect(await followPendingCancellations(env.deps)).toBe(2);
    expect(await accepted.receipt()).toMatchObject({ cancelStatus: 'cancelada', satStatus: 'Cancelado', replacedBy: accepted.now.uuid });
    // Its ticket (already at 0.00) is pulled again by the apps: the receipt's state it shows changed.
    expect(await ticketUpdated()).toBeGreaterThan(before);
    expect(await refused.receipt()).toMatchObject({ cancelStatus: 'rechazada', replacedBy: refused.now.uuid });
    expect(await spending(accepted.u.token)).toBe(accepted.t.total);
    expect(await spending(refused.u.token)).toBe(refused.t.total);
  }, 90_000);

  it('the 72 hours pass without an answer: plazo vencido, cancelada', async () => {
    const late = await replacedLater();
    clock.now = new Date(clock.now.getTime() + 73 * 3_600_000);
    expect(await followPendingCancellations(env.deps)).toBeGreaterThanOrEqual(1);
    expect(await late.receipt()).toMatchObject({ cancelStatus: 'cancelada', satStatus: 'Cancelado' });
    expect(await pac.cancellationStatus(late.old.uuid!)).toMatchObject({ satStatus: 'Plazo vencido' });
  }, 60_000);
});

