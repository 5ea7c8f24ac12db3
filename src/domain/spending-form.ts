// The new spending / income panel (spec §2, §5, §9): its checks in the spec's order, and the
// create-ticket payload it sends (spec §3 New ticket payload, DESIGN §3 manual entries).
import { MSG } from './messages';
import { isCurrency, NATIONAL_CURRENCY } from './currency';
import {
  MANUAL_COMPANY_ID, MANUAL_EXPENSE_STATUS, MANUAL_INCOME_STATUS, TICKET_TYPE,
} from './ticket';
import { mexicoCityDate } from './mexico-time';

export const NOTE_MAX = 500;
export const ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const ATTACHMENT_EXTENSIONS = ['png', 'jpg', 'jpeg', 'pdf'] as const;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export type EntryKind = 'expense' | 'income';

export interface SpendingForm {
  kind: EntryKind;
  /** As typed, e.g. "1234.5". */
  amount: string;
  /** yyyy/mm/dd */
  date: string;
  /** Expense category id (meta_tag) or income category id (income_meta_tag), as a string. */
  category: string;
  currency: string;
  /** Amount in national currency, required when currency is not MXN. */
  nationalAmount: string;
  note: string;
}

export type SpendingField = 'amount' | 'date' | 'category' | 'currency' | 'nationalAmount' | 'note';
export interface FormProblem {
  field: SpendingField;
  message: string;
}

const AMOUNT_RE = /^\d{1,12}(\.\d{1,2})?$/;
const DATE_RE = /^(\d{4})\/(\d{2})\/(\d{2})$/;

export function isAmount(s: string): boolean {
  return AMOUNT_RE.test(s.trim());
}

/** A real calendar date in yyyy/mm/dd (month ≤ 12, day ≤ 31 and valid for the month). */
export function isDate(s: string): boolean {
  const m = DATE_RE.exec(s.trim());
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** Whether a yyyy/mm/dd date is after today in Mexico City. */
export function isFutureDate(s: string, now: Date = new Date()): boolean {
  const { year, month, day } = mexicoCityDate(now);
  const today = `${year}/${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}`;
  return s.trim() > today;
}

export function todayInput(now: Date = new Date()): string {
  const { year, month, day } = mexicoCityDate(now);
  return `${year}/${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}`;
}

/**
 * The four checks of spec §5 in order (required amount, date, category, national amount), each
 * followed by our shape checks of that field. Returns the first problem, or null.
 */
export function checkSpendingForm(f: SpendingForm, categoryIds: readonly number[], now: Date = new Date()): FormProblem | null {
  if (!f.amount.trim()) return { field: 'amount', message: MSG.amountRequired };
  if (!isAmount(f.amount)) return { field: 'amount', message: MSG.amountInvalid };
  if (!f.date.trim()) return { field: 'date', message: MSG.dateRequired };
  if (!isDate(f.date)) return { field: 'date', message: MSG.dateInvalid };
  if (isFutureDate(f.date, now)) return { field: 'date', message: MSG.dateInFuture };
  if (!f.category.trim()) return { field: 'category', message: MSG.categoryRequired };
  if (!categoryIds.includes(Number(f.category))) return { field: 'category', message: MSG.categoryUnknown };
  if (!isCurrency(f.currency)) return { field: 'currency', message: MSG.currencyInvalid };
  if (f.currency !== NATIONAL_CURRENCY) {
    if (!f.nationalAmount.trim()) return { field: 'nationalAmount', message: MSG.nationalAmountRequired };
    if (!isAmount(f.nationalAmount)) return { field: 'nationalAmount', message: MSG.amountInvalid };
  }
  if (f.note.length > NOTE_MAX) return { field: 'note', message: MSG.noteTooLong };
  return null;
}

/** Form field ids of manual entries (spec §7 Create ticket): 1 empty, 2 date, 3 amount. */
export const FIELD = { reference: 1, date: 2, amount: 3 } as const;

export interface CreateTicketPayload {
  usuario: { rfc: string; token?: string };
  company: { id: number };
  ticket: { form_configuration_id: number; value: string }[];
  additional_info: {
    ticket_id: string;
    note: string;
    latitude: number | null;
    longitude: number | null;
    meta_tag: number | null;
    income_meta_tag: number | null;
    ticket_type: number;
    ticket_status: number;
    currency: string;
    original_amount: string | null;
  };
}

/** The payload of a manual entry; the amount sent is in national currency (spec §7). */
export function manualTicketPayload(
  f: SpendingForm, rfc: string, ticketId: string, position: { latitude: number; longitude: number } | null = null,
): CreateTicketPayload {
  const foreign = f.currency !== NATIONAL_CURRENCY;
  const amount = Number(foreign ? f.nationalAmount : f.amount).toFixed(2);
  const expense = f.kind === 'expense';
  return {
    usuario: { rfc },
    company: { id: MANUAL_COMPANY_ID },
    ticket: [
      { form_configuration_id: FIELD.reference, value: '' },
      { form_configuration_id: FIELD.date, value: f.date.trim() },
      { form_configuration_id: FIELD.amount, value: amount },
    ],
    additional_info: {
      ticket_id: ticketId,
      note: f.note.trim(),
      latitude: position?.latitude ?? null,
      longitude: position?.longitude ?? null,
      meta_tag: expense ? Number(f.category) : null,
      income_meta_tag: expense ? null : Number(f.category),
      ticket_type: expense ? TICKET_TYPE.expense : TICKET_TYPE.income,
      ticket_status: expense ? MANUAL_EXPENSE_STATUS : MANUAL_INCOME_STATUS,
      currency: f.currency,
      original_amount: foreign ? Number(f.amount).toFixed(2) : null,
    },
  };
}
