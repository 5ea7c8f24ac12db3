// An outbox operation kind (DESIGN §4), in the spirit of Replicache's mutators: one module per kind
// holds the local change (the action that writes Dexie and queues the operation in one transaction),
// the request that carries it, the fields it changes, what a 2xx does here and how a discard undoes
// it. The drain engine and the 'Pendientes de envío' view know operations only through this shape.
import { displayDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { isIncome, type Ticket } from '../../domain/ticket';
import type { AppDb, BlobRow, OutboxRow } from '../db';

/** What every request of the outbox carries, and where it goes. */
export interface RequestContext {
  /** Idempotency-Key (the operation's id) and the session token. */
  headers: Record<string, string>;
  url(path: string): string;
}

export interface Operation {
  /** The HTTP request for the operation and its stored bytes (in the operation's order). */
  request(op: OutboxRow, blobs: readonly BlobRow[], ctx: RequestContext): Request;
  /** Ticket fields it changed here before the server knew; a discard keeps those a later operation changes again. */
  changedFields(op: OutboxRow): readonly string[];
  /** Its local effect of a 2xx, inside the acknowledging transaction (tickets, outbox, blobs). */
  acknowledged?(db: AppDb, op: OutboxRow, body: unknown, now: number): Promise<void>;
  /** After that transaction: tells other contexts (tabs, the worker) what the server answered. */
  announce?(op: OutboxRow, body: unknown): void;
  /** Undoes its change on 'Descartar', inside the discard transaction, after the row was removed. */
  undo(db: AppDb, op: OutboxRow, ctx: { laterFields: ReadonlySet<string>; now: number }): Promise<void>;
  /** What the user reads when the server refuses it without a message, or its bytes are gone. */
  failureMessage: string;
  /** A 404 means its ticket was deleted meanwhile (false for a create: that 404 is the server's own answer). */
  ticketGone: boolean;
}

export function jsonRequest(ctx: RequestContext, method: string, path: string, body: unknown): Request {
  return new Request(ctx.url(path), {
    method,
    headers: { ...ctx.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** "gasto de $120.00 del 2026-11-22": how the pending list names a ticket. */
export function describeTicket(t: Pick<Ticket, 'ticket_type_id' | 'amount' | 'received_at'>): string {
  return `${isIncome(t) ? 'ingreso' : 'gasto'} de ${formatMoney(t.amount)} del ${displayDate(t.received_at)}`;
}

/** The undo of a one-field change: the fields as they were, except those a later operation changes again. */
export async function revertFields(db: AppDb, op: OutboxRow, laterFields: ReadonlySet<string>): Promise<void> {
  if (!op.revert || 'rows' in op.revert) return;
  const undo: Partial<Ticket> = {};
  for (const [k, v] of Object.entries(op.revert)) {
    if (!laterFields.has(k)) (undo as Record<string, unknown>)[k] = v;
  }
  if (Object.keys(undo).length > 0) await db.tickets.update(op.ticketId, undo);
}

/** Adds stored bytes to a multipart body under their file name. */
export function appendBlob(form: FormData, field: string, blob: BlobRow): void {
  form.append(field, new Blob([blob.bytes], { type: blob.type }), blob.name);
}
