// The change feed of a tax account (incremental sync): the tickets written and the ids deleted after a
// cursor, so a phone that already holds the account's months downloads only what changed. The cursor is
// a value of the ticket_change_seq sequence (migration 0015): triggers give every ticket write the next
// value and leave a tombstone for every hard delete; a soft delete is reported as a deletion.
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Hono, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { queryRows, type Db } from '../db/client';
import { ticketTombstones, tickets } from '../db/schema';
import { caller } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { ownClientId } from '../http/own-account';
import { defineRoute } from '../http/route';
import { ticketsById, type TicketJson } from '../lib/ticket-json';
import * as R from '../openapi/responses';

/** The advisory lock class every ticket write holds (shared) per account until it commits (see 0015). */
const FEED_LOCK = 1_952_671_859;
export const FEED_DEFAULT_LIMIT = 500;
export const FEED_MAX_LIMIT = 1000;
/** `since=latest`: only the current cursor (what a first load takes before it reads the month). */
export const LATEST = 'latest';

const Cursor = v.pipe(v.string(MSG.badJson), v.regex(/^(0|[1-9]\d{0,14})$/, MSG.badJson));

export const ChangesQuery = v.object({
  usuario: v.object({ rfc_owner: v.pipe(v.string(MSG.rfcInvalid), v.minLength(1, MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)) }, MSG.rfcInvalid),
  since: v.union([v.literal(LATEST), Cursor], MSG.badJson),
  limit: v.optional(
    v.pipe(v.string(MSG.badJson), v.regex(/^\d{1,4}$/, MSG.badJson), v.transform(Number), v.minValue(1, MSG.badJson), v.maxValue(FEED_MAX_LIMIT, MSG.badJson)),
  ),
});

export interface ChangePage {
  /** Created or updated live tickets, in change order (the month list's JSON). */
  tickets: TicketJson[];
  /** Ids deleted (or moved to another account) since the cursor. */
  deleted: string[];
  /** Where the next call starts (a decimal string: the sequence is a bigint). */
  cursor: string;
  /** More changes wait after `cursor`: call again at once. */
  more: boolean;
}

export const ChangePageResponse = v.object({ tickets: R.TicketList.entries.tickets, deleted: v.array(v.string()), cursor: v.string(), more: v.boolean() });

/**
 * The newest committed cursor of an account: waiting for the account's lock means every write of it that
 * took a sequence value before this moment has committed (or rolled back), and any later write takes a
 * bigger value. The lock is held only for the one read.
 */
export async function committedCursor(db: Db, clientId: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FEED_LOCK}::int4, ${clientId}::int4)`);
    const [row] = await queryRows<{ v: string | number }>(tx as unknown as Db, sql`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM ticket_change_seq`);
    return Number(row?.v ?? 0);
  });
}

interface Change {
  seq: number;
  id: string;
  gone: boolean;
}

/** Up to `limit + 1` changes of the account in (since, high], oldest first: live rows, soft and hard deletes. */
async function changesIn(db: Db, clientId: number, since: number, high: number, limit: number): Promise<Change[]> {
  const window = (col: typeof tickets.changeSeq | typeof ticketTombstones.changeSeq) => and(gt(col, since), lte(col, high));
  const written = await db
    .select({ seq: tickets.changeSeq, id: tickets.id, deletedAt: tickets.deletedAt })
    .from(tickets)
    .where(and(eq(tickets.clientId, clientId), window(tickets.changeSeq)))
    .orderBy(asc(tickets.changeSeq))
    .limit(limit + 1);
  const removed = await db
    .select({ seq: ticketTombstones.changeSeq, id: ticketTombstones.ticketId })
    .from(ticketTombstones)
    .where(and(eq(ticketTombstones.clientId, clientId), window(ticketTombstones.changeSeq)))
    .orderBy(asc(ticketTombstones.changeSeq))
    .limit(limit + 1);
  return [
    ...written.map((w) => ({ seq: Number(w.seq), id: w.id, gone: w.deletedAt !== null })),
    ...removed.map((r) => ({ seq: Number(r.seq), id: r.id, gone: true })),
  ]
    .sort((a, b) => a.seq - b.seq)
    .slice(0, limit + 1);
}

/** One page of an account's feed after `since` (a cursor this server handed out: never above the newest). */
export async function changePage(db: Db, clientId: number, since: number, limit: number): Promise<ChangePage> {
  const high = await committedCursor(db, clientId);
  if (since > high) throw fail(400, MSG.badJson);
  const found = await changesIn(db, clientId, since, high, limit);
  const more = found.length > limit;
  const page = found.slice(0, limit);
  // Only each ticket's latest change counts (a ticket deleted and then written again is live).
  const latest = new Map<string, Change>();
  for (const c of page) latest.set(c.id, c);
  const order = [...latest.values()];
  const live = order.filter((c) => !c.gone).map((c) => c.id);
  const byId = new Map((await ticketsById(db, clientId, live)).map((t) => [t.ticket_id, t]));
  return {
    tickets: live.flatMap((id) => byId.get(id) ?? []),
    // A row read as live but deleted before its JSON was read is reported deleted; its tombstone comes next time too.
    deleted: order.filter((c) => c.gone || !byId.has(c.id)).map((c) => c.id),
    cursor: String(more ? page[page.length - 1]!.seq : high),
    more,
  };
}

export function defineChangesRoute(app: Hono<AppEnv>, s: Services, auth: MiddlewareHandler<AppEnv>): void {
  defineRoute(app, {
    method: 'get', path: '/api/v2/tickets/changes', tag: 'Tickets', auth: true, query: ChangesQuery, response: ChangePageResponse, errors: [404],
    summary: 'Cambios de los tickets de un RFC propio después de un cursor (sincronización incremental): los tickets creados o modificados, los ids eliminados y el cursor siguiente; more=true cuando faltan más',
    params: {
      'usuario[rfc_owner]': '*RFC de una cuenta fiscal propia',
      since: '*El cursor de la respuesta anterior, o `latest` para obtener solo el cursor actual (antes de leer un mes completo)',
      limit: `Cambios por página, 1-${FEED_MAX_LIMIT} (${FEED_DEFAULT_LIMIT} si se omite)`,
    },
  }, auth, async (c, { query: q }) => {
    const clientId = await ownClientId(s.db, caller(c).userId, q.usuario.rfc_owner);
    if (q.since === LATEST) return ok(c, { tickets: [], deleted: [], cursor: String(await committedCursor(s.db, clientId)), more: false });
    return ok(c, await changePage(s.db, clientId, Number(q.since), q.limit ?? FEED_DEFAULT_LIMIT));
  });
}
