// The spending behind a per-diem event (issue 8 item 4): the type-2 tickets of its collaborator — or, with
// none, of its department's collaborators, or of every collaborator of the company — received between its
// start and end dates (Mexico City days, inclusive). A manager's review (ticket_reviews) splits them:
// 'aprobado' = authorised spending, no review yet = pending; rejected tickets count for neither.
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { TICKET_TYPE } from '../../domain/ticket';
import type { Db } from '../db/client';
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

export async function eventSpending(db: Db, companyId: number, clientIds: number[], start: string, end: string): Promise<EventSpending> {
  if (clientIds.length === 0) return { approved: 0, pending: 0 };
  const { from, to } = eventRange(start, end);
  const [row] = await db
    .select({
      approved: sql<string>`coalesce(sum(${tickets.amount}) filter (where ${ticketReviews.decision} = 'aprobado'), 0)`,
      pending: sql<string>`coalesce(sum(${tickets.amount}) filter (where ${ticketReviews.decision} is null), 0)`,
    })
    .from(tickets)
    .leftJoin(ticketReviews, and(eq(ticketReviews.ticketId, tickets.id), eq(ticketReviews.companyClientId, companyId)))
    .where(
      and(
        inArray(tickets.clientId, clientIds),
        eq(tickets.type, TICKET_TYPE.expense),
        isNull(tickets.deletedAt),
        gte(tickets.receivedAt, from),
        lt(tickets.receivedAt, to),
      ),
    );
  return { approved: Number(row?.approved ?? 0), pending: Number(row?.pending ?? 0) };
}
