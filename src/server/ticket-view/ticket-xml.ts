// The public receipt of a merchant ticket (spec §2 'Ticket receipt view', §7 receipt view): the ticket as
// a small XML document, and the verification link its 180×180 QR encodes.
import { formatCents, productCents } from '../../domain/decimal';
import { mexicoCityDateTime } from '../../domain/mexico-time';
import type { MerchantTicketItem } from '../db/schema';

export interface ReceiptTicket {
  ref: string;
  rfc: string;
  /** The merchant's ticket number (what the ticket prints as folio). */
  folio: string;
  issuedAt: Date;
  postalCode: string;
  venue: string;
  formaPago: string;
  subtotal: string;
  tax: string;
  total: string;
  items: MerchantTicketItem[];
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// Control characters are not allowed in XML 1.0 (except tab/newline/CR, which attributes would normalise).
// eslint-disable-next-line no-control-regex
const attr = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[&<>"']/g, (ch) => ESC[ch] ?? ch);

/** Line amount as printed: quantity × gross unit price, 2 decimals. */
export function lineAmount(item: MerchantTicketItem): string {
  const cents = productCents(item.quantity, item.unit_price);
  return cents === null ? '0.00' : formatCents(cents);
}

/**
 * `<Ticket rfc folio fecha lugar formaPago subtotal impuestos total venue><Concepto …/>…</Ticket>`; fecha in SAT's
 * form (Mexico City wall-clock time, no offset), so its first 10 characters are the purchase's local date.
 */
export function ticketXml(t: ReceiptTicket): string {
  const conceptos = t.items
    .map((i) => `  <Concepto descripcion="${attr(i.description)}" cantidad="${attr(i.quantity)}" importe="${lineAmount(i)}"/>\n`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Ticket rfc="${attr(t.rfc)}" folio="${attr(t.folio)}" fecha="${mexicoCityDateTime(t.issuedAt)}" lugar="${attr(t.postalCode)}"` +
    ` formaPago="${attr(t.formaPago)}" subtotal="${attr(t.subtotal)}" impuestos="${attr(t.tax)}" total="${attr(t.total)}"` +
    ` venue="${attr(t.venue)}">\n${conceptos}</Ticket>\n`
  );
}

/** The link the receipt's QR encodes: this same receipt view, with the issuer's RFC and the folio to compare. */
export function receiptVerificationUrl(origin: string, t: Pick<ReceiptTicket, 'ref' | 'rfc' | 'folio'>): string {
  const q = new URLSearchParams({ ref: t.ref, rfc: t.rfc, folio: t.folio });
  return `${origin.replace(/\/+$/, '')}/#/tickets?${q.toString()}`;
}
