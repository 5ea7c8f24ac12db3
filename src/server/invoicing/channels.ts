// The four ways to ask for an invoice (spec §4): the ticket form and the multi-ticket form (signed in,
// receiver = the chosen tax account), and invoice4 (the anonymous form, or the merchant form when signed
// in). Each checks everything, then hands over to createInvoiceRequest.
import { and, eq } from 'drizzle-orm';
import type * as v from 'valibot';
import { checkForeignReceiver, checkReceiver, checkRegimeForUso, normalizeReceiver, regimeFitsRfc, USOS_CFDI } from '../../domain/invoicing';
import { merchantByShortName } from '../../domain/merchants';
import { MSG } from '../../domain/messages';
import { normalizeRfc, RFC_FOREIGN } from '../../domain/rfc';
import type { Db } from '../db/client';
import { clients, merchantTickets, users, type InvoiceReceiver } from '../db/schema';
import { fail } from '../http/errors';
import type { FindResult, MerchantSide, MerchantTicketRow } from './ports';
import { createInvoiceRequest, type CreatedRequest } from './requests';
import { type Invoice4Body, type MerchantTicketCreateBody, type MultiTicketCreateBody } from './schemas';

/** SAT's receiver rules (regime by person type, Uso by regime and person type, foreign data) and the RFC check, before the PAC sees it. */
async function checkUsoAndRfc(db: Db, merchants: MerchantSide, receiver: InvoiceReceiver): Promise<void> {
  if (!regimeFitsRfc(receiver.regimen_fiscal, receiver.rfc)) throw fail(422, MSG.regimeInvalid);
  if (!USOS_CFDI.some((u) => u.code === receiver.uso_cfdi)) throw fail(422, MSG.usoRequired);
  const rule = checkRegimeForUso(receiver.regimen_fiscal, receiver.uso_cfdi, receiver.rfc);
  if (rule) throw fail(422, rule);
  if (receiver.rfc === RFC_FOREIGN) {
    const foreign = checkForeignReceiver(receiver.residencia_fiscal ?? '', receiver.num_reg_id_trib ?? '');
    if (foreign) throw fail(422, foreign.message);
  }
  const status = await merchants.rfcStatus(db, receiver.rfc);
  if (status !== 'ok') throw fail(422, MSG.rfcInactive);
}

/** The caller's tax account as the receiver; its postal code and regime must be filled in. */
async function accountReceiver(db: Db, userId: number, where: { rfc: string } | { clientId: number }, uso: string) {
  const [row] = await db
    .select({ client: clients, email: users.email })
    .from(clients)
    .innerJoin(users, eq(users.id, clients.userId))
    .where(and(eq(clients.userId, userId), 'rfc' in where ? eq(clients.rfc, normalizeRfc(where.rfc)) : eq(clients.id, where.clientId)));
  if (!row) throw fail(404, MSG.notFound);
  const c = row.client;
  if (!/^[0-9]{5}$/.test(c.zipCode) || !c.taxRegime) throw fail(422, MSG.receiverIncomplete);
  const nombre = (c.name?.trim() || [c.firstName, c.lastName].filter(Boolean).join(' ')).trim().toUpperCase().replace(/\s+/g, ' ');
  if (!nombre) throw fail(422, MSG.receiverIncomplete);
  const receiver: InvoiceReceiver = {
    rfc: c.rfc,
    nombre,
    codigo_postal: c.zipCode,
    regimen_fiscal: c.taxRegime,
    uso_cfdi: uso.trim().toUpperCase(),
    ...(c.rfc === RFC_FOREIGN ? { residencia_fiscal: c.residenciaFiscal ?? undefined, num_reg_id_trib: c.numRegIdTrib ?? undefined } : {}),
  };
  return { clientId: c.id, receiver, email: row.email };
}

async function merchantOrNotFound(db: Db, merchants: MerchantSide, companyId: number) {
  const issuer = await merchants.issuerOf(db, companyId);
  if (!issuer) throw fail(404, MSG.notFound);
  return issuer;
}

