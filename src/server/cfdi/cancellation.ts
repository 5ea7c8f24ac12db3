// A cancelled or replaced CFDI leaves the books. Its receipts (one per tax account that holds the UUID:
// the issuer's and the receiver's copies, imports, SAT downloads) keep their facts and total and say
// what happened to it (cancel_status, replaced_by, sat_status); every live ticket still pointing at one
// of them is set to 0.00, because the ticket amount is what the books add up — the statement triggers
// on tickets move ticket_month_totals, and the app's own sums read the tickets — and updated_at moves so
// that clients pull the change.
// Refacturar asks the PAC to cancel the replaced CFDI (motive 01, FolioSustitucion = the new UUID) and
// keeps the PAC's answer next to the replaced request's files, so a CFDI imported later (its XML came
// by e-mail before) is marked as soon as it arrives, and a re-run of the job does not ask again.
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { PacError, type CancelResult, type CancelState, type PacPort } from './pac';
import type { Db } from '../db/client';
import { inTexts } from '../db/value-list';
import { invoiceRequests, receipts, tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';

export interface CfdiCancellation {
  /** The CFDI's UUID (uppercase, as receipts keep it). */
  uuid: string;
  /** Our cancellation's state; null when only SAT's status is known (the status check saw 'Cancelado'). */
  cancelStatus: CancelState | null;
  /** The UUID that replaced it (refacturar), when there is one. */
  replacedBy?: string | null;
  /** SAT's status service answered 'Cancelado': a cancellation of ours still 'en_proceso' is done. */
  satCancelled?: boolean;
}

/**
 * Marks every receipt of `uuid` and takes its live tickets out of the totals (amount 0.00). A CFDI leaves
 * the books when it is cancelled, or replaced by another one (which counts in its place) even while the
 * receptor has not yet accepted the cancellation. Answers how many tickets changed. Idempotent. All or
 * nothing: its own transaction, or a savepoint when `db` is a transaction already.
 */
export async function markCfdiCancelled(db: Db, c: CfdiCancellation, now: Date): Promise<number> {
  const uuid = c.uuid.trim().toUpperCase();
  const replacedBy = c.replacedBy?.trim().toUpperCase() || null;
  return db.transaction(async (tx) => {
    const before = await tx.select({ id: receipts.id, replacedBy: receipts.replacedBy, cancelStatus: receipts.cancelStatus, satStatus: receipts.satStatus })
      .from(receipts).where(eq(receipts.uuid, uuid)).orderBy(receipts.id); // one lock order for every writer
    const changed: string[] = [];
    const gone: string[] = [];
    for (const r of before) {
      const after = {
        // SAT saying 'Cancelado' settles a cancellation of ours that was waiting for the receptor.
        cancelStatus: c.cancelStatus ?? (c.satCancelled && r.cancelStatus === 'en_proceso' ? 'cancelada' : r.cancelStatus),
        replacedBy: replacedBy ?? r.replacedBy,
        satStatus: c.cancelStatus === 'cancelada' || c.satCancelled ? 'Cancelado' : r.satStatus,
      };
      if (after.cancelStatus !== r.cancelStatus || after.replacedBy !== r.replacedBy || after.satStatus !== r.satStatus) {
        await tx.update(receipts).set(after).where(eq(receipts.id, r.id));
        changed.push(r.id);
      }
      if (after.cancelStatus === 'cancelada' || after.satStatus === 'Cancelado' || after.replacedBy !== null) gone.push(r.id);
    }
    const touched = new Set<string>();
    if (gone.length > 0) {
      const zeroed = await tx
        .update(tickets)
        .set({ amount: '0.00', originalAmount: sql`case when ${tickets.originalAmount} is null then null else 0 end`, updatedAt: now })
        .where(and(inArray(tickets.receiptId, gone), isNull(tickets.deletedAt), or(ne(tickets.amount, '0'), ne(tickets.originalAmount, '0'))))
        .returning({ id: tickets.id });
      for (const t of zeroed) touched.add(t.id);
    }
    // A ticket whose receipt's state changed is pulled again by the apps (its JSON shows that state).
    if (changed.length > 0) {
      await tx.update(tickets).set({ updatedAt: now })
        .where(and(inArray(tickets.receiptId, changed), isNull(tickets.deletedAt), ne(tickets.updatedAt, now)));
    }
    return touched.size;
  });
}

/** Where the PAC's answer about a replaced request's CFDI is kept (next to its XML and PDF). */
export const cancellationKey = (requestId: string) => `invoices/${requestId}/cancelacion.json`;

export async function saveCancellation(files: FileStore, requestId: string, result: CancelResult): Promise<void> {
  await files.put(cancellationKey(requestId), new TextEncoder().encode(JSON.stringify(result)));
}

export async function readCancellation(files: FileStore, requestId: string): Promise<CancelResult | null> {
  const bytes = await files.get(cancellationKey(requestId));
  if (!bytes) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as CancelResult;
  } catch {
    return null;
  }
}

