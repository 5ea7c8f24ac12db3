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
  return row && isCursor(row.cursor) && Array.isArray(row.months) ? (row as SyncCursorRow) : null;
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
 */
export async function coverMonths(db: AppDb, rfc: string, cursor: string, months: readonly string[], now: number = Date.now()): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const row = await readCursor(db, rfc);
    const covered = new Set([...(row?.months ?? []), ...months]);
    await db.meta.put({ ...row, key: cursorKey(rfc), cursor: row?.cursor ?? cursor, months: [...covered].sort(), fetchedAt: now } as SyncCursorRow);
  });
}

/**
 * Records what a sync of the feed left out: `skipped` tickets from `from` on (nothing: the replay is
 * done). A sync that was not a replay keeps what was held before it, from the older of the two cursors.
 */
export async function holdBack(db: AppDb, rfc: string, replayed: boolean, from: string | undefined, skipped: Iterable<string>): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const row = await readCursor(db, rfc);
    if (!row) return;
    const ids = new Set(skipped);
    let replayFrom = from;
    if (!replayed && row.replayFrom !== undefined) {
      for (const id of row.heldFor ?? []) ids.add(id);
      replayFrom = replayFrom === undefined || BigInt(row.replayFrom) < BigInt(replayFrom) ? row.replayFrom : replayFrom;
    }
    const next: SyncCursorRow = { ...row, replayFrom, heldFor: [...ids].sort() };
    if (replayFrom === undefined) {
      delete next.replayFrom;
      delete next.heldFor;
    }
    await db.meta.put(next);
  });
}

/** Forgets the chain (the server refused the cursor): the next pull reads the month whole again. */
export async function dropCursor(db: AppDb, rfc: string): Promise<void> {
  await db.meta.delete(cursorKey(rfc));
}
