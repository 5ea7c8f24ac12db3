// The spending summary (spec §2 dashboard card and annual view, §9): the analytics answer (or the
// same groups computed on the device) turned into the donut and the two top-5 lists, with the words
// a screen reader says for the change arrows.
import { donutSlices, topItems, type LabelValue, type SpendingBreakdown, type TopItem, type Trend } from '../../domain/analytics';

export { percentText } from '../charts/chart-model';

/** GET /api/v3/analytics/spending/{rfc}/{year}/{month} (annual: /{rfc}/{year}) → response. */
export interface SpendingAnswer {
  current: SpendingBreakdown;
  past: SpendingBreakdown;
}

export interface SpendingSummary {
  /** Top 5 plus 'Otros' of the period's categories. */
  donut: LabelValue[];
  categories: TopItem[];
  venues: TopItem[];
  /** False when the previous period is unknown (the device never saw it): the change is not shown. */
  hasPast: boolean;
}

function groups(list: readonly LabelValue[] | undefined): LabelValue[] {
  return (list ?? []).map((g) => ({ label: String(g.label), value: Number(g.value) })).filter((g) => Number.isFinite(g.value));
}

/** The donut and the two top-5 lists, or null when the period has no spending ('No hay datos'). */
export function spendingSummary(answer: { current: SpendingBreakdown; past: SpendingBreakdown | null }): SpendingSummary | null {
  const current = { categories: groups(answer.current?.categories), venues: groups(answer.current?.venues) };
  const past = answer.past ? { categories: groups(answer.past.categories), venues: groups(answer.past.venues) } : { categories: [], venues: [] };
  const categories = topItems(current.categories, past.categories);
  const venues = topItems(current.venues, past.venues);
  if (categories.length === 0 && venues.length === 0) return null;
  return { donut: donutSlices(current.categories), categories, venues, hasPast: answer.past !== null };
}

export const TREND: Record<Trend, { arrow: string; words: string }> = {
  up: { arrow: '▲', words: 'sube' },
  down: { arrow: '▼', words: 'baja' },
  flat: { arrow: '=', words: 'sin cambio' },
};

/** What a change is measured against, for screen readers: 'respecto al mes anterior' (al, never 'a el'). */
export function changeAgainst(period: 'month' | 'year'): string {
  return period === 'month' ? 'respecto al mes anterior' : 'respecto al año anterior';
}
