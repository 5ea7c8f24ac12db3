// What screens do with queued operations: 'Reintentar', 'Descartar' (undoing the operation's change
// through its kind's module), and waiting for the server's answer to one without polling.
import { liveQuery } from 'dexie';
import type { AppDb, OutboxRow } from './db';
import { requestDrain } from './drain-signal';
import { operationOf } from './operations/registry';
import { guardStorage, opTickets, refreshPending, removeOp } from './outbox';

/** "Reintentar": a parked or waiting operation goes back to the front of the line now. */
export async function retryOp(db: AppDb, opId: string): Promise<boolean> {
  const changed = await db.transaction('rw', db.outbox, async () => {
    const op = await db.outbox.where('opId').equals(opId).first();
    if (!op || op.status === 'inflight') return false;
    await db.outbox.update(op.seq as number, {
      status: 'pending', nextAttemptAt: 0, leaseUntil: 0, lastError: null, lastStatus: null,
    });
    return true;
  });
  if (changed) requestDrain();
  return changed;
}

/**
 * "Descartar": removes an operation that is not on the wire and undoes its change here. Discarding a
 * create removes the ticket and everything queued after it for that ticket.
 */
export async function discardOp(db: AppDb, opId: string, now: number = Date.now()): Promise<boolean> {
  return guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      const op = await db.outbox.where('opId').equals(opId).first();
      if (!op) return false;
      if (op.status === 'inflight' && op.leaseUntil > now) return false; // being sent right now
      await removeOp(db, op);
      const later = (await db.outbox.where('ticketIds').equals(op.ticketId).toArray()).filter(
        (o) => (o.seq as number) > (op.seq as number),
      );
      const laterFields = new Set(later.flatMap((o) => operationOf(o.kind).changedFields(o)));
      await operationOf(op.kind).undo(db, op, { laterFields, now });
      await refreshPending(db, opTickets(op), now);
      return true;
    }),
  );
}

export type OpOutcome = { kind: 'sent' } | { kind: 'refused'; message: string } | { kind: 'queued' };

/**
 * The server's answer to one operation, as the outbox shows it (the drain may run in the worker: Dexie
 * tells every context of a change): sent (gone), refused (parked with the server's message; with
 * `discardRefused` it is discarded so no dead ticket stays behind) or still queued after a network
 * failure or `timeoutMs`.
 */
export function awaitOperation(
  db: AppDb, opId: string, opts: { timeoutMs?: number; discardRefused?: boolean } = {},
): Promise<OpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let stop = () => undefined as void;
    const settle = (outcome: OpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'queued' }), opts.timeoutMs ?? 15_000);
    const seen = async (op: OutboxRow | undefined) => {
      if (settled) return;
      if (!op) return settle({ kind: 'sent' });
      if (op.status === 'failed') {
        const message = op.lastError ?? '';
        if (opts.discardRefused) await discardOp(db, opId);
        return settle({ kind: 'refused', message });
      }
      // A network failure leaves it pending with a later attempt: it will go on reconnect.
      if (op.attempts > 0 && op.lastStatus === null) settle({ kind: 'queued' });
    };
    const subscription = liveQuery(() => db.outbox.where('opId').equals(opId).first()).subscribe({
      next: (op) => void seen(op),
      error: () => settle({ kind: 'queued' }),
    });
    stop = () => subscription.unsubscribe();
    if (settled) stop();
  });
}