/**
 * CFDI arriving in the user's books (an import by QR, a file, a SAT download) that are already known to
 * be replaced or cancelled get marked and leave the totals as soon as they arrive: one we issued that a
 * refacturación replaced (its XML was kept from the first e-mail), or one another account already holds
 * as cancelled or replaced. Batched: two queries for any number of UUIDs, then work only for those found.
 * `db` may be a transaction (the upload import marks inside its batch's, so the CFDI commits marked); it
 * only reads the files store, so nothing there needs undoing when the transaction rolls back.
 */
export async function markKnownCancellations(db: Db, files: FileStore, uuids: readonly string[], now: Date): Promise<void> {
  const ids = [...new Set(uuids.map((u) => u.trim().toUpperCase()).filter(Boolean))];
  if (ids.length === 0) return;
  const replaced = await db.select({ id: invoiceRequests.id, uuid: invoiceRequests.uuid }).from(invoiceRequests)
    .where(and(inTexts(invoiceRequests.uuid, ids), sql`${invoiceRequests.status} = 'sustituida'`)); // as its partial index says it
  const known = await db.selectDistinctOn([receipts.uuid], { uuid: receipts.uuid, cancelStatus: receipts.cancelStatus, replacedBy: receipts.replacedBy, satStatus: receipts.satStatus })
    .from(receipts)
    // The condition as the partial index receipts_cancelled_uuid_idx writes it (a literal, not a
    // parameter), so the planner uses that index instead of reading every receipt with these UUIDs.
    .where(and(inTexts(receipts.uuid, ids), sql`(${receipts.cancelStatus} is not null or ${receipts.replacedBy} is not null or ${receipts.satStatus} = 'Cancelado')`))
    .orderBy(receipts.uuid, sql`${receipts.replacedBy} is null`, sql`${receipts.cancelStatus} is null`);
  const done = new Set<string>();
  for (const old of replaced) {
    const [replacement] = await db.select({ uuid: invoiceRequests.uuid }).from(invoiceRequests)
      .where(and(eq(invoiceRequests.replacesId, old.id), sql`${invoiceRequests.uuid} is not null`));
    const answer = await readCancellation(files, old.id);
    const replacedBy = replacement?.uuid ?? answer?.replacement ?? null;
    if (!replacedBy && !answer) continue;
    await markCfdiCancelled(db, { uuid: old.uuid!, cancelStatus: answer?.state ?? null, replacedBy }, now);
    done.add(old.uuid!);
  }
  for (const k of known) {
    if (done.has(k.uuid)) continue;
    await markCfdiCancelled(db, { uuid: k.uuid, cancelStatus: (k.cancelStatus as CancelState | null) ?? null, replacedBy: k.replacedBy, satCancelled: k.satStatus === 'Cancelado' }, now);
  }
}

/** One UUID's markKnownCancellations (the import by SAT QR). */
export async function markIfReplaced(db: Db, files: FileStore, uuid: string, now: Date): Promise<void> {
  await markKnownCancellations(db, files, [uuid], now);
}

/** Pending cancellations followed per run. */
export const PENDING_CANCELLATIONS_BATCH = 100;

/**
 * Cancellations of ours still waiting for the receptor ('en_proceso' on a receipt): asks the PAC where
 * each stands — SAT's answer after the receptor accepted, refused or let the 72 hours pass — and marks
 * every copy. Answers how many changed. A PAC refusal about one UUID (205 …) leaves it as it was.
 */
export async function followPendingCancellations(deps: { db: Db; files: FileStore; pac: PacPort; clock: () => Date }, limit = PENDING_CANCELLATIONS_BATCH): Promise<number> {
  const { db, files, pac } = deps;
  const pending = await db.selectDistinct({ uuid: receipts.uuid }).from(receipts).where(eq(receipts.cancelStatus, 'en_proceso')).orderBy(receipts.uuid).limit(limit);
  let changed = 0;
  for (const { uuid } of pending) {
    let answer: CancelResult | null;
    try {
      answer = await pac.cancellationStatus(uuid);
    } catch (err) {
      if (!(err instanceof PacError)) throw err;
      console.error('[invoicing] estado de cancelación no disponible', uuid, err.message);
      continue;
    }
    if (!answer || answer.state === 'en_proceso') continue;
    const [request] = await db.select({ id: invoiceRequests.id }).from(invoiceRequests).where(and(eq(invoiceRequests.uuid, uuid), eq(invoiceRequests.status, 'sustituida')));
    if (request) await saveCancellation(files, request.id, answer);
    await markCfdiCancelled(db, { uuid, cancelStatus: answer.state, replacedBy: answer.replacement }, deps.clock());
    changed++;
  }
  return changed;
}
