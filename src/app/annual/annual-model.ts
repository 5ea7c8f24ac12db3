// The annual view's pure side (spec §2 Annual view, §7 stats): the server's monthly totals as the
// chart's series, and the paths of the year's stats and analytics.
import type { YearSeries } from '../../domain/analytics';
import { monthKey } from '../../domain/dates';

/** GET /api/v2/tickets?…&action=stats → response.stats: every month 'YYYY-MM' with its sum as a decimal string. */
export interface StatsAnswer {
  spending: { month: string; sum: string | number }[];
  income: { month: string; sum: string | number }[];
}

function monthly(list: StatsAnswer['spending'] | undefined, year: number): number[] {
  const byMonth = new Map((list ?? []).map((m) => [m.month, Number(m.sum)]));
  return Array.from({ length: 12 }, (_, i) => {
    const v = byMonth.get(monthKey(year, i + 1));
    return v !== undefined && Number.isFinite(v) ? v : 0;
  });
}

/** The 12 months of the year as the line chart's series (months the answer lacks count as 0). */
export function seriesFromStats(stats: StatsAnswer, year: number): YearSeries {
  return { spending: monthly(stats.spending, year), income: monthly(stats.income, year) };
}

/** Stats of the year (spec §7: the tickets call plus action=stats; annual uses month 12). */
export function statsPath(rfc: string, year: number): string {
  const q = new URLSearchParams();
  q.set('usuario[rfc_owner]', rfc);
  q.set('usuario[view]', 'annual');
  q.set('date[year]', String(year));
  q.set('date[month]', '12');
  q.set('action', 'stats');
  return `/api/v2/tickets?${q.toString()}`;
}

/** Spending analytics of the year against the previous one (spec §7: annual /{rfc}/{year}). */
export function analyticsPath(rfc: string, year: number): string {
  return `/api/v3/analytics/spending/${encodeURIComponent(rfc)}/${year}`;
}
