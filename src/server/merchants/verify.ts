// Finding a merchant ticket from what a person typed in the merchant's form, or from a scanned QR
// (spec §7 'Verify ticket'): the values are checked by their field type, then matched against the
// tickets of THAT merchant by each field's meaning.
import { and, eq } from 'drizzle-orm';
import { toCents } from '../../domain/decimal';
import type { InvoiceRequestStatus, VerifiedTicket } from '../../domain/invoicing';
export type { VerifiedTicket };
import {
  checkFieldValues,
  isInput,
  mexicoToday,
  normalizeFieldValue,
  shownInAnonymousForm,
  shownInMerchantForm,
} from '../../domain/merchant-fields';
import type { Db } from '../db/client';
import { invoiceRequests, merchantTickets } from '../db/schema';
import { maskEmail } from '../lib/mask-email';
import { merchantFields, type MerchantField } from './fields';
import type { MerchantTicketRow } from './merchant-tickets';

/** Which form the values come from: it decides which fields are shown, hence required (spec §5). */
export type VerifyFlow = 'form' | 'merchant' | 'anonymous' | 'multi';

export type TicketLookup =
  | { values: ReadonlyMap<number, string> | Readonly<Record<string, string>>; flow?: VerifyFlow }
  | { ref: string; check: string; total: string };

export type FindResult =
  | { ok: true; ticket: MerchantTicketRow }
  /** A value breaks its field's rule: the Spanish message of checkFieldValue. */
  | { ok: false; status: 422; message: string; form_configuration_id?: number }
  /** No such ticket for this merchant (the caller picks the §8 message of its flow). */
  | { ok: false; status: 404 };

const NOT_FOUND = { ok: false, status: 404 } as const;

export function fieldsForFlow(fields: readonly MerchantField[], flow: VerifyFlow): MerchantField[] {
  if (flow === 'merchant') return fields.filter(shownInMerchantForm);
  if (flow === 'anonymous') return fields.filter(shownInAnonymousForm);
  return [...fields];
}

function toMap(values: ReadonlyMap<number, string> | Readonly<Record<string, string>>): Map<number, string> {
  if (values instanceof Map) return new Map(values);
  const m = new Map<number, string>();
  for (const [k, v] of Object.entries(values)) if (/^[0-9]{1,9}$/.test(k) && typeof v === 'string') m.set(Number(k), v);
  return m;
}

/** Whether one typed value agrees with the ticket, by the field's meaning. */
function matches(f: MerchantField, value: string, t: MerchantTicketRow): boolean {
  switch (f.meaning) {
    case 'ticket_number':
      return value === t.ticketNumber;
    case 'date':
      return value === mexicoToday(t.issuedAt);
    case 'amount':
      return toCents(value) === toCents(t.total);
    case 'venue': {
      const option = f.options.find((o) => String(o.option_id) === value || o.option_title.toUpperCase() === value);
      return !!option && option.option_title.toUpperCase() === t.venue.toUpperCase();
    }
    case 'check':
      return value === t.checkCode;
    default:
      return true; // 'label' and 'other' (e.g. a room number) are asked, not matched
  }
}

/**
 * The merchant ticket of company `companyId` that the lookup designates. `now` fixes "today" for the
 * date rule (Mexico City).
 */
export async function findMerchantTicket(db: Db, companyId: number, lookup: TicketLookup, now: Date = new Date()): Promise<FindResult> {
  if ('ref' in lookup) return findByQr(db, companyId, lookup);
  const fields = fieldsForFlow(await merchantFields(db, companyId), lookup.flow ?? 'form').filter(isInput);
  const numberField = fields.find((f) => f.meaning === 'ticket_number');
  if (!numberField) return NOT_FOUND;
  const raw = toMap(lookup.values);
  const values = new Map<number, string>();
  for (const f of fields) values.set(f.form_configuration_id, normalizeFieldValue(f, raw.get(f.form_configuration_id) ?? ''));
  const problem = checkFieldValues(fields, values, mexicoToday(now));
  if (problem) return { ok: false, status: 422, message: problem.message, form_configuration_id: problem.form_configuration_id };

  const [ticket] = await db
    .select()
    .from(merchantTickets)
    .where(and(eq(merchantTickets.companyId, companyId), eq(merchantTickets.ticketNumber, values.get(numberField.form_configuration_id) ?? '')));
  if (!ticket) return NOT_FOUND;
  for (const f of fields) if (!matches(f, values.get(f.form_configuration_id) ?? '', ticket)) return NOT_FOUND;
  return { ok: true, ticket };
}

async function findByQr(db: Db, companyId: number, q: { ref: string; check: string; total: string }): Promise<FindResult> {
  const ref = q.ref.trim().toUpperCase();
  if (!/^[A-Z0-9]{12,32}$/.test(ref)) return NOT_FOUND;
  const [ticket] = await db
    .select()
    .from(merchantTickets)
    .where(and(eq(merchantTickets.companyId, companyId), eq(merchantTickets.ref, ref)));
  // A QR is only good with all three of its facts: a changed check code or total is a tampered QR.
  if (!ticket || ticket.checkCode !== q.check.trim().toUpperCase()) return NOT_FOUND;
  const total = toCents(q.total.trim());
  if (total === null || total !== toCents(ticket.total)) return NOT_FOUND;
  return { ok: true, ticket };
}

/** The request that currently stands for the ticket: its own, or the last one that replaced it. */
export async function currentInvoiceRequest(db: Db, ticket: Pick<MerchantTicketRow, 'invoiceRequestId'>) {
  if (!ticket.invoiceRequestId) return null;
  let [req] = await db.select().from(invoiceRequests).where(eq(invoiceRequests.id, ticket.invoiceRequestId));
  for (let hops = 0; req && req.status === 'sustituida' && hops < 50; hops++) {
    const [next] = await db.select().from(invoiceRequests).where(eq(invoiceRequests.replacesId, req.id));
    if (!next) break;
    req = next;
  }
  return req ?? null;
}

/** The verify endpoint's answer for a found ticket. */
export async function verifiedTicketJson(db: Db, ticket: MerchantTicketRow): Promise<VerifiedTicket> {
  const req = await currentInvoiceRequest(db, ticket);
  const status = req?.status as InvoiceRequestStatus | undefined;
  return {
    ref: ticket.ref,
    ticket_number: ticket.ticketNumber,
    venue: ticket.venue,
    issued_at: ticket.issuedAt.toISOString(),
    subtotal: ticket.subtotal,
    tax: ticket.tax,
    total: ticket.total,
    forma_pago: ticket.formaPago,
    invoiced: status === 'timbrada' || status === 'enviada',
    invoice: req && status ? { request_id: req.id, status, email_masked: maskEmail(req.email), uuid: req.uuid } : null,
  };
}
