// The receipt view's data (spec §2 'Ticket receipt view'): read from the server's XML and headers.
import { FORMAS_PAGO } from '../../domain/invoicing';

export interface ReceiptLine {
  description: string;
  quantity: string;
  amount: string;
}

export interface Receipt {
  ref: string;
  venueName: string;
  /** Same-origin path of the logo, or null. */
  venueLogo: string | null;
  rfc: string;
  folio: string;
  /** First 10 characters of fecha (spec). */
  date: string;
  place: string;
  paymentMethod: string;
  subtotal: string;
  tax: string;
  total: string;
  branch: string;
  lines: ReceiptLine[];
}

/** Spec: the folio is shown in groups of 5 characters. */
export function groupFolio(folio: string): string {
  return (folio.match(/.{1,5}/g) ?? []).join(' ');
}

export function paymentLabel(code: string): string {
  const name = FORMAS_PAGO[code];
  return name ?? code;
}

/** Only a path of ours may become an <img src> (never another site). */
export function safeLogo(raw: string | null): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  return raw;
}

function decodeHeader(raw: string | null): string {
  if (!raw) return '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const MONEY_RE = /^-?[0-9]+(\.[0-9]+)?$/;

/** Null when the document is not a ticket (the view then shows its error state). */
export function readReceipt(doc: Document, headers: { get(name: string): string | null }, ref: string): Receipt | null {
  const t = doc.documentElement;
  if (!t || t.nodeName !== 'Ticket') return null;
  const a = (name: string) => t.getAttribute(name) ?? '';
  if (!MONEY_RE.test(a('total')) || !a('rfc')) return null;
  const lines = Array.from(t.getElementsByTagName('Concepto')).map((c) => ({
    description: c.getAttribute('descripcion') ?? '',
    quantity: c.getAttribute('cantidad') ?? '',
    amount: c.getAttribute('importe') ?? '0',
  }));
  return {
    ref,
    venueName: decodeHeader(headers.get('X-Venue-Name')),
    venueLogo: safeLogo(headers.get('X-Venue-Logo')),
    rfc: a('rfc'),
    folio: a('folio'),
    date: a('fecha').slice(0, 10),
    place: a('lugar'),
    paymentMethod: paymentLabel(a('formaPago')),
    subtotal: a('subtotal'),
    tax: a('impuestos'),
    total: a('total'),
    branch: a('venue'),
    lines,
  };
}

/** A verification link names the rfc and folio it vouches for: a mismatch is not this ticket. */
export function matchesLink(r: Receipt, link: { rfc?: string | undefined; folio?: string | undefined }): boolean {
  if (link.rfc && link.rfc.toUpperCase() !== r.rfc.toUpperCase()) return false;
  if (link.folio && link.folio !== r.folio) return false;
  return true;
}

export const REF_PATTERN = /^[A-Z0-9]{12,32}$/;
