// The ticket list's pure logic (spec §2 Dashboard, §4 row selection, §9 page size): search, paging,
// selection and the row model shared by the desktop table and the phone cards, on the dashboard, the
// annual view and the company view.
import { displayDate, MONTH_NAMES } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { UNCATEGORIZED_LABEL } from '../../domain/categories';
import {
  CFDI_COMPANY_SHORT_NAME, isIncome, isSelectable, MANUAL_COMPANY_SHORT_NAME, receiptParty, STATUS_LABELS, statusDisplay,
  type StatusDisplay, type Ticket,
} from '../../domain/ticket';
import { isConversionNote } from '../../domain/currency';
import type { TicketInvoice } from '../../domain/invoicing';
import type { FileTarget } from '../../domain/file-links';
import { invoicePath, type InvoicePathView } from './invoice-path-model';
import { reviewOf } from '../../domain/company-view';
import type { TicketReview } from '../../domain/ticket';
import { badgeLabel, cfdiRowInfo, cfdiView, signedAmount, type CfdiRowInfo, type CfdiView } from '../../domain/cfdi-label';

const badgeText = (info: CfdiRowInfo): string => (info.badge ? badgeLabel(info.badge) : '');

export const PAGE_SIZE = 10;

/** Lowercase without accents, so "credito" finds "Crédito". */
export function normalize(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

export interface NameLookups {
  /** short_name → display name (GET /company/all.json). */
  companies: ReadonlyMap<string, string>;
  /** income category id → name. */
  incomeCategories: ReadonlyMap<number, string>;
}

export const MANUAL_ORIGIN = 'Registro manual';

export function originName(shortName: string, companies: ReadonlyMap<string, string>): string {
  return companies.get(shortName) ?? (shortName === MANUAL_COMPANY_SHORT_NAME ? MANUAL_ORIGIN : shortName);
}

/** The category shown: the first tag for expenses (spec §3), the income category for income. */
export function categoryLabel(t: Ticket, incomeCategories: ReadonlyMap<number, string>): string {
  if (isIncome(t)) {
    return t.income_meta_tag_id === null ? UNCATEGORIZED_LABEL : (incomeCategories.get(t.income_meta_tag_id) ?? UNCATEGORIZED_LABEL);
  }
  return t.tags[0]?.tag_name ?? UNCATEGORIZED_LABEL;
}

/**
 * A manual entry says what it was: its note's first line, else its category ('Registro manual' says
 * nothing a list of manual entries can be told apart by). The note we wrote for a foreign amount
 * ('12.50 USD al tipo de cambio 17.25') is already beside the amount, so the category serves better.
 */
export function manualTitle(t: Ticket, incomeCategories: ReadonlyMap<number, string>): string {
  const line = t.note.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  if (line && !isConversionNote(line)) return line;
  const category = categoryLabel(t, incomeCategories);
  return category === UNCATEGORIZED_LABEL ? MANUAL_ORIGIN : category;
}

/** A merchant's brand ('Autozone') as the catalog names it, for tickets of a merchant we invoice for. */
function merchantBrand(t: Ticket, companies: ReadonlyMap<string, string>): string | null {
  const short = t.company_short_name;
  if (short === MANUAL_COMPANY_SHORT_NAME || short === CFDI_COMPANY_SHORT_NAME) return null;
  return companies.get(short) || null;
}

/**
 * The row's title (the origin column): a manual entry's note or category; a merchant's brand rather than
 * the legal name on its invoice; else the CFDI's other party by name; else the supported company.
 */
export function originOf(t: Ticket, companies: ReadonlyMap<string, string>, incomeCategories: ReadonlyMap<number, string> = new Map()): string {
  if (t.company_short_name === MANUAL_COMPANY_SHORT_NAME && !t.receipt) return manualTitle(t, incomeCategories);
  return merchantBrand(t, companies) ?? receiptParty(t) ?? originName(t.company_short_name, companies);
}

/** Search matches origin, ticket number, category, note, amount (as typed or as shown) and what the CFDI is ('nota de crédito'). */
export function matchesSearch(t: Ticket, query: string, lookups: NameLookups): boolean {
  const q = normalize(query);
  if (!q) return true;
  const amount = Number(t.amount);
  const haystack = [
    originOf(t, lookups.companies, lookups.incomeCategories),
    originName(t.company_short_name, lookups.companies),
    t.receipt?.name_issuer ?? '',
    t.company_short_name,
    t.ticket_number,
    categoryLabel(t, lookups.incomeCategories),
    t.note,
    t.amount,
    Number.isFinite(amount) ? formatMoney(amount) : '',
    badgeText(cfdiRowInfo(t)),
  ]
    .map(normalize)
    .join('\n');
  return haystack.includes(q);
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** Keeps a page number inside 1..pageCount (e.g. after a search shrinks the list). */
export function clampPage(page: number, total: number): number {
  return Math.min(Math.max(1, Math.floor(page)), pageCount(total));
}

export function pageLabel(page: number, total: number): string {
  return `Página ${clampPage(page, total)} de ${pageCount(total)}`;
}

/** Items of one page from an already sorted and filtered list. */
export function pageSlice<T>(items: readonly T[], page: number): T[] {
  const start = (clampPage(page, items.length) - 1) * PAGE_SIZE;
  return items.slice(start, start + PAGE_SIZE);
}

export function emptyMonthText(month: number): string {
  return `Aún no hay movimientos en ${MONTH_NAMES[month - 1] ?? ''}. Agrega tu primer gasto.`;
}

export function noMatchesText(query: string): string {
  return `Ningún movimiento coincide con “${query.trim()}”.`;
}

export interface RowLinks {
  pdf: FileTarget | null;
  xml: FileTarget | null;
  image: FileTarget | null;
}

/**
 * The files a row can open: the receipt's PDF and XML and the ticket image. No URL here: on click the app
 * asks for a short-lived signed link to that one file, so the session token never goes in a URL (DESIGN §3).
 */
export function rowLinks(t: Ticket): RowLinks {
  const receiptId = t.receipt?.receipt_id ?? null;
  return {
    pdf: receiptId ? { kind: 'receipt_pdf', id: receiptId } : null,
    xml: receiptId ? { kind: 'receipt_xml', id: receiptId } : null,
    image: t.include_ticket_image ? { kind: 'ticket_image', id: t.ticket_id } : null,
  };
}

export interface TicketRow {
  id: string;
  date: string;
  origin: string;
  number: string;
  /** Which list the category select offers. */
  categoryKind: 'expense' | 'income';
  /** The select's value: expense tag id or income category id, '' when none. */
  categoryValue: string;
  categoryLabel: string;
  amount: string;
  /** The amount as the row shows it: signed ('+$120.50' income, '-$1,234.00' a credit note), or 'Sin monto'. */
  shownAmount: string;
  income: boolean;
  paymentMethod: string;
  note: string;
  status: StatusDisplay;
  statusLabel: string;
  /** Not yet on the server (a clock badge, 'Pendiente de envío'). */
  pendingSync: boolean;
  /** SAT reports the CFDI as cancelled (a red 'Cancelada en el SAT' badge). */
  satCancelled: boolean;
  /** The company manager's approval or rejection, with the rejection's reason. */
  review: TicketReview | null;
  /** The invoice request's path ('Where is my invoice?'), null when none was requested. */
  invoice: InvoicePathView | null;
  selectable: boolean;
  links: RowLinks;
  /** What the CFDI means on the row: its one badge, a seal alarm, the findings marker, a short detail. */
  cfdi: CfdiRowInfo;
  /** The CFDI view's content; null without a CFDI. */
  cfdiView: CfdiView | null;
}

export function ticketRow(t: Ticket & { syncState?: string; invoice?: TicketInvoice | null }, lookups: NameLookups): TicketRow {
  const income = isIncome(t);
  const status = statusDisplay(t.ticket_status_name);
  const tag = t.tags[0];
  const cfdi = cfdiRowInfo(t);
  return {
    id: t.ticket_id,
    date: displayDate(t.received_at),
    origin: originOf(t, lookups.companies, lookups.incomeCategories),
    number: t.ticket_number,
    categoryKind: income ? 'income' : 'expense',
    categoryValue: income ? (t.income_meta_tag_id === null ? '' : String(t.income_meta_tag_id)) : tag ? String(tag.tag_id) : '',
    categoryLabel: categoryLabel(t, lookups.incomeCategories),
    amount: formatMoney(t.amount),
    shownAmount: cfdi.noAmount ? '—' : signedAmount(t.amount, income),
    income,
    paymentMethod: t.receipt?.metodo_pago || '—',
    note: t.note,
    status,
    statusLabel: STATUS_LABELS[status],
    pendingSync: t.syncState === 'pending',
    satCancelled: t.receipt?.sat_status === 'Cancelado',
    review: reviewOf(t),
    invoice: invoicePath(t.invoice),
    selectable: isSelectable(t),
    links: rowLinks(t),
    cfdi,
    cfdiView: cfdiView({ ...t, income }),
  };
}

/** Select-all state of the header checkbox over the selectable filtered rows. */
export function selectAllState(selected: ReadonlySet<string>, selectableIds: readonly string[]): 'none' | 'some' | 'all' {
  if (selectableIds.length === 0) return 'none';
  const n = selectableIds.filter((id) => selected.has(id)).length;
  return n === 0 ? 'none' : n === selectableIds.length ? 'all' : 'some';
}

export type SelectionAction =
  | { type: 'toggle'; id: string; selectable: boolean }
  | { type: 'toggle-all'; selectableIds: readonly string[] }
  | { type: 'reset' };

/** Selection rules of spec §4: only selectable rows; select-all toggles the selectable filtered rows. */
export function selectionReducer(state: ReadonlySet<string>, action: SelectionAction): ReadonlySet<string> {
  switch (action.type) {
    case 'toggle': {
      if (!action.selectable) return state;
      const next = new Set(state);
      if (next.has(action.id)) next.delete(action.id);
      else next.add(action.id);
      return next;
    }
    case 'toggle-all':
      return selectAllState(state, action.selectableIds) === 'all' ? new Set() : new Set(action.selectableIds);
    case 'reset':
      return state.size === 0 ? state : new Set();
  }
}
