// Spending summaries (spec §2 summary card and annual view, §9): top 5 plus 'Otros', change against
// the previous period, and the year's balance. The server sends every group; the screens use these.
import { UNCATEGORIZED_LABEL } from './categories';
import { CFDI_COMPANY_SHORT_NAME, INCOME_TYPES, MANUAL_COMPANY_SHORT_NAME, TICKET_TYPE } from './ticket';
import { roundCents } from './money';

export interface LabelValue {
  label: string;
  value: number;
}

export const TOP_COUNT = 5;
export const OTHERS_LABEL = 'Otros';
/** The donut's 7 colours (spec §9), told apart by people with colour-vision deficiency (Okabe–Ito). */
export const DONUT_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7A7A7A'] as const;

function byValueDesc(a: LabelValue, b: LabelValue): number {
  return b.value - a.value || a.label.localeCompare(b.label, 'es');
}

/** The donut: at most 5 groups plus one 'Otros' slice summing the rest (omitted when empty). */
export function donutSlices(groups: readonly LabelValue[]): LabelValue[] {
  const sorted = groups.filter((g) => g.value > 0).sort(byValueDesc);
  const top = sorted.slice(0, TOP_COUNT);
  const rest = roundCents(sorted.slice(TOP_COUNT).reduce((s, g) => s + g.value, 0));
  return rest > 0 ? [...top, { label: OTHERS_LABEL, value: rest }] : top;
}

export type Trend = 'up' | 'down' | 'flat';

export interface TopItem extends LabelValue {
  /** Share of the period's total, percent with 2 decimals (the share bar). */
  share: number;
  /** Change against the previous period, percent with 2 decimals (always ≥ 0; see trend). */
  change: number;
  trend: Trend;
}

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

/**
 * Percent change against the previous period (spec §9): rounded to 2 decimals, and 100% up when
 * there was no previous value.
 */
export function percentChange(current: number, previous: number | undefined): { change: number; trend: Trend } {
  if (!previous) return current > 0 ? { change: 100, trend: 'up' } : { change: 0, trend: 'flat' };
  const pct = round2(((current - previous) / previous) * 100);
  if (pct === 0) return { change: 0, trend: 'flat' };
  return { change: Math.abs(pct), trend: pct > 0 ? 'up' : 'down' };
}

/** Top 5 of a period with share and change against the same label in the previous period. */
export function topItems(current: readonly LabelValue[], past: readonly LabelValue[]): TopItem[] {
  const total = current.reduce((s, g) => s + g.value, 0);
  const before = new Map(past.map((g) => [g.label, g.value]));
  return [...current]
    .filter((g) => g.value > 0)
    .sort(byValueDesc)
    .slice(0, TOP_COUNT)
    .map((g) => ({ ...g, share: total > 0 ? round2((g.value / total) * 100) : 0, ...percentChange(g.value, before.get(g.label)) }));
}

/** Income = types 3 and 4, expenses = type 2, balance = income − expenses (spec §9). */
export function balance(tickets: readonly { ticket_type_id: number; amount: string | number }[]): { income: number; expenses: number; balance: number } {
  let income = 0;
  let expenses = 0;
  for (const t of tickets) {
    const amount = Number(t.amount);
    if (INCOME_TYPES.includes(t.ticket_type_id)) income += amount;
    else if (t.ticket_type_id === TICKET_TYPE.expense) expenses += amount;
  }
  return { income: roundCents(income), expenses: roundCents(expenses), balance: roundCents(income - expenses) };
}

/** Whole cents of a decimal amount: sums of cents stay exact, as the server's numeric sums are. */
function cents(amount: string | number): number {
  const n = Math.round(Number(amount) * 100);
  return Number.isFinite(n) ? n : 0;
}

/** Share of a total, percent with 2 decimals (0 when the total is 0). */
export function sharePercent(value: number, total: number): number {
  return total > 0 ? round2((value / total) * 100) : 0;
}

/**
 * The establishment a spending counts under (analytics by venue): a merchant's brand ('Autozone', its
 * company's name) as the ticket rows show it, not the legal name on its CFDI; else the CFDI's issuer when
 * the ticket has one, else its supported company's name; null for a manual entry without a CFDI, which
 * names no place ('Principales establecimientos' leaves it out). The server's SQL groups by the same rule.
 */
export function venueLabel(t: { receipt: { name_issuer: string } | null; company_short_name: string }, companyName: string): string | null {
  const merchant = t.company_short_name !== MANUAL_COMPANY_SHORT_NAME && t.company_short_name !== CFDI_COMPANY_SHORT_NAME;
  if (merchant && companyName) return companyName;
  if (t.receipt?.name_issuer) return t.receipt.name_issuer;
  return t.company_short_name === MANUAL_COMPANY_SHORT_NAME ? null : companyName;
}

export interface SpendingBreakdown {
  venues: LabelValue[];
  categories: LabelValue[];
}

function sortedGroups(sums: Map<string, number>): LabelValue[] {
  return [...sums].map(([label, c]) => ({ label, value: c / 100 })).sort(byValueDesc);
}

/**
 * Spending (type 2) by venue and by category, grouped as the analytics endpoint groups it: the
 * category is the first tag, else 'Sin Categoría'; a spending without a venue (venueOf gives null)
 * counts in its category only. Lets a screen show the breakdown from the
 * device's tickets when the server cannot answer (offline).
 */
export function spendingBreakdown<T extends { ticket_type_id: number; amount: string | number; tags: readonly { tag_name: string }[] }>(
  tickets: Iterable<T>,
  venueOf: (t: T) => string | null,
): SpendingBreakdown {
  const venues = new Map<string, number>();
  const categories = new Map<string, number>();
  for (const t of tickets) {
    if (t.ticket_type_id !== TICKET_TYPE.expense) continue;
    const c = cents(t.amount);
    const venue = venueOf(t);
    const category = t.tags[0]?.tag_name ?? UNCATEGORIZED_LABEL;
    if (venue !== null) venues.set(venue, (venues.get(venue) ?? 0) + c);
    categories.set(category, (categories.get(category) ?? 0) + c);
  }
  return { venues: sortedGroups(venues), categories: sortedGroups(categories) };
}

/** Monthly spending and income of one year: index 0 is January (spec §3 monthly totals). */
export interface YearSeries {
  spending: number[];
  income: number[];
}

/** The 12 monthly totals of `year` from tickets carrying their 'YYYY-MM' month; other years are ignored. */
export function yearSeries(tickets: Iterable<{ ticket_type_id: number; amount: string | number; month: string }>, year: number): YearSeries {
  const spending = new Array<number>(12).fill(0);
  const income = new Array<number>(12).fill(0);
  const prefix = `${year}-`;
  for (const t of tickets) {
    if (!t.month.startsWith(prefix)) continue;
    const i = Number(t.month.slice(prefix.length)) - 1;
    if (!(i >= 0 && i < 12)) continue;
    if (t.ticket_type_id === TICKET_TYPE.expense) spending[i]! += cents(t.amount);
    else if (INCOME_TYPES.includes(t.ticket_type_id)) income[i]! += cents(t.amount);
  }
  return { spending: spending.map((c) => c / 100), income: income.map((c) => c / 100) };
}

/** The year's Ingresos, Gastos and Balance from its monthly series (spec §9: balance = income − expenses). */
export function seriesBalance(series: YearSeries): { income: number; expenses: number; balance: number } {
  const income = series.income.reduce((s, v) => s + cents(v), 0);
  const expenses = series.spending.reduce((s, v) => s + cents(v), 0);
  return { income: income / 100, expenses: expenses / 100, balance: (income - expenses) / 100 };
}
