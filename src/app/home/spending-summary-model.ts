// The dashboard's spending summary (spec §2, §9): the analytics answer turned into the two top-5
// lists, with the words a screen reader says for the change arrows.
import { topItems, type LabelValue, type TopItem, type Trend } from '../../domain/analytics';

interface Breakdown {
  venues: LabelValue[];
  categories: LabelValue[];
}

/** GET /api/v3/analytics/spending/{rfc}/{year}/{month} → response. */
export interface SpendingAnswer {
  current: Breakdown;
  past: Breakdown;
}

export interface SpendingSummary {
  categories: TopItem[];
  venues: TopItem[];
}

function groups(list: readonly LabelValue[] | undefined): LabelValue[] {
  return (list ?? []).map((g) => ({ label: String(g.label), value: Number(g.value) })).filter((g) => Number.isFinite(g.value));
}

/** The two top-5 lists, or null when the month has no spending ('No hay datos'). */
export function spendingSummary(answer: SpendingAnswer): SpendingSummary | null {
  const categories = topItems(groups(answer.current?.categories), groups(answer.past?.categories));
  const venues = topItems(groups(answer.current?.venues), groups(answer.past?.venues));
  return categories.length === 0 && venues.length === 0 ? null : { categories, venues };
}

export const TREND: Record<Trend, { arrow: string; words: string }> = {
  up: { arrow: '▲', words: 'sube' },
  down: { arrow: '▼', words: 'baja' },
  flat: { arrow: '=', words: 'sin cambio' },
};

const PERCENT = new Intl.NumberFormat('es-MX', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** "12.35 %" (spec §9: percentages rounded to 2 decimals). */
export function percentText(n: number): string {
  return `${PERCENT.format(n)} %`;
}
