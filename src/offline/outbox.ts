// The outbox table (DESIGN §4): writing operations next to their entity, reading the queue and the
// pending badges of tickets. Only a 2xx or a discard removes a row; each kind's module is in operations/.
import { MSG } from '../domain/messages';
import type { OpKind, OutboxOp } from '../domain/outbox-ops';
import { newId } from '../domain/ids';
import type { AppDb, OutboxRow, TicketRow } from './db';

/** The device ran out of space: nothing of the action was written. */
export class StorageFullError extends Error {
  constructor() {
    super(MSG.storageFull);
    this.name = 'StorageFullError';
  }
}

const STORAGE_ERRORS = new Set(['QuotaExceededError', 'AbortError']);

function isStorageError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: unknown; inner?: { name?: unknown } | null };
  return STORAGE_ERRORS.has(String(e.name)) || (!!e.inner && STORAGE_ERRORS.has(String(e.inner.name)));
}

/** Runs a write; a quota failure (the transaction aborted, so nothing was kept) becomes StorageFullError. */
export async function guardStorage<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isStorageError(err)) throw new StorageFullError();
    throw err;
  }
}

/** Every ticket an operation concerns. */
export function opTickets(op: Pick<OutboxOp, 'ticketId' | 'ticketIds'>): string[] {
  return op.ticketIds && op.ticketIds.length > 0 ? op.ticketIds : [op.ticketId];
}

export interface NewOp {
  kind: OpKind;
  ticketId: string;
  ticketIds?: string[];
  payload: unknown;
  blobId?: string;
  blobIds?: string[];
  rfc: string;
  label: string;
  revert?: OutboxRow['revert'];
}

/** A fresh pending row; add it inside the action's transaction. */
export function makeOp(op: NewOp, now: number = Date.now()): OutboxRow {
  const row: OutboxRow = {
    opId: newId(),
    kind: op.kind,
    ticketId: op.ticketId,
    ticketIds: op.ticketIds ?? [op.ticketId],
    payload: op.payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    leaseUntil: 0,
    lastError: null,
    lastStatus: null,
    createdAt: now,
    rfc: op.rfc,
    label: op.label,
  };
  if (op.blobId !== undefined) row.blobId = op.blobId;
  if (op.blobIds !== undefined) row.blobIds = op.blobIds;
  if (op.revert !== undefined) row.revert = op.revert;
  return row;
}

/**
 * Recomputes the pending badge of tickets from the outbox (call inside a transaction over tickets
 * and outbox). A ticket whose last operation was acknowledged becomes 'synced'.
 */
export async function refreshPending(db: AppDb, ticketIds: Iterable<string>, now: number = Date.now()): Promise<void> {
  for (const id of new Set(ticketIds)) {
    const row = await db.tickets.get(id);
    if (!row) continue;
    const pendingOps = await db.outbox.where('ticketIds').equals(id).count();
    const syncState = pendingOps > 0 ? 'pending' : 'synced';
    if (row.pendingOps === pendingOps && row.syncState === syncState) continue;
    const change: Partial<TicketRow> = { pendingOps, syncState };
    if (syncState === 'synced') change.syncedAt = now;
    await db.tickets.update(id, change);
  }
}

/** Operations in the order they will be sent. */
export function listOutbox(db: AppDb): Promise<OutboxRow[]> {
  return db.outbox.orderBy('seq').toArray();
}

/** How many operations wait to be sent (parked ones included). */
export function countPending(db: AppDb): Promise<number> {
  return db.outbox.count();
}

/** Every blob an operation keeps: an image's, or each file of an upload batch. */
export function opBlobIds(op: Pick<OutboxOp, 'blobId' | 'blobIds'>): string[] {
  return [...(op.blobId ? [op.blobId] : []), ...(op.blobIds ?? [])];
}

/** Deletes an operation and its attachment bytes (inside a transaction over outbox and blobs). */
export async function removeOp(db: AppDb, op: OutboxRow): Promise<void> {
  await db.outbox.delete(op.seq as number);
  const blobs = opBlobIds(op);
  if (blobs.length > 0) await db.blobs.bulkDelete(blobs);
}
