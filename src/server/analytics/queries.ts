// Spending and income totals, read from ticket_month_totals: a few rows per month that
// statement triggers on tickets keep exact (migration 0004), so a year of 50,000 tickets is summed
// from at most a few hundred rows and no ticket row ever reaches Node.
import { and, eq, gte, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, metaTags, ticketMonthTotals as totals } from '../db/schema';
import { MANUAL_COMPANY_ID } from '../../domain/ticket';

export const EXPENSE_TYPE = 2;
export const INCOME_TYPES = [3, 4] as const;
/** Category label of spending with no tag. */
export const NO_CATEGORY = 'Sin Categoría';

export interface MonthSum {
  /** 'YYYY-MM' in the Mexico City calendar. */
  month: string;
  /** Decimal string with 2 decimals, '0.00' for a month with nothing. */
  sum: string;
}

export interface MonthlyTotals {
  spending: MonthSum[];
  income: MonthSum[];
}

/** 'YYYY-MM-01': the first day of a Mexico City month, as the totals' `month` column holds it. */
const monthStart = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;

/** The 12 months of that Mexico City year, every month present (zero months as '0.00'). */
export async function monthlyTotals(db: Db, clientId: number, year: number): Promise<MonthlyTotals> {
  const incomeTypes = sql.join(INCOME_TYPES.map((t) => sql`${t}`), sql`, `);
  const rows = await db
    .select({
      month: sql<string>`to_char(${totals.month}, 'YYYY-MM')`,
      spending: sql<string>`(coalesce(sum(${totals.total}) filter (where ${totals.type} = ${EXPENSE_TYPE}), 0))::numeric(20, 2)::text`,
      income: sql<string>`(coalesce(sum(${totals.total}) filter (where ${totals.type} in (${incomeTypes})), 0))::numeric(20, 2)::text`,
    })
    .from(totals)
    .where(and(eq(totals.clientId, clientId), gte(totals.month, monthStart(year, 1)), lt(totals.month, monthStart(year + 1, 1))))
    .groupBy(totals.month);
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const label = (i: number) => `${year}-${String(i + 1).padStart(2, '0')}`;
  return {
    spending: Array.from({ length: 12 }, (_, i) => ({ month: label(i), sum: byMonth.get(label(i))?.spending ?? '0.00' })),
    income: Array.from({ length: 12 }, (_, i) => ({ month: label(i), sum: byMonth.get(label(i))?.income ?? '0.00' })),
  };
}

export interface Group {
  label: string;
  value: number;
}

export interface SpendingBreakdown {
  venues: Group[];
  categories: Group[];
}

export interface SpendingAnalytics {
  current: SpendingBreakdown;
  past: SpendingBreakdown;
}

/** [from, to) month starts of the period and of the one before it (the previous month, or the previous year). */
export function periods(year: number, month?: number): { past: { from: string; to: string }; current: { from: string; to: string } } {
  if (month === undefined) {
    return { past: { from: monthStart(year - 1, 1), to: monthStart(year, 1) }, current: { from: monthStart(year, 1), to: monthStart(year + 1, 1) } };
  }
  const past = month === 1 ? monthStart(year - 1, 12) : monthStart(year, month - 1);
  const next = month === 12 ? monthStart(year + 1, 1) : monthStart(year, month + 1);
  return { past: { from: past, to: monthStart(year, month) }, current: { from: monthStart(year, month), to: next } };
}

const byValue = (a: Group, b: Group) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/**
 * Spending (type 2) of a period and of the one before, by venue and by category: the two periods are
 * adjacent, so it is one range read of the totals grouped by GROUPING SETS ((period, venue), (period,
 * category)). Venue: the CFDI issuer's name, else the supported company's (kept so by the triggers), shown
 * as the ticket rows show it: a merchant's invoice names its legal name, and is shown (and grouped) by the
 * merchant's brand ('Autozone'), with its tickets not invoiced yet; manual entries count in the categories
 * but name no establishment, so they are left out of the venues.
 * Every group is returned, sorted by value descending; the client makes the top 5 and 'Otros'.
 */
export async function spendingAnalytics(db: Db, clientId: number, year: number, month?: number): Promise<SpendingAnalytics> {
  const { past, current } = periods(year, month);
  const category = sql<string>`coalesce(${metaTags.metaTag}, ${NO_CATEGORY})`;
  // Each merchant's brand by its legal name (its CFDI's Emisor Nombre), joined once by hash: a subquery per
  // totals row scanned the companies for every row, seconds for an account of thousands of tickets.
  const brands = db
    .selectDistinctOn([companies.legalName], { legalName: companies.legalName, name: sql<string>`${companies.name}`.as('brand') })
    .from(companies)
    .where(and(eq(companies.kind, 'merchant'), ne(companies.legalName, '')))
    .orderBy(companies.legalName, companies.id)
    .as('brands');
  const rows = await db
    .select({
      isCurrent: sql<boolean>`(${totals.month} >= ${current.from}::date)`,
      venue: sql<string | null>`coalesce(${brands.name}, ${totals.venue})`,
      category,
      value: sql<string>`round(sum(${totals.total}), 2)::text`,
      // A venue group of manual entries: their venue is the manual company's name, which names no place.
      manual: sql<boolean>`coalesce(bool_or(${totals.venue} = (select ${companies.name} from ${companies} where ${companies.id} = ${MANUAL_COMPANY_ID})), false)`,
    })
    .from(totals)
    .leftJoin(metaTags, eq(metaTags.id, totals.metaTagId))
    .leftJoin(brands, eq(brands.legalName, totals.venue))
    .where(
      and(
        eq(totals.clientId, clientId),
        gte(totals.month, past.from),
        lt(totals.month, current.to),
        eq(totals.type, EXPENSE_TYPE),
        gt(totals.tickets, 0),
      ),
    )
    .groupBy(sql`grouping sets ((1, 2), (1, 3))`);
  const out: SpendingAnalytics = { current: { venues: [], categories: [] }, past: { venues: [], categories: [] } };
  for (const r of rows) {
    const side = r.isCurrent ? out.current : out.past;
    const value = Number(r.value);
    if (r.venue !== null) {
      if (!r.manual) side.venues.push({ label: r.venue, value });
    } else if (r.category !== null) side.categories.push({ label: r.category, value });
  }
  for (const side of [out.current, out.past]) {
    side.venues.sort(byValue);
    side.categories.sort(byValue);
  }
  return out;
}
