// Reads (DESIGN §4): server → Dexie → useLiveQuery → screen. A pull never overwrites a ticket that
// still has queued operations, nor one acknowledged after the pull started, and remembers which
// months were seen so they open offline. Once an account's month was read whole, later pulls ask the
// account's change feed from the last cursor instead (sync-cursor.ts): only what changed travels.
import { monthKey } from '../domain/dates';
import { ticketMonth, type Ticket } from '../domain/ticket';
import type { AppDb, TicketRow } from './db';
import { opTickets } from './outbox';
import { ApiError, type Http } from './http';
import { advanceCursor, coverMonths, dropCursor, endReplay, holdBack, holdReleased, isCursor, readCursor, type SyncCursorRow } from './sync-cursor';

/** Rows per write transaction: big pulls do not freeze live queries. */
export const PULL_CHUNK = 500;

/** Between a big pull's transactions: the screen paints and answers a tap before the next chunk is written. */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function seenKey(rfc: string, month: string): string {
  return `seen:${rfc}:${month}`;
}

/** Whether this month of this account was pulled once on this device (so it opens offline). */
export async function isMonthSeen(db: AppDb, rfc: string, year: number, month: number): Promise<boolean> {
  return !!(await db.meta.get(seenKey(rfc, monthKey(year, month))));
}

export interface PullResult {
  /** Tickets the server returned. */
  received: number;
  /** Local rows written (new or changed). */
  written: number;
  /** Synced local rows removed because the server no longer has them. */
  removed: number;
}

function ticketsPath(rfc: string, year: number, month: number, annual: boolean): string {
  const q = new URLSearchParams();
  q.set('usuario[rfc_owner]', rfc);
  if (annual) q.set('usuario[view]', 'annual');
  q.set('date[year]', String(year));
  q.set('date[month]', String(month));
  return `/api/v2/tickets?${q.toString()}`;
}

/** One month of one account. Throws ApiError when offline or refused (the stored copy still shows). */
export async function pullMonth(db: AppDb, http: Http, rfc: string, year: number, month: number): Promise<PullResult> {
  return pullMonths(db, http, rfc, [monthKey(year, month)], ticketsPath(rfc, year, month, false));
}

/** The whole year of one account (usuario[view]=annual). */
export async function pullYear(db: AppDb, http: Http, rfc: string, year: number): Promise<PullResult> {
  const months = Array.from({ length: 12 }, (_, i) => monthKey(year, i + 1));
  return pullMonths(db, http, rfc, months, ticketsPath(rfc, year, 12, true));
}

/**
 * The feed when it covers every month asked for; else the whole list, which then joins the feed's months.
 * A month whose whole read left tickets out is read whole again once their operations are over.
 */
async function pullMonths(db: AppDb, http: Http, rfc: string, months: readonly string[], listPath: string): Promise<PullResult> {
  const state = await readCursor(db, rfc);
  const held = state !== null && (state.replayFrom !== undefined || state.rereadMonths !== undefined);
  const released = held && holdReleased(state, await busyTickets(db));
  const reread = released ? (state.rereadMonths ?? []) : [];
  if (state && months.every((m) => state.months.includes(m) && !reread.includes(m))) {
    try {
      return await pullChanges(db, http, rfc, state, released);
    } catch (e) {
      // A cursor the server does not know (its database was restored): start over with a whole read.
      if (!(e instanceof ApiError) || e.status !== 400) throw e;
      await dropCursor(db, rfc);
      return pullMonths(db, http, rfc, months, listPath);
    }
  }
  const startedAt = Date.now();
  // Taken BEFORE the list is read: whatever is written meanwhile comes again in the feed.
  const cursor = state?.cursor ?? (await latestCursor(http, rfc));
  const { tickets } = await http.get<{ tickets: Ticket[] }>(listPath);
  const { leftOut, ...result } = await applyPull(db, rfc, months, tickets, startedAt);
  if (cursor !== null) await coverMonths(db, rfc, cursor, months, leftOut);
  return result;
}