function found(r: FindResult, notFound: string): MerchantTicketRow {
  if (r.ok) return r.ticket;
  throw fail(r.status, r.status === 422 ? r.message : notFound);
}

const valuesOf = (fields: readonly { form_configuration_id: number; value: string }[]) =>
  new Map(fields.map((f) => [f.form_configuration_id, f.value]));

/** 'Facturar ticket' from a merchant's ticket form (POST /form/ticket_create with a merchant company). */
export async function requestFromForm(db: Db, merchants: MerchantSide, userId: number, body: v.InferOutput<typeof MerchantTicketCreateBody>, now: Date): Promise<CreatedRequest> {
  const issuer = await merchantOrNotFound(db, merchants, body.company.id);
  const info = body.additional_info;
  const account = await accountReceiver(db, userId, { rfc: body.usuario.rfc }, info.uso_cfdi);
  const ticket = found(await merchants.matchTicket(db, issuer.id, { values: valuesOf(body.ticket), flow: 'form' }, now), MSG.ticketNotFound33);
  await checkUsoAndRfc(db, merchants, account.receiver);
  return createInvoiceRequest(db, {
    companyId: issuer.id, channel: 'form', tickets: [ticket], receiver: account.receiver, email: account.email,
    note: info.note.trim(), requester: { userId, clientId: account.clientId, ticketId: info.ticket_id },
  }, now);
}

/** One invoice for several tickets of one merchant (POST /form/ticket_create_multi). */
export async function requestFromMulti(db: Db, merchants: MerchantSide, userId: number, body: v.InferOutput<typeof MultiTicketCreateBody>, now: Date): Promise<CreatedRequest> {
  const issuer = await merchantOrNotFound(db, merchants, body.company.id);
  // Only merchants that offer ticket/form-multi invoice several tickets at once.
  if (!merchantByShortName(issuer.shortName)?.multi) throw fail(404, MSG.notFound);
  const info = body.additional_info;
  const account = await accountReceiver(db, userId, { rfc: body.usuario.rfc }, info.uso_cfdi);
  const found_: MerchantTicketRow[] = [];
  for (const values of body.tickets) {
    const t = found(await merchants.matchTicket(db, issuer.id, { values: valuesOf(values), flow: 'multi' }, now), MSG.multiTicketNotFound);
    if (found_.some((x) => x.id === t.id)) throw fail(422, MSG.multiDuplicate);
    found_.push(t);
  }
  await checkUsoAndRfc(db, merchants, account.receiver);
  return createInvoiceRequest(db, {
    companyId: issuer.id, channel: 'multi', tickets: found_, receiver: account.receiver, email: account.email,
    note: info.note.trim(), requester: { userId, clientId: account.clientId, ticketId: info.ticket_id },
  }, now);
}

/**
 * What refacturar must show besides the ref, as the verify step's QR path asks: the ticket's check code
 * and total (the public receipt view gives anyone with the ref its folio, date and total, never the
 * code). Form values, when sent, must designate the same ticket too.
 */
async function checkRefacturaProof(db: Db, merchants: MerchantSide, ticket: MerchantTicketRow, flow: 'anonymous' | 'merchant', body: v.InferOutput<typeof Invoice4Body>, who: Invoice4Caller, now: Date): Promise<void> {
  const total = body.total?.trim() ?? '';
  const check = body.check?.trim() ?? '';
  if (!total || !check) throw fail(422, MSG.refacturaProofRequired);
  if (who.refacturaAttempt && !(await who.refacturaAttempt(ticket.id))) throw fail(429, MSG.refacturaLimited);
  const byQr = await merchants.matchTicket(db, ticket.companyId, { ref: ticket.ref, check, total }, now);
  if (!byQr.ok || byQr.ticket.id !== ticket.id) throw fail(422, MSG.refacturaProofMismatch);
  if (body.ticket && body.ticket.length > 0) {
    const byValues = await merchants.matchTicket(db, ticket.companyId, { values: valuesOf(body.ticket), flow }, now);
    // A value that breaks its field's rule is told as the verify step tells it (a shape, not a match).
    if (!byValues.ok && byValues.status === 422) throw fail(422, byValues.message);
    if (!byValues.ok || byValues.ticket.id !== ticket.id) throw fail(422, MSG.refacturaProofMismatch);
  }
}

