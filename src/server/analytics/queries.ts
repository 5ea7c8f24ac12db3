// Spending and income totals in SQL (issue 4): each query is one range scan on the (client_id,
// received_at) index with the Mexico City calendar bounds computed in Node, so no tz data is needed in
// the database and no ticket rows ever reach Node — only one row per month or per group.
import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, metaTags, tickets } from '../db/schema';
import { mexicoCityMidnight, monthRange, yearRange } from '../tickets/mexico-time';

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

const isoParam = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The 12 months of that Mexico City year, every month present (zero months as '0.00'). */
export async function monthlyTotals(db: Db, clientId: number, year: number): Promise<MonthlyTotals> {
  const bounds = Array.from({ length: 13 }, (_, i) => mexicoCityMidnight(year, i + 1, 1));
  const thresholds = sql`ARRAY[${sql.join(bounds.map(isoParam), sql`, `)}]`;
  const rows = await db
    .select({
      bucket: sql<number>`width_bucket(${tickets.receivedAt}, ${thresholds})`.mapWith(Number),
      spending: sql<string>`(coalesce(sum(${tickets.amount}) filter (where ${tickets.type} = ${EXPENSE_TYPE}), 0))::numeric(20, 2)::text`,
      income: sql<string>`(coalesce(sum(${tickets.amount}) filter (where ${tickets.type} in (${sql.join(
        INCOME_TYPES.map((t) => sql`${t}`),
        sql`, `,
      )})), 0))::numeric(20, 2)::text`,
    })
    .from(tickets)
    .where(and(eq(tickets.clientId, clientId), gte(tickets.receivedAt, bounds[0] as Date), lt(tickets.receivedAt, bounds[12] as Date), isNull(tickets.deletedAt)))
    .groupBy(sql`1`);
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  const label = (i: number) => `${year}-${String(i + 1).padStart(2, '0')}`;
  return {
    spending: Array.from({ length: 12 }, (_, i) => ({ month: label(i), sum: byBucket.get(i + 1)?.spending ?? '0.00' })),
    income: Array.from({ length: 12 }, (_, i) => ({ month: label(i), sum: byBucket.get(i + 1)?.income ?? '0.00' })),
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

/** [from, to) of the period and of the one before it (the previous month, or the previous year). */
export function periods(year: number, month?: number): { past: { from: Date; to: Date }; current: { from: Date; to: Date } } {
  if (month === undefined) return { past: yearRange(year - 1), current: yearRange(year) };
  const past = month === 1 ? monthRange(year - 1, 12) : monthRange(year, month - 1);
  return { past, current: monthRange(year, month) };
}

const byValue = (a: Group, b: Group) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/**
 * Spending (type 2) of a period and of the one before, by venue and by category: the two periods are
 * adjacent, so it is one range scan grouped by GROUPING SETS ((period, venue), (period, category)).
 * Every group is returned, sorted by value descending; the client makes the top 5 and 'Otros'.
 */
export async function spendingAnalytics(db: Db, clientId: number, year: number, month?: number): Promise<SpendingAnalytics> {
  const { past, current } = periods(year, month);
  // Issue 5: the receipt's issuer name comes first here when the ticket has a receipt.
  const venue = sql<string>`${companies.name}`;
  const category = sql<string>`coalesce(${metaTags.metaTag}, ${NO_CATEGORY})`;
  const rows = await db
    .select({
      isCurrent: sql<boolean>`(${tickets.receivedAt} >= ${isoParam(current.from)})`,
      venue,
      category,
      value: sql<string>`round(sum(${tickets.amount}), 2)::text`,
    })
    .from(tickets)
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(metaTags, eq(metaTags.id, tickets.metaTagId))
    .where(
      and(
        eq(tickets.clientId, clientId),
        gte(tickets.receivedAt, past.from),
        lt(tickets.receivedAt, current.to),
        eq(tickets.type, EXPENSE_TYPE),
        isNull(tickets.deletedAt),
      ),
    )
    .groupBy(sql`grouping sets ((1, 2), (1, 3))`);
  const out: SpendingAnalytics = { current: { venues: [], categories: [] }, past: { venues: [], categories: [] } };
  for (const r of rows) {
    const side = r.isCurrent ? out.current : out.past;
    const value = Number(r.value);
    if (r.venue !== null) side.venues.push({ label: r.venue, value });
    else if (r.category !== null) side.categories.push({ label: r.category, value });
  }
  for (const side of [out.current, out.past]) {
    side.venues.sort(byValue);
    side.categories.sort(byValue);
  }
  return out;
}
