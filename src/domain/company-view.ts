// The company expense view's rules (spec §2 'Gastos por colaborador de {month}', §4
// aprobado / rechazado, §9 top 5 + 'Otros', company CSV). Pure: the page and its tests share them.
import { donutSlices, OTHERS_LABEL, sharePercent, TOP_COUNT, type LabelValue } from './analytics';
import type { CompanyStats } from './company';
import { monthTitle } from './dates';
import { roundCents } from './money';
import { statusDisplay, type Ticket, type TicketReview } from './ticket';

/** Spec §2, verbatim: 'Gastos por colaborador de {month}' (the month's name, capitalised). */
export function companyViewTitle(month: number): string {
  return `Gastos por colaborador de ${monthTitle(month)}`;
}

/** The review a ticket shows: the server's `review`, else what its status says (no reason known). */
export function reviewOf(t: Pick<Ticket, 'ticket_status_name'> & { review?: TicketReview | null }): TicketReview | null {
  if (t.review) return t.review;
  const s = statusDisplay(t.ticket_status_name);
  if (s === 'approved') return { decision: 'aprobado', reason: null };
  if (s === 'rejected') return { decision: 'rechazado', reason: null };
  return null;
}

/** The 12 bars of approved spending of the year. */
export function monthlyBars(stats: Pick<CompanyStats, 'monthly'>): { month: number; label: string; value: number }[] {
  return Array.from({ length: 12 }, (_, i) => {
    const found = stats.monthly.find((m) => Number(m.month.slice(5, 7)) === i + 1);
    return { month: i + 1, label: monthTitle(i + 1).slice(0, 3), value: found ? found.sum : 0 };
  });
}

/** The month's approved total (the monthly bar of that month). */
export function monthTotal(stats: Pick<CompanyStats, 'monthly'>, month: number): number {
  return monthlyBars(stats)[month - 1]?.value ?? 0;
}

/** Departments' donut: top 5 plus 'Otros' (tickets with no department are already 'Otros' from the server). */
export function departmentSlices(stats: Pick<CompanyStats, 'departments'>): LabelValue[] {
  const merged = new Map<string, number>();
  for (const d of stats.departments) merged.set(d.label, roundCents((merged.get(d.label) ?? 0) + d.value));
  return donutSlices([...merged].map(([label, value]) => ({ label, value })));
}

/**
 * Categories' donut: the server sends the top 5 categories; the rest of the month's approved total
 * becomes one 'Otros' slice (spec §9), omitted when nothing is left.
 */
export function categorySlices(stats: Pick<CompanyStats, 'categories'>, total: number): LabelValue[] {
  const top = donutSlices(stats.categories).slice(0, TOP_COUNT);
  const rest = roundCents(total - top.reduce((s, c) => s + c.value, 0));
  return rest > 0.004 ? [...top, { label: OTHERS_LABEL, value: rest }] : top;
}

/** A top-5 list with each item's share of the month's approved total (percent, 2 decimals). */
export function topList(groups: readonly LabelValue[], total: number): (LabelValue & { share: number })[] {
  return groups.slice(0, TOP_COUNT).map((g) => ({ ...g, share: sharePercent(g.value, total) }));
}

/** Select-all in the manager's table: every listed ticket can be approved or rejected. */
export function toggleAll(selected: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  return all ? new Set() : new Set(ids);
}

/** One review request names at most this many tickets (the server refuses more; the page sends batches). */
export const REVIEW_MAX_TICKETS = 5000;

/** Ids in batches of at most `size`, in order. */
export function batches<T>(ids: readonly T[], size = REVIEW_MAX_TICKETS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/**
 * The line above a list whose page is wholly selected (as mail apps do): offer the whole month when it
 * has more tickets than the page; once taken, say so and offer to clear it.
 */
export type MonthSelection = { kind: 'none' } | { kind: 'offer'; text: string; action: string } | { kind: 'whole'; text: string; action: string };

export function monthSelection(selected: ReadonlySet<string>, pageIds: readonly string[], total: number, wholeMonth: boolean): MonthSelection {
  if (wholeMonth) {
    const text = selected.size === total ? `Se seleccionaron los ${total} comprobantes del mes.` : `Se seleccionaron ${selected.size} de los ${total} comprobantes del mes.`;
    return { kind: 'whole', text, action: 'Quitar la selección' };
  }
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  if (!pageSelected || total <= pageIds.length) return { kind: 'none' };
  return { kind: 'offer', text: `Se seleccionaron los ${pageIds.length} comprobantes de esta página.`, action: `Seleccionar los ${total} comprobantes del mes` };
}

/** Keeps only the selected ids still listed (after a reload or a month change). */
export function keepListed(selected: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const listed = new Set(ids);
  return new Set([...selected].filter((id) => listed.has(id)));
}
