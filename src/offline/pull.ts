// Reads (DESIGN §4): server → Dexie → useLiveQuery → screen. A pull never overwrites a ticket that
// still has queued operations, nor one acknowledged after the pull started, and remembers which
// months were seen so they open offline.
import { monthKey } from '../domain/dates';
import { ticketMonth, type Ticket } from '../domain/ticket';
import type { AppDb, TicketRow } from './db';
import { opTickets } from './outbox';
import type { Http } from './http';

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
  const startedAt = Date.now();
  const { tickets } = await http.get<{ tickets: Ticket[] }>(ticketsPath(rfc, year, month, false));
  return applyPull(db, rfc, [monthKey(year, month)], tickets, startedAt);
}

/** The whole year of one account (usuario[view]=annual). */
export async function pullYear(db: AppDb, http: Http, rfc: string, year: number): Promise<PullResult> {
  const startedAt = Date.now();
  const { tickets } = await http.get<{ tickets: Ticket[] }>(ticketsPath(rfc, year, 12, true));
  const months = Array.from({ length: 12 }, (_, i) => monthKey(year, i + 1));
  return applyPull(db, rfc, months, tickets, startedAt);
}

/** Tickets with queued operations (a deleted ticket's row is gone but its delete is queued). */
async function busyTickets(db: AppDb): Promise<Set<string>> {
  const busy = new Set<string>();
  await db.outbox.each((op) => {
    for (const id of opTickets(op)) busy.add(id);
  });
  return busy;
}

/** Whether a local row may take the server's copy (or be removed). */
function replaceable(row: TicketRow | undefined, busy: Set<string>, startedAt: number): boolean {
  if (!row) return true;
  if (busy.has(row.ticket_id) || row.syncState === 'pending') return false;
  return (row.syncedAt ?? 0) < startedAt;
}

/**
 * Stores a pulled list for the given months of an account: puts the server's tickets, removes synced
 * local rows of those months it no longer has, and marks the months seen. Exported for tests.
 */
export async function applyPull(
  db: AppDb, rfc: string, months: readonly string[], tickets: readonly Ticket[], startedAt: number, now: number = Date.now(),
): Promise<PullResult> {
  const result: PullResult = { received: tickets.length, written: 0, removed: 0 };
  const serverIds = new Set(tickets.map((t) => t.ticket_id));

  for (let i = 0; i < tickets.length; i += PULL_CHUNK) {
    if (i > 0) await yieldToMain();
    const chunk = tickets.slice(i, i + PULL_CHUNK);
    await db.transaction('rw', db.tickets, db.outbox, async () => {
      const busy = await busyTickets(db);
      const local = await db.tickets.bulkGet(chunk.map((t) => t.ticket_id));
      const rows: TicketRow[] = [];
      chunk.forEach((t, k) => {
        const row = local[k];
        if (!replaceable(row, busy, startedAt)) return;
        if (busy.has(t.ticket_id)) return; // deleted here, the delete is on its way
        rows.push({ ...t, rfc: t.rfc ?? rfc, month: ticketMonth(t.received_at), syncState: 'synced', pendingOps: 0, syncedAt: row?.syncedAt ?? 0 });
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
        if (!serverIds.has(row.ticket_id) && replaceable(row, busy, startedAt)) stale.push(row.ticket_id);
      });
    }
    await db.tickets.bulkDelete(stale);
    result.removed = stale.length;
    await db.meta.bulkPut(months.map((m) => ({ key: seenKey(rfc, m), fetchedAt: now })));
  });
  return result;
}


