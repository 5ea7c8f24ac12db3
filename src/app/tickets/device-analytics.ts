// Analytics from the device's own tickets, for when the server cannot answer (offline, or failing):
// the same groups and monthly totals the analytics and stats endpoints make (src/domain/analytics),
// read from Dexie, and only for months this device has pulled — a month never seen would show as
// empty and look like "no spending".
import { spendingBreakdown, venueLabel, yearSeries, type SpendingBreakdown, type YearSeries } from '../../domain/analytics';
import { monthKey } from '../../domain/dates';
import type { AppDb, TicketRow } from '../../offline/db';
import { seenKey } from '../../offline/pull';
import { originName } from './ticket-list-model';

/** Whether every one of these 'YYYY-MM' months of the account was pulled on this device. */
export async function monthsSeen(db: AppDb, rfc: string, months: readonly string[]): Promise<boolean> {
  const rows = await db.meta.bulkGet(months.map((m) => seenKey(rfc, m)));
  return rows.every((r) => r !== undefined);
}

export function yearMonths(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => monthKey(year, i + 1));
}

/** The account's tickets of the months from..to ('YYYY-MM', inclusive), through the [rfc+month] index. */
function ticketsBetween(db: AppDb, rfc: string, from: string, to: string): Promise<TicketRow[]> {
  return db.tickets.where('[rfc+month]').between([rfc, from], [rfc, to], true, true).toArray();
}

/** Venues as the server names them: the CFDI issuer, else the company; manual entries name no venue. */
function breakdown(tickets: readonly TicketRow[], companies: ReadonlyMap<string, string>): SpendingBreakdown {
  return spendingBreakdown(tickets, (t) => venueLabel(t, originName(t.company_short_name, companies)));
}

export interface DeviceSpending {
  current: SpendingBreakdown;
  /** null when the previous period was never pulled here (its change cannot be told). */
  past: SpendingBreakdown | null;
}

/** A month's spending by venue and category and the month before's; null when the month was never pulled. */
export async function deviceMonthSpending(
  db: AppDb, rfc: string, year: number, month: number, companies: ReadonlyMap<string, string>,
): Promise<DeviceSpending | null> {
  const key = monthKey(year, month);
  const before = month === 1 ? monthKey(year - 1, 12) : monthKey(year, month - 1);
  if (!(await monthsSeen(db, rfc, [key]))) return null;
  const [current, past] = await Promise.all([
    ticketsBetween(db, rfc, key, key),
    monthsSeen(db, rfc, [before]).then((seen) => (seen ? ticketsBetween(db, rfc, before, before) : null)),
  ]);
  return { current: breakdown(current, companies), past: past && breakdown(past, companies) };
}

export interface DeviceYear extends DeviceSpending {
  series: YearSeries;
}

/** A year's monthly totals and spending breakdown (and the previous year's); null when the year was never pulled whole. */
export async function deviceYearFigures(db: AppDb, rfc: string, year: number, companies: ReadonlyMap<string, string>): Promise<DeviceYear | null> {
  const months = yearMonths(year);
  if (!(await monthsSeen(db, rfc, months))) return null;
  const last = yearMonths(year - 1);
  const [current, past] = await Promise.all([
    ticketsBetween(db, rfc, months[0]!, months[11]!),
    monthsSeen(db, rfc, last).then((seen) => (seen ? ticketsBetween(db, rfc, last[0]!, last[11]!) : null)),
  ]);
  return { series: yearSeries(current, year), current: breakdown(current, companies), past: past && breakdown(past, companies) };
}
