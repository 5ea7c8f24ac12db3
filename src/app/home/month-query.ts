// One page of a month's tickets straight from Dexie, through the [rfc+month+received_at] index,
// newest first (spec §9: 10 rows, date descending). Never reads beyond the selected month.
import { Dexie } from 'dexie';
import { isSelectable, type Ticket } from '../../domain/ticket';
import { clampPage, matchesSearch, PAGE_SIZE, type NameLookups } from './dashboard-model';

/** A ticket as the device keeps it (contract of issue 3: Ticket plus month and sync state). */
export type StoredTicket = Ticket & { month: string; syncState: string; pendingOps?: number };

export interface MonthPage {
  rows: StoredTicket[];
  /** Rows matching the search in the whole month. */
  total: number;
  /** Rows of the month before searching (tells "empty month" from "no matches"). */
  monthTotal: number;
  /** Selectable ids among the matching rows (select-all, spec §4). */
  selectableIds: string[];
  /** The page actually shown (clamped when the list shrank). */
  page: number;
}

export interface MonthQuery {
  rfc: string;
  /** 'YYYY-MM' */
  month: string;
  search: string;
  page: number;
}

function monthCollection(db: Dexie, rfc: string, month: string) {
  return db
    .table<StoredTicket, string>('tickets')
    .where('[rfc+month+received_at]')
    .between([rfc, month, Dexie.minKey], [rfc, month, Dexie.maxKey])
    .reverse();
}

export async function queryMonthPage(db: Dexie, q: MonthQuery, lookups: NameLookups): Promise<MonthPage> {
  const monthTotal = await monthCollection(db, q.rfc, q.month).count();
  const searching = q.search.trim().length > 0;
  const matching = () => {
    const c = monthCollection(db, q.rfc, q.month);
    return searching ? c.filter((t) => matchesSearch(t, q.search, lookups)) : c;
  };
  const total = searching ? await matching().count() : monthTotal;
  const page = clampPage(q.page, total);
  const rows = await matching().offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE).toArray();
  const selectableIds = (await matching().and(isSelectable).primaryKeys()) as string[];
  return { rows, total, monthTotal, selectableIds, page };
}
