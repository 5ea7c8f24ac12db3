// Incremental sync state of each tax account on this device (DESIGN §4 reads): the last cursor of the
// account's change feed (GET /api/v2/tickets/changes) and the months read whole since that cursor chain
// began, which are exactly the months the feed keeps current. It lives in Dexie's meta table, so logout's
// wipe (which deletes the database) takes it too.
import type { AppDb, MetaRow } from './db';

export interface SyncCursorRow extends MetaRow {
  /** A decimal string: the server's sequence is a bigint. */
  cursor: string;
  /** 'YYYY-MM' months read whole at or after this chain's first cursor. */
  months: string[];
  /**
   * Changes of tickets with queued operations are left out (a local edit is never overwritten), but the
   * cursor moves on: `replayFrom` is where the first of them was, `heldFor` the tickets left out. Once
   * none of those has an operation queued, one sync reads again from `replayFrom`.
   */
  replayFrom?: string;
  heldFor?: string[];
  /**
   * Months read whole that left tickets with queued operations out (the same `heldFor`): the feed will not
   * bring their server copy again if it is older than the cursor, so once none of `heldFor` has an
   * operation queued, the next pull of such a month reads it whole.
   */
  rereadMonths?: string[];
}

export function cursorKey(rfc: string): string {
  return `cursor:${rfc}`;
}

/** A cursor as the server hands them out (anything else is ignored, never sent back). */
export function isCursor(value: unknown): value is string {
  return typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value);
}

export async function readCursor(db: AppDb, rfc: string): Promise<SyncCursorRow | null> {
  const row = (await db.meta.get(cursorKey(rfc))) as Partial<SyncCursorRow> | undefined;
  if (!row || !isCursor(row.cursor) || !Array.isArray(row.months)) return null;
  // A hold that is not one we wrote is never sent: without the chain, the month is read whole again.
  if (row.replayFrom !== undefined && (!isCursor(row.replayFrom) || !Array.isArray(row.heldFor))) return null;
  if (row.rereadMonths !== undefined && !(Array.isArray(row.rereadMonths) && row.rereadMonths.every(isMonth))) return null;
  return row as SyncCursorRow;
}

function isMonth(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** Whether what the row holds back may be read again: none of the tickets left out has an operation queued. */
export function holdReleased(row: SyncCursorRow, busy: ReadonlySet<string>): boolean {
  return !(row.heldFor ?? []).some((id) => busy.has(id));
}

/** Moves the account's cursor forward (call inside a transaction that includes db.meta). */
export async function advanceCursor(db: AppDb, rfc: string, cursor: string, now: number = Date.now()): Promise<void> {
  const row = await readCursor(db, rfc);
  if (!row || BigInt(cursor) <= BigInt(row.cursor)) return;
  await db.meta.put({ ...row, cursor, fetchedAt: now } as SyncCursorRow);
}

/**
 * Records months just read whole. Without a chain yet, `cursor` (taken before the read) starts one; with
 * one, its cursor stays: changes after it that the read already showed come again, and apply the same.
 * `leftOut` are the tickets the read did not store (queued operations) and the months they are in: those
 * months are read whole again once the operations are over (`rereadMonths`); the others are now current.
 */
export async function coverMonths(
  db: AppDb, rfc: string, cursor: string, months: readonly string[],
  leftOut: { ids: readonly string[]; months: readonly string[] } = { ids: [], months: [] }, now: number = Date.now(),
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const row = await readCursor(db, rfc);
    const covered = new Set([...(row?.months ?? []), ...months]);
    const next = { ...row, key: cursorKey(rfc), cursor: row?.cursor ?? cursor, months: [...covered].sort(), fetchedAt: now } as SyncCursorRow;
    const reread = new Set(row?.rereadMonths ?? []);
    for (const m of months) reread.delete(m);
    for (const m of leftOut.months) reread.add(m);
    delete next.rereadMonths;
    if (reread.size > 0) next.rereadMonths = [...reread].sort();
    if (leftOut.ids.length > 0) next.heldFor = [...new Set([...(row?.heldFor ?? []), ...leftOut.ids])].sort();
    else if (next.replayFrom === undefined && next.rereadMonths === undefined) delete next.heldFor;
    await db.meta.put(next);
  });
}

/**
 * Notes changes left out for `skipped` tickets on a feed page asked from `since` (call inside the
 * transaction that stores the page and moves the cursor, so a closed app never loses them): the replay
 * starts at the oldest such page, and names every ticket left out.
 */
export async function holdBack(db: AppDb, rfc: string, since: string, skipped: readonly string[]): Promise<void> {
  if (skipped.length === 0) return;
  const row = await readCursor(db, rfc);
  if (!row) return;
  const replayFrom = row.replayFrom !== undefined && BigInt(row.replayFrom) < BigInt(since) ? row.replayFrom : since;
  const next: SyncCursorRow = { ...row, replayFrom, heldFor: [...new Set([...(row.heldFor ?? []), ...skipped])].sort() };
  await db.meta.put(next);
}

/**
 * After a replay: what it left out again (from `heldFrom`, for `skipped`), or nothing. One that stopped
 * before the feed's end (`stoppedAt`, the cursor it would have gone on from) goes on from there next time.
 */
export async function endReplay(
  db: AppDb, rfc: string, r: { heldFrom: string | undefined; skipped: Iterable<string>; stoppedAt: string | null; heldBefore: readonly string[] },
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const row = await readCursor(db, rfc);
    if (!row) return;
    const ids = new Set(r.skipped);
    if (r.stoppedAt !== null) for (const id of r.heldBefore) ids.add(id);
    const replayFrom = r.heldFrom ?? r.stoppedAt ?? undefined;
    const next: SyncCursorRow = { ...row };
    delete next.replayFrom;
    delete next.heldFor;
    // Months waiting to be read again (rereadMonths) wait on what is held now: none of the old tickets is busy.
    if (replayFrom !== undefined) Object.assign(next, { replayFrom, heldFor: [...ids].sort() });
    await db.meta.put(next);
  });
}

/** Forgets the chain (the server refused the cursor): the next pull reads the month whole again. */
export async function dropCursor(db: AppDb, rfc: string): Promise<void> {
  await db.meta.delete(cursorKey(rfc));
}