export interface Invoice4Caller {
  /** The session's user, when the call carries one (the anonymous form sends it when signed in). */
  userId: number | null;
  /** Counts one attempt at proving the ticket for refacturar; false = too many lately. */
  refacturaAttempt?: (ticketId: string) => Promise<boolean>;
}

/**
 * The anonymous form (client 0) or the merchant form signed in (client = the caller's tax account id):
 * the receiver typed in, checked by the spec's rules, for the ticket with that public ref.
 */
export async function requestFromInvoice4(db: Db, merchants: MerchantSide, ref: string, who: Invoice4Caller, body: v.InferOutput<typeof Invoice4Body>, now: Date): Promise<CreatedRequest> {
  const { userId } = who;
  const [ticket] = await db.select().from(merchantTickets).where(eq(merchantTickets.ref, ref.trim().toUpperCase()));
  if (!ticket) throw fail(404, MSG.merchantTicketNotFound);
  const issuer = await merchantOrNotFound(db, merchants, ticket.companyId);
  const anonymous = body.client === 0;
  // Client 0 is the anonymous form: only merchants that offer it (ticket/form-anonymous) take it.
  if (anonymous && !merchantByShortName(issuer.shortName)?.anonymous) throw fail(403, MSG.anonymousInvoiceUnavailable);
  if (!anonymous && userId === null) throw fail(401, MSG.unauthorized);
  const refactura = body.refactura !== undefined;
  if (refactura) {
    await checkRefacturaProof(db, merchants, ticket, anonymous ? 'anonymous' : 'merchant', body, who, now);
  }
  const foreign = normalizeRfc(body.rfc) === RFC_FOREIGN;
  const form = normalizeReceiver({
    rfc: body.rfc, rfcConfirm: body.rfc, foreign, nombre: body.nombre, email: body.email,
    regime: body.regimen_fiscal_receptor, uso: body.uso_cfdi, postalCode: body.codigo_postal,
    residenciaFiscal: body.residencia_fiscal, numRegIdTrib: body.num_reg_id_trib,
  });
  const problem = checkReceiver(form);
  if (problem) throw fail(422, problem.message);
  const receiver: InvoiceReceiver = {
    rfc: form.rfc, nombre: form.nombre, codigo_postal: form.postalCode, regimen_fiscal: form.regime, uso_cfdi: form.uso,
    ...(foreign ? { residencia_fiscal: form.residenciaFiscal, num_reg_id_trib: form.numRegIdTrib } : {}),
  };
  await checkUsoAndRfc(db, merchants, receiver);
  let requester: { userId: number; clientId: number; ticketId?: string } | undefined;
  if (!anonymous && userId !== null) {
    const [own] = await db.select({ id: clients.id, rfc: clients.rfc }).from(clients).where(and(eq(clients.id, body.client), eq(clients.userId, userId)));
    if (!own) throw fail(404, MSG.notFound);
    // The receipt lands in that account: a CFDI for another RFC would not be its own.
    if (own.rfc !== receiver.rfc) throw fail(422, MSG.receiverNotAccount);
    requester = { userId, clientId: own.id, ticketId: body.ticket_id };
  }
  return createInvoiceRequest(db, {
    companyId: issuer.id, channel: requester ? 'merchant' : 'anonymous', tickets: [ticket], receiver, email: form.email,
    note: '', requester, owner: userId ?? undefined, refactura,
  }, now);
}
