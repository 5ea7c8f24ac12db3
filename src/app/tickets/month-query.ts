// One page of a month's tickets straight from Dexie, through the [rfc+month+received_at] index,
// newest first (spec §9: 10 rows, date descending). Never reads beyond the selected month (or the
// selected run of months: the annual view's year).
import { Dexie } from 'dexie';
import { isSelectable, type Ticket } from '../../domain/ticket';
import { clampPage, matchesSearch, PAGE_SIZE, type NameLookups } from './ticket-list-model';

/** A ticket as the device keeps it (Ticket plus month and sync state). */
export type StoredTicket = Ticket & { month: string; syncState: string; pendingOps?: number; syncedAt?: number };

export interface MonthPage {
  rows: StoredTicket[];
  /** Rows matching the search in the whole month. */
  total: number;
  /** Rows of the month before searching (tells "empty month" from "no matches"). */
  monthTotal: number;
  /** The page actually shown (clamped when the list shrank). */
  page: number;
}

export interface MonthQuery {
  rfc: string;
  /** 'YYYY-MM' */
  month: string;
  /** Last 'YYYY-MM' of a run of months starting at `month` (the annual view's year); `month` alone when absent. */
  toMonth?: string;
  search: string;
  page: number;
}

function monthCollection(db: Dexie, rfc: string, month: string, toMonth: string = month) {
  return db
    .table<StoredTicket, string>('tickets')
    .where('[rfc+month+received_at]')
    .between([rfc, month, Dexie.minKey], [rfc, toMonth, Dexie.maxKey])
    .reverse();
}

function matchingRows(db: Dexie, q: MonthQuery, lookups: NameLookups) {
  const c = monthCollection(db, q.rfc, q.month, q.toMonth);
  return q.search.trim() ? c.filter((t) => matchesSearch(t, q.search, lookups)) : c;
}

/** The page to show: two index counts and ten rows, so it paints at once even in a busy month. */
export async function queryMonthPage(db: Dexie, q: MonthQuery, lookups: NameLookups): Promise<MonthPage> {
  const monthTotal = await monthCollection(db, q.rfc, q.month, q.toMonth).count();
  const total = q.search.trim() ? await matchingRows(db, q, lookups).count() : monthTotal;
  const page = clampPage(q.page, total);
  const rows = await matchingRows(db, q, lookups).offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE).toArray();
  return { rows, total, monthTotal, page };
}

/**
 * Selectable ids among every matching row of the month (select-all, spec §4). It reads the whole
 * month, so it is a query of its own that never holds up the page.
 */
export async function querySelectableIds(db: Dexie, q: Omit<MonthQuery, 'page'>, lookups: NameLookups): Promise<string[]> {
  return (await matchingRows(db, { ...q, page: 1 }, lookups).and(isSelectable).primaryKeys()) as string[];
}

/**
 * Changes whenever the server's copy of the month may have changed (a pull, or an outbox operation
 * acknowledged): the count and the latest acknowledgement of the month's synced tickets.
 */
export async function querySyncedVersion(db: Dexie, rfc: string, month: string): Promise<string> {
  let count = 0;
  let latest = 0;
  await monthCollection(db, rfc, month).each((t) => {
    if (t.syncState !== 'synced') return;
    count++;
    latest = Math.max(latest, t.syncedAt ?? 0);
  });
  return `${count}:${latest}`;
}