/** One answer of the change feed. */
export interface ChangePage {
  tickets: Ticket[];
  deleted: string[];
  cursor: string;
  more: boolean;
}

function changesPath(rfc: string, since: string): string {
  const q = new URLSearchParams();
  q.set('usuario[rfc_owner]', rfc);
  q.set('since', since);
  return `/api/v2/tickets/changes?${q.toString()}`;
}

/** The account's newest cursor, or null from a server without the feed (pulls then stay whole). */
async function latestCursor(http: Http, rfc: string): Promise<string | null> {
  try {
    const page = await http.get<Partial<ChangePage>>(changesPath(rfc, 'latest'));
    return isCursor(page.cursor) ? page.cursor : null;
  } catch (e) {
    if (e instanceof ApiError && !e.offline) return null;
    throw e;
  }
}

/** Pages one sync follows at most (500 changes each): a device far behind catches up over later syncs. */
export const MAX_FEED_PAGES = 40;

/**
 * Applies the account's feed from its cursor, page after page while the server says `more`. Changes of
 * tickets with queued operations are left out and the cursor moves on; once none of them has an operation
 * queued, one sync reads again from the first such change (sync-cursor.ts holdBack), instead of every sync
 * downloading the same window while an edit waits (for days, if the user has not decided on a refused one).
 */
async function pullChanges(db: AppDb, http: Http, rfc: string, state: SyncCursorRow, released: boolean): Promise<PullResult> {
  const result: PullResult = { received: 0, written: 0, removed: 0 };
  const replay = released && state.replayFrom !== undefined;
  let since = replay ? state.replayFrom! : state.cursor;
  let heldFrom: string | undefined;
  let more = false;
  const skipped = new Set<string>();
  for (let n = 0; n < MAX_FEED_PAGES; n++) {
    const startedAt = Date.now();
    const page = await http.get<ChangePage>(changesPath(rfc, since));
    if (!isCursor(page.cursor) || !Array.isArray(page.tickets) || !Array.isArray(page.deleted)) break;
    const applied = await applyChanges(db, rfc, page, since, startedAt);
    if (applied.skipped.length > 0) heldFrom ??= since;
    for (const id of applied.skipped) skipped.add(id);
    result.received += page.tickets.length + page.deleted.length;
    result.written += applied.written;
    result.removed += applied.removed;
    since = page.cursor;
    more = page.more;
    if (!more) break;
  }
  if (replay) await endReplay(db, rfc, { heldFrom, skipped, stoppedAt: more ? since : null, heldBefore: state.heldFor ?? [] });
  return result;
}

/**
 * Stores one feed page (asked from `since`) with the pull's rules and moves the cursor past it, in one
 * transaction. A change for a ticket with queued operations (or acknowledged after the page was asked for)
 * is left out and noted in the cursor row (holdBack), to be read again once that is over. Exported for tests.
 */
export async function applyChanges(
  db: AppDb, rfc: string, page: ChangePage, since: string, startedAt: number,
): Promise<{ written: number; removed: number; skipped: string[] }> {
  return db.transaction('rw', [db.tickets, db.outbox, db.meta], async () => {
    const busy = await busyTickets(db);
    const local = await db.tickets.bulkGet(page.tickets.map((t) => t.ticket_id));
    const rows: TicketRow[] = [];
    const skipped: string[] = [];
    page.tickets.forEach((t, k) => {
      const row = local[k];
      if (!replaceable(row, busy, startedAt) || busy.has(t.ticket_id)) skipped.push(t.ticket_id);
      else rows.push({ ...t, rfc: t.rfc ?? rfc, month: ticketMonth(t.received_at), syncState: 'synced', pendingOps: 0, syncedAt: row?.syncedAt ?? 0 });
    });
    const gone = await db.tickets.bulkGet(page.deleted);
    const removed: string[] = [];
    gone.forEach((row, k) => {
      if (!row) return;
      if (replaceable(row, busy, startedAt)) removed.push(page.deleted[k]!);
      else skipped.push(page.deleted[k]!);
    });
    await db.tickets.bulkPut(rows);
    await db.tickets.bulkDelete(removed);
    await advanceCursor(db, rfc, page.cursor);
    await holdBack(db, rfc, since, skipped);
    return { written: rows.length, removed: removed.length, skipped };
  });
}

