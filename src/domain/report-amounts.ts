// What a ticket adds to a report's totals (the CSV reports and Compartir), as SAT means each CFDI type
// (DESIGN §5): a credit note (tipo E) subtracts, a payment complement (P) or a traslado (T) is a
// document with no money of its own, and a cancelled CFDI no longer counts. Sums are exact cents
// (decimal.ts): a report's total must match the sum of its rows to the cent.
import { formatCents, toCents } from './decimal';
import type { Receipt, Ticket } from './ticket';

/** What of a ticket's receipt decides how it counts (the server's share e-mail reads only these). */
export type CountedReceipt = Pick<Receipt, 'tipo' | 'cancel_status' | 'sat_status'>;
/** A ticket as far as its report amount goes. */
export type Counted = Pick<Ticket, 'amount'> & { receipt: CountedReceipt | null };

/**
 * A document that moves no money: a payment complement (its invoice already counted), a traslado,
 * or a CFDI cancelled through our PAC or found cancelled at SAT.
 */
export function countsNoMoney(t: { receipt: CountedReceipt | null }): boolean {
  const r = t.receipt;
  if (!r) return false;
  return r.tipo === 'P' || r.tipo === 'T' || r.cancel_status === 'cancelada' || r.sat_status === 'Cancelado';
}

/** A credit note (CFDI tipo E): it lowers what its related invoice counted. */
export function isCreditNote(t: { receipt: CountedReceipt | null }): boolean {
  return t.receipt?.tipo === 'E';
}

/**
 * The ticket's amount in whole cents as it counts in a report: negative for a credit note (the server
 * already sends it negative; an older or hostile positive one is turned), 0 for a document that moves no
 * money, null when the amount is not a decimal at all.
 */
export function reportCents(t: Counted): bigint | null {
  if (countsNoMoney(t)) return 0n;
  const cents = toCents(String(t.amount ?? ''));
  if (cents === null) return null;
  if (isCreditNote(t) && cents > 0n) return -cents;
  return cents;
}

/** The exact sum of the tickets' report amounts, as a two-decimal string ("-12.30"); unreadable amounts add 0. */
export function reportTotal(tickets: readonly Counted[]): string {
  return formatCents(tickets.reduce((sum, t) => sum + (reportCents(t) ?? 0n), 0n));
}
