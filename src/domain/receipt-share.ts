// Sharing and downloading CFDI (spec §5 downloads and sharing, §7 send receipts by email / receipts
// archive): one set of rules for the 'Compartir' modal and the server. The modal's summary keeps spending
// and income apart (a sum of both means nothing), with credit notes subtracting, in exact cents.
import * as v from 'valibot';
import { formatCents } from './decimal';
import { isValidEmail, normalizeEmail } from './email';
import { MSG } from './messages';
import { formatMoney } from './money';
import { countsNoMoney, reportCents, type Counted } from './report-amounts';
import { isIncome, type Ticket } from './ticket';

/** Attachments are two files a receipt (PDF + XML, ~60 KB): 50 keeps a message under most servers' 10 MB. */
export const SHARE_MAX_RECEIPTS = 50;
export const SHARE_MESSAGE_MAX = 1000;
/** A query string of 500 UUIDs is ~26 KB: the server accepts request heads up to 64 KB. */
export const ARCHIVE_MAX_TICKETS = 500;

export interface ShareForm {
  email: string;
  message: string;
}

/** The first problem of the form, in the order the modal shows them, or null. */
export function checkShareForm(form: ShareForm, receiptCount: number): string | null {
  const email = form.email.trim();
  if (!email) return MSG.shareEmailRequired;
  if (!isValidEmail(email)) return MSG.emailInvalid;
  if (form.message.length > SHARE_MESSAGE_MAX) return MSG.shareMessageTooLong;
  if (receiptCount === 0) return MSG.archiveNoReceipts;
  if (receiptCount > SHARE_MAX_RECEIPTS) return MSG.shareTooMany;
  return null;
}

/** The tickets that count: those with a receipt (others in the selection are left out, spec §5). */
export function withReceipts<T extends { receipt: unknown }>(tickets: readonly T[]): T[] {
  return tickets.filter((t) => t.receipt !== null && t.receipt !== undefined);
}

/** The selection's money, each side apart: counts and exact totals ("1234.50"); credit notes subtract. */
export interface ShareTotals {
  spending: { count: number; total: string };
  income: { count: number; total: string };
  /** Payment complements, traslados and cancelled CFDI: shared, but they add no amount. */
  noMoney: number;
}

export function shareTotals(tickets: readonly (Counted & Pick<Ticket, 'ticket_type_id'>)[]): ShareTotals {
  const side = { spending: { count: 0, cents: 0n }, income: { count: 0, cents: 0n } };
  let noMoney = 0;
  for (const t of tickets) {
    if (countsNoMoney(t)) {
      noMoney++;
      continue;
    }
    const s = isIncome(t) ? side.income : side.spending;
    s.count++;
    s.cents += reportCents(t) ?? 0n;
  }
  return {
    spending: { count: side.spending.count, total: formatCents(side.spending.cents) },
    income: { count: side.income.count, total: formatCents(side.income.cents) },
    noMoney,
  };
}

/** The modal's summary: how many receipts, then one line per side that has any ('Gastos: $1,000.00 (2)'). */
export function shareSummary(count: number, totals: ShareTotals): { heading: string; lines: { label: string; value: string }[]; note: string | null } {
  const lines: { label: string; value: string }[] = [];
  const line = (label: string, s: { count: number; total: string }) => {
    if (s.count > 0) lines.push({ label, value: `${formatMoney(s.total)} (${s.count === 1 ? '1 factura' : `${s.count} facturas`})` });
  };
  line('Gastos', totals.spending);
  line('Ingresos', totals.income);
  const n = totals.noMoney;
  const note = n === 0 ? null : n === 1 ? '1 comprobante sin importe (pago, traslado o cancelado) no suma en los totales.' : `${n} comprobantes sin importe (pagos, traslados o cancelados) no suman en los totales.`;
  return { heading: count === 1 ? '1 factura seleccionada' : `${count} facturas seleccionadas`, lines, note };
}

/**
 * The totals in a sentence for the e-mail: 'gastos por $1,234.50 e ingresos por $500.00' (each side only
 * when it has receipts); null when no receipt carries an amount.
 */
export function shareTotalsText(totals: ShareTotals): string | null {
  const parts: string[] = [];
  if (totals.spending.count > 0) parts.push(`gastos por ${formatMoney(totals.spending.total)}`);
  if (totals.income.count > 0) parts.push(`ingresos por ${formatMoney(totals.income.total)}`);
  // 'y' becomes 'e' before a word that starts with an i sound: 'gastos … e ingresos …'.
  return parts.length === 0 ? null : parts.join(' e ');
}

const ticketId = v.pipe(v.string(MSG.ticketNotFound), v.uuid(MSG.ticketNotFound));
/** Header-safe text: no line breaks (they would end up in a mail header), trimmed. */
const oneLine = (max: number) => v.pipe(v.string(), v.transform((s) => s.replace(/[\r\n\t]+/g, ' ').trim().slice(0, max)));

/** POST /api/v2/send_receipt_email (spec §7): user.token, email.email, tickets[{ticket_id}], from{name,message}. */
export const ShareReceiptsBody = v.object({
  email: v.object(
    {
      email: v.pipe(
        v.string(MSG.shareEmailRequired),
        v.trim(),
        v.minLength(1, MSG.shareEmailRequired),
        v.check(isValidEmail, MSG.emailInvalid),
        v.transform(normalizeEmail),
      ),
    },
    MSG.shareEmailRequired,
  ),
  tickets: v.pipe(
    v.array(v.object({ ticket_id: ticketId }), MSG.archiveNoReceipts),
    v.minLength(1, MSG.archiveNoReceipts),
    v.maxLength(SHARE_MAX_RECEIPTS, MSG.shareTooMany),
  ),
  from: v.optional(
    v.object({
      name: v.optional(oneLine(100), ''),
      message: v.optional(v.pipe(v.string(), v.maxLength(SHARE_MESSAGE_MAX, MSG.shareMessageTooLong)), ''),
    }),
    {},
  ),
});
export type ShareReceiptsBody = v.InferOutput<typeof ShareReceiptsBody>;

/** ?tickets[]=… of GET /api/v3/receipts/archive. */
export const ArchiveQuery = v.object({
  tickets: v.pipe(
    v.union([v.array(ticketId), v.pipe(ticketId, v.transform((id) => [id]))], MSG.archiveNoReceipts),
    v.minLength(1, MSG.archiveNoReceipts),
    v.maxLength(ARCHIVE_MAX_TICKETS, MSG.archiveTooMany),
  ),
});