/** Tickets with queued operations (a deleted ticket's row is gone but its delete is queued). */
async function busyTickets(db: AppDb): Promise<Set<string>> {
  const busy = new Set<string>();
  await db.outbox.each((op) => {
    for (const id of opTickets(op)) busy.add(id);
  });
  return busy;
}

/** Whether the ticket has an edit of this device not yet on the server (queued, or its row still pending). */
function editedHere(id: string, row: TicketRow | undefined, busy: Set<string>): boolean {
  return busy.has(id) || row?.syncState === 'pending';
}

/** Whether a local row may take the server's copy (or be removed). */
function replaceable(row: TicketRow | undefined, busy: Set<string>, startedAt: number): boolean {
  if (!row) return true;
  if (editedHere(row.ticket_id, row, busy)) return false;
  return (row.syncedAt ?? 0) < startedAt;
}

/** What a whole read did not store: tickets with queued operations, and the months they are in. */
export interface LeftOut {
  ids: string[];
  months: string[];
}

/**
 * Stores a pulled list for the given months of an account: puts the server's tickets, removes synced
 * local rows of those months it no longer has, and marks the months seen. Exported for tests.
 */
export async function applyPull(
  db: AppDb, rfc: string, months: readonly string[], tickets: readonly Ticket[], startedAt: number, now: number = Date.now(),
): Promise<PullResult & { leftOut: LeftOut }> {
  const result: PullResult = { received: tickets.length, written: 0, removed: 0 };
  const serverIds = new Set(tickets.map((t) => t.ticket_id));
  const leftOutIds = new Set<string>();
  const leftOutMonths = new Set<string>();
  const leaveOut = (id: string, month: string | undefined) => {
    leftOutIds.add(id);
    if (month) leftOutMonths.add(month);
  };

  for (let i = 0; i < tickets.length; i += PULL_CHUNK) {
    if (i > 0) await yieldToMain();
    const chunk = tickets.slice(i, i + PULL_CHUNK);
    await db.transaction('rw', db.tickets, db.outbox, async () => {
      const busy = await busyTickets(db);
      const local = await db.tickets.bulkGet(chunk.map((t) => t.ticket_id));
      const rows: TicketRow[] = [];
      chunk.forEach((t, k) => {
        const row = local[k];
        const month = ticketMonth(t.received_at);
        // Busy (a queued edit, or deleted here with the delete on its way): kept, and read again later.
        // Acknowledged after the read began: what the server answered then is newer than this.
        if (editedHere(t.ticket_id, row, busy)) leaveOut(t.ticket_id, month);
        else if (replaceable(row, busy, startedAt)) {
          rows.push({ ...t, rfc: t.rfc ?? rfc, month, syncState: 'synced', pendingOps: 0, syncedAt: row?.syncedAt ?? 0 });
        }
      });
      await db.tickets.bulkPut(rows);
      result.written += rows.length;
    });
  }

  await db.transaction('rw', [db.tickets, db.outbox, db.meta], async () => {
    const busy = await busyTickets(db);
    const stale: string[] = [];
    for (const month of months) {
      await db.tickets.where('[rfc+month]').equals([rfc, month]).each((row) => {
        if (serverIds.has(row.ticket_id)) return;
        if (replaceable(row, busy, startedAt)) stale.push(row.ticket_id);
        // Busy and gone from the server: read again later. One created here (never synced) is simply not there yet.
        else if (editedHere(row.ticket_id, row, busy) && row.syncedAt !== undefined) leaveOut(row.ticket_id, month);
      });
    }
    await db.tickets.bulkDelete(stale);
    result.removed = stale.length;
    await db.meta.bulkPut(months.map((m) => ({ key: seenKey(rfc, m), fetchedAt: now })));
  });
  return { ...result, leftOut: { ids: [...leftOutIds].sort(), months: [...leftOutMonths].sort() } };
}


