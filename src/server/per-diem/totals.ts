// The spending behind a per-diem event: the type-2 tickets of its collaborator — or, with
// none, of its department's collaborators, or of every collaborator of the company — received between its
// start and end dates (Mexico City days, inclusive). A manager's review (ticket_reviews) splits them:
// 'aprobado' = authorised spending, no review yet = pending; rejected tickets count for neither.
import { sql } from 'drizzle-orm';
import { TICKET_TYPE } from '../../domain/ticket';
import { queryRows, type Db } from '../db/client';
import { tickets } from '../db/schema';
import { ticketReviews } from '../db/schema-company';
import { mexicoCityMidnight } from '../../domain/mexico-time';

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

const cents = (n: number) => Math.round(n * 100) / 100;

/** One event's scope: the tax accounts whose tickets count, and its days. */
export interface EventScope {
  eventId: number;
  clientIds: number[];
  start: string;
  end: string;
}

/**
 * The spending of many events at once (the list would otherwise ask once per event, and events of the
 * whole company would each re-read the same tickets). Two reductions keep it one light query:
 * - time: the events' start and end instants cut it into slices (width_bucket, so no time-zone work per
 *   ticket); an event spans whole slices;
 * - accounts: those counted by exactly the same events form one group (e.g. a department's members
 *   that no event names alone); an event counts whole groups.
 * The query sums the tickets by (group, slice); each event adds up its groups' slices.
 */
export async function eventsSpending(db: Db, companyId: number, scopes: EventScope[]): Promise<Map<number, EventSpending>> {
  const result = new Map<number, EventSpending>(scopes.map((s) => [s.eventId, { approved: 0, pending: 0 }]));
  const counted = scopes.filter((s) => s.clientIds.length > 0).map((s) => ({ ...s, ...eventRange(s.start, s.end), groups: [] as number[] }));
  if (counted.length === 0) return result;
  const cuts = [...new Set(counted.flatMap((s) => [s.from.getTime(), s.to.getTime()]))].sort((a, b) => a - b);
  // Slice k (1 … cuts.length - 1) is [cuts[k - 1], cuts[k]); 0 and cuts.length are outside every event.
  const thresholds = `{${cuts.map((t) => `"${new Date(t).toISOString()}"`).join(',')}}`;
  const eventsOf = new Map<number, number[]>();
  counted.forEach((s, i) => {
    for (const clientId of new Set(s.clientIds)) eventsOf.set(clientId, [...(eventsOf.get(clientId) ?? []), i]);
  });
  const groupIds = new Map<string, number>();
  const members: { client_id: number; grp: number }[] = [];
  for (const [clientId, events] of eventsOf) {
    const key = events.join(',');
    let grp = groupIds.get(key);
    if (grp === undefined) {
      groupIds.set(key, (grp = groupIds.size));
      for (const i of events) counted[i]!.groups.push(grp);
    }
    members.push({ client_id: clientId, grp });
  }
  const rows = await queryRows<{ grp: number; slice: number; approved: string; pending: string }>(db, sql`
    SELECT m.grp,
      width_bucket(${tickets.receivedAt}, ${thresholds}::timestamptz[]) AS slice,
      coalesce(sum(${tickets.amount}) FILTER (WHERE ${ticketReviews.decision} = 'aprobado'), 0) AS approved,
      coalesce(sum(${tickets.amount}) FILTER (WHERE ${ticketReviews.decision} IS NULL), 0) AS pending
    FROM jsonb_to_recordset(${JSON.stringify(members)}::jsonb) AS m(client_id int, grp int)
    JOIN ${tickets} ON ${tickets.clientId} = m.client_id
    LEFT JOIN ${ticketReviews} ON ${ticketReviews.ticketId} = ${tickets.id} AND ${ticketReviews.companyClientId} = ${companyId}
    WHERE ${tickets.type} = ${TICKET_TYPE.expense}
      AND ${tickets.deletedAt} IS NULL
      AND ${tickets.receivedAt} >= ${new Date(cuts[0]!).toISOString()}::timestamptz
      AND ${tickets.receivedAt} < ${new Date(cuts.at(-1)!).toISOString()}::timestamptz
    GROUP BY 1, 2`);
  // Approved and pending of every (group, slice), side by side.
  const cells = new Float64Array(groupIds.size * cuts.length * 2);
  const at = (grp: number, slice: number) => (grp * cuts.length + slice) * 2;
  for (const r of rows) {
    cells[at(Number(r.grp), Number(r.slice))] = Number(r.approved);
    cells[at(Number(r.grp), Number(r.slice)) + 1] = Number(r.pending);
  }
  for (const s of counted) {
    const first = cuts.indexOf(s.from.getTime()) + 1;
    const last = cuts.indexOf(s.to.getTime());
    let approved = 0;
    let pending = 0;
    for (const grp of s.groups) {
      for (let k = first; k <= last; k++) {
        approved += cells[at(grp, k)]!;
        pending += cells[at(grp, k) + 1]!;
      }
    }
    result.set(s.eventId, { approved: cents(approved), pending: cents(pending) });
  }
  return result;
}
