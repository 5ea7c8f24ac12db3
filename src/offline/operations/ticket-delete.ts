// ticket.delete: tickets leave the device at once and one DELETE /api/v2/tickets carries them all; a
// ticket whose create never left just disappears with its queued operations. A discard brings them back.
import { MSG } from '../../domain/messages';
import type { AppDb, TicketRow } from '../db';
import { requestDrain } from '../drain-signal';
import { guardStorage, makeOp, opTickets, removeOp } from '../outbox';
import { describeTicket, jsonRequest, type Operation } from './operation';

export const ticketDelete: Operation = {
  request: (op, _blobs, ctx) => jsonRequest(ctx, 'DELETE', '/api/v2/tickets', op.payload),
  changedFields: () => [],
  async undo(db, op) {
    if (!op.revert || !('rows' in op.revert)) return;
    for (const row of op.revert.rows) {
      if (!(await db.tickets.get(row.ticket_id))) await db.tickets.put(row);
    }
  },
  failureMessage: MSG.generic,
  ticketGone: true,
};

/** Removes tickets from the device and queues their removal on the server; returns how many were removed here. */
export async function deleteTickets(db: AppDb, ids: readonly string[]): Promise<number> {
  const now = Date.now();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return 0;
  const removed = await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      const rows = (await db.tickets.bulkGet(unique)).filter((r): r is TicketRow => !!r);
      const toServer: TicketRow[] = [];
      for (const row of rows) {
        const ops = await db.outbox.where('ticketIds').equals(row.ticket_id).toArray();
        const create = ops.find((o) => o.kind === 'ticket.create' && o.ticketId === row.ticket_id);
        const neverSent = !!create && create.status === 'pending' && create.attempts === 0 && create.lastStatus === null;
        if (neverSent) {
          for (const op of ops) {
            const rest = opTickets(op).filter((id) => id !== row.ticket_id);
            if (rest.length === 0) await removeOp(db, op);
            else await db.outbox.update(op.seq as number, { ticketId: rest[0] as string, ticketIds: rest, payload: { tickets: rest } });
          }
        } else {
          toServer.push(row);
        }
      }
      await db.tickets.bulkDelete(rows.map((r) => r.ticket_id));
      if (toServer.length > 0) {
        const ticketIds = toServer.map((r) => r.ticket_id);
        const first = toServer[0] as TicketRow;
        await db.outbox.add(
          makeOp(
            {
              kind: 'ticket.delete',
              ticketId: first.ticket_id,
              ticketIds,
              payload: { tickets: ticketIds },
              rfc: first.rfc,
              label: ticketIds.length === 1 ? `Eliminar ${describeTicket(first)}` : `Eliminar ${ticketIds.length} tickets`,
              revert: { rows: toServer.map((r) => ({ ...r, syncState: 'synced' as const, pendingOps: 0 })) },
            },
            now,
          ),
        );
      }
      return rows.length;
    }),
  );
  if (removed > 0) requestDrain();
  return removed;
}
