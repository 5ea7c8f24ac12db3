// Tickets a merchant's point of sale registers with us: checked, priced exactly as their
// CFDI will be (the same conceptos feed buildCfdi), stored with an unguessable public ref.
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { MERCHANT_API_MSG, type MerchantTicketBody } from '../../domain/merchant-api';
import { checkFieldValue, mexicoToday } from '../../domain/merchant-fields';
import { merchantTicketQrUrl } from '../../domain/qr-payload';
import { productCents } from '../../domain/decimal';
import { newId } from '../../domain/ids';
import type { Db } from '../db/client';
import { merchantTickets, type MerchantTicketItem } from '../db/schema';
import { cfdiAmounts } from '../cfdi/build';
import { fail } from '../http/errors';
import { ticketConceptos } from '../cfdi/ticket-conceptos';
import type { MerchantIssuer } from './csd';
import { merchantFields } from './fields';

export type MerchantTicketRow = typeof merchantTickets.$inferSelect;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MAX_AGE_MS = 366 * 24 * 3600 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** `n` characters of [A-Z0-9] from the CSPRNG (no modulo bias: randomInt is uniform). */
export function randomCode(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** The public reference printed as QR: 16 × [A-Z0-9] ≈ 82 bits. */
export const newTicketRef = (): string => randomCode(16);

/** Subtotal, IVA and total of a ticket, exactly as its CFDI will state them. */
export function ticketAmounts(items: readonly MerchantTicketItem[]): { subtotal: string; tax: string; total: string } {
  const a = cfdiAmounts({
    fecha: '2000-01-01T00:00:00',
    tipoDeComprobante: 'I',
    lugarExpedicion: '00000',
    emisor: { rfc: '', nombre: '', regimenFiscal: '' },
    receptor: { rfc: '', nombre: '', domicilioFiscalReceptor: '', regimenFiscalReceptor: '', usoCfdi: '' },
    conceptos: ticketConceptos(items),
  });
  return { subtotal: a.subTotal, tax: a.totalImpuestosTrasladados ?? '0.00', total: a.total };
}

/** The link printed as the ticket's QR (our merchant form, prefilled). */
export function merchantTicketQr(origin: string, shortName: string, t: Pick<MerchantTicketRow, 'ref' | 'checkCode' | 'total'>): string {
  return merchantTicketQrUrl(origin, { short_name: shortName, ref: t.ref, check: t.checkCode, total: t.total });
}

/**
 * Registers a ticket for `company`. Throws ApiError 422 (bad data, with the reason) or 409 (that
 * ticket number is already registered). `input` is the parsed MerchantTicketBody.
 */
export async function registerMerchantTicket(db: Db, company: MerchantIssuer, input: MerchantTicketBody, now: Date): Promise<MerchantTicketRow> {
  const issuedAt = new Date(input.issued_at);
  if (issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw fail(422, MERCHANT_API_MSG.issuedAtFuture);
  if (now.getTime() - issuedAt.getTime() > MAX_AGE_MS) throw fail(422, MERCHANT_API_MSG.issuedAtOld);

  // The ticket must be findable through the merchant's own form: its number and branch must fit it.
  const fields = await merchantFields(db, company.id);
  const numberField = fields.find((f) => f.meaning === 'ticket_number');
  if (numberField) {
    const problem = checkFieldValue(numberField, input.ticket_number, mexicoToday(now));
    if (problem) throw fail(422, `${MERCHANT_API_MSG.ticketNumberForm} ${numberField.field_name}: ${problem}`);
  }
  const checkField = fields.find((f) => f.meaning === 'check');
  if (checkField && input.check_code !== undefined) {
    const problem = checkFieldValue(checkField, input.check_code, mexicoToday(now));
    if (problem) throw fail(422, `${MERCHANT_API_MSG.checkCode} ${checkField.field_name}: ${problem}`);
  }
  const venueField = fields.find((f) => f.meaning === 'venue');
  let venue = input.venue ?? '';
  if (venueField) {
    const option = venueField.options.find((o) => o.option_title.toUpperCase() === venue.toUpperCase());
    if (!option) throw fail(422, `${MERCHANT_API_MSG.venue} (${venueField.options.map((o) => o.option_title).join(', ')})`);
    venue = option.option_title;
  }

  const items: MerchantTicketItem[] = input.items.map((it) => ({
    description: it.description,
    quantity: it.quantity,
    unit_price: it.unit_price,
    clave_prod_serv: it.clave_prod_serv,
    clave_unidad: it.clave_unidad,
    iva: it.iva,
  }));
  const amounts = ticketAmounts(items);
  if (input.total !== undefined && productCents(input.total, '1') !== productCents(amounts.total, '1')) {
    throw fail(422, `${MERCHANT_API_MSG.totalMismatch} ${amounts.total}`);
  }

  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await db
      .insert(merchantTickets)
      .values({
        id: newId(),
        companyId: company.id,
        ref: newTicketRef(),
        ticketNumber: input.ticket_number,
        venue,
        postalCode: input.postal_code ?? company.postalCode,
        issuedAt,
        items,
        subtotal: amounts.subtotal,
        tax: amounts.tax,
        total: amounts.total,
        formaPago: input.forma_pago,
        // A code printed on the ticket and carried by its QR, so a QR cannot be forged from the ref alone.
        checkCode: input.check_code ?? randomCode(Math.max(6, checkField?.min_length ?? 0)),
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const [dup] = await db
      .select({ id: merchantTickets.id })
      .from(merchantTickets)
      .where(and(eq(merchantTickets.companyId, company.id), eq(merchantTickets.ticketNumber, input.ticket_number)));
    if (dup) throw fail(409, MERCHANT_API_MSG.duplicate);
    // else: the random ref collided (≈ never); draw another
  }
  throw new Error('could not draw a free ticket ref');
}
