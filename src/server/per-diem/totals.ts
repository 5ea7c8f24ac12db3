// The spending behind a per-diem event (issue 8 item 4): the type-2 tickets of its collaborator — or, with
// none, of its department's collaborators, or of every collaborator of the company — received between its
// start and end dates (Mexico City days, inclusive). A manager's review (ticket_reviews) splits them:
// 'aprobado' = authorised spending, no review yet = pending; rejected tickets count for neither.
import { sql } from 'drizzle-orm';
import { TICKET_TYPE } from '../../domain/ticket';
import { queryRows, type Db } from '../db/client';
import { tickets } from '../db/schema';
import { ticketReviews } from '../db/schema-company';
import { mexicoCityMidnight } from '../tickets/mexico-time';

export interface EventSpending {
  approved: number;
  pending: number;
}

const ymd = (s: string) => s.split('-').map(Number) as [number, number, number];

/** [00:00 of start, 00:00 of the day after end) in Mexico City. */
export function eventRange(start: string, end: string): { from: Date; to: Date } {
  const [sy, sm, sd] = ymd(start);
  const [ey, em, ed] = ymd(end);
  return { from: mexicoCityMidnight(sy, sm, sd), to: mexicoCityMidnight(ey, em, ed + 1) };
}

/** One event's scope: the tax accounts whose tickets count, and its days. */
export interface EventScope {
  eventId: number;
  clientIds: number[];
  start: string;
  end: string;
}

/**
 * The spending of many events in one query (the list would otherwise ask once per event): each
 * (event, account, range) becomes a row of one JSON parameter, joined to the tickets and their review.
 * Events without tickets are absent from the query's answer and get zeros.
 */
export async function eventsSpending(db: Db, companyId: number, scopes: EventScope[]): Promise<Map<number, EventSpending>> {
  const result = new Map<number, EventSpending>(scopes.map((s) => [s.eventId, { approved: 0, pending: 0 }]));
  const pairs = scopes.flatMap((s) => {
    const { from, to } = eventRange(s.start, s.end);
    return s.clientIds.map((clientId) => ({ event_id: s.eventId, client_id: clientId, from_at: from.toISOString(), to_at: to.toISOString() }));
  });
  if (pairs.length === 0) return result;
  const rows = await queryRows<{ event_id: number; approved: string; pending: string }>(db, sql`
    SELECT s.event_id,
      coalesce(sum(${tickets.amount}) FILTER (WHERE ${ticketReviews.decision} = 'aprobado'), 0) AS approved,
      coalesce(sum(${tickets.amount}) FILTER (WHERE ${ticketReviews.decision} IS NULL), 0) AS pending
    FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS s(event_id int, client_id int, from_at timestamptz, to_at timestamptz)
    JOIN ${tickets} ON ${tickets.clientId} = s.client_id
      AND ${tickets.type} = ${TICKET_TYPE.expense}
      AND ${tickets.deletedAt} IS NULL
      AND ${tickets.receivedAt} >= s.from_at AND ${tickets.receivedAt} < s.to_at
    LEFT JOIN ${ticketReviews} ON ${ticketReviews.ticketId} = ${tickets.id} AND ${ticketReviews.companyClientId} = ${companyId}
    GROUP BY s.event_id`);
  for (const r of rows) result.set(Number(r.event_id), { approved: Number(r.approved), pending: Number(r.pending) });
  return result;
}
