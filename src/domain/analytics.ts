// Spending summaries (spec §2 summary card and annual view, §9): top 5 plus 'Otros', change against
// the previous period, and the year's balance. The server sends every group; the screens use these.
import { INCOME_TYPES, TICKET_TYPE } from './ticket';
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
