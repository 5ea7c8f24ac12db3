// Reads of the company expense view (spec §2 'Gastos por colaborador de {month}', §7 'Company tickets' and
// 'Company stats', §9 'Otros'): the month's type-2 tickets of the company's active collaborators, and the
// approved spending as SQL aggregates — per month of the year, by department, top categories and venues.
import { and, count, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { NO_DEPARTMENT, type CompanyStats } from '../../domain/company';
import { UNCATEGORIZED_LABEL } from '../../domain/categories';
import { MANUAL_COMPANY_ID, TICKET_TYPE, type Ticket } from '../../domain/ticket';
import type { Db } from '../db/client';
import { clients, companies, metaTags, receipts, tickets } from '../db/schema';
import { collaborators, companyAreas } from '../db/schema-company';
import { monthRange } from '../../domain/mexico-time';
import { ticketQuery, toTicket } from '../lib/ticket-json';

/** Status id of 'aprobado' (domain/ticket.ts TICKET_STATUS). */
export const APPROVED_STATUS = 6;
export const REJECTED_STATUS = 7;
/** Top lists show 5 (spec §9). */
const TOP = 5;

/** The join that limits tickets to those of the company's active collaborators' tax accounts. */
const ofCompany = (companyClientId: number) =>
  and(eq(collaborators.clientId, tickets.clientId), eq(collaborators.companyClientId, companyClientId), eq(collaborators.status, 'activo'));

const liveExpenses = (from: Date, to: Date) =>
  and(eq(tickets.type, TICKET_TYPE.expense), gte(tickets.receivedAt, from), lt(tickets.receivedAt, to), isNull(tickets.deletedAt));

export interface TicketPage {
  tickets: (Ticket & { user_name: string })[];
  /** All the month's tickets of the collaborators (for the pager). */
  total: number;
  page: number;
  per_page: number;
}

/** The name a manager knows a collaborator by (the invitation's), never blank: the username when both parts are. */
export const collaboratorName = (first: string, last: string, username: string) => `${first.trim()} ${last.trim()}`.trim() || username;

/** One page of the month's type-2 tickets of the company's collaborators, newest first, with username, user_name and user_area. */
export async function companyTickets(db: Db, companyClientId: number, year: number, month: number, page = 1, perPage = 50): Promise<TicketPage> {
  const { from, to } = monthRange(year, month);
  // The page's ids first, from a narrow sort (tickets × collaborators only), then the full rows of those ids:
  // the wide joins of ticketQuery run for one page, not for the whole month.
  const narrow = () => db.select({ id: tickets.id }).from(tickets);
  const inCompanyMonth = (q: ReturnType<typeof narrow>) => q.innerJoin(collaborators, ofCompany(companyClientId)).where(liveExpenses(from, to));
  const [pageIds, [counted], areas] = await Promise.all([
    inCompanyMonth(narrow())
      .orderBy(desc(tickets.receivedAt), desc(tickets.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(tickets).innerJoin(collaborators, ofCompany(companyClientId)).where(liveExpenses(from, to)),
    // ticketQuery's selection is fixed; the department and the name come from a second, small read (one row per collaborator).
    db
      .select({ rfc: clients.rfc, area: companyAreas.area, firstName: collaborators.firstName, lastName: collaborators.lastName })
      .from(collaborators)
      .innerJoin(clients, eq(clients.id, collaborators.clientId))
      .leftJoin(companyAreas, eq(companyAreas.id, collaborators.areaId))
      .where(and(eq(collaborators.companyClientId, companyClientId), eq(collaborators.status, 'activo'))),
  ]);
  const rows = pageIds.length
    ? await ticketQuery(db)
        .where(inArray(tickets.id, pageIds.map((r) => r.id)))
        .orderBy(desc(tickets.receivedAt), desc(tickets.id))
    : [];
  const byRfc = new Map(areas.map((a) => [a.rfc, a]));
  return {
    tickets: rows.map((r) => {
      const { invoice: _invoice, ...t } = toTicket(r);
      const who = byRfc.get(t.rfc);
      return { ...t, user_area: who?.area ?? '', user_name: who ? collaboratorName(who.firstName, who.lastName, t.username) : t.username };
    }),
    total: Number(counted?.n ?? 0),
    page,
    per_page: perPage,
  };
}

const money = (s: string | null | undefined) => Math.round(Number(s ?? 0) * 100) / 100;

/** Approved spending of the company's collaborators (spec §2 charts and summary), all as SQL aggregates. */
export async function companyStats(db: Db, companyClientId: number, year: number, month: number): Promise<CompanyStats> {
  const approved = eq(tickets.statusId, APPROVED_STATUS);
  const ranges = Array.from({ length: 12 }, (_, i) => monthRange(year, i + 1));
  const perMonth = ranges.map(
    (r, i) => sql<string | null>`sum(${tickets.amount}) filter (where ${tickets.receivedAt} >= ${r.from.toISOString()}::timestamptz and ${tickets.receivedAt} < ${r.to.toISOString()}::timestamptz)`.as(`m${i + 1}`),
  );
  const yearRows = db
    .select(Object.fromEntries(perMonth.map((c, i) => [`m${i + 1}`, c])) as Record<string, typeof perMonth[number]>)
    .from(tickets)
    .innerJoin(collaborators, ofCompany(companyClientId))
    .where(and(liveExpenses(ranges[0]!.from, ranges[11]!.to), approved));

  const { from, to } = monthRange(year, month);
  // The month's three breakdowns in ONE scan: GROUPING SETS by department, category and venue (by position:
  // a label's parameters would differ between SELECT and GROUP BY). In each row the other two labels are null.
  const department = sql<string | null>`coalesce(${companyAreas.area}, ${NO_DEPARTMENT})`;
  const category = sql<string | null>`coalesce(${metaTags.metaTag}, ${UNCATEGORIZED_LABEL})`;
  // Venue: the CFDI issuer's name, else the supported company's (as the personal analytics do). A manual
  // entry is no establishment: null here, so its venue row (all three labels null) is dropped below.
  const venue = sql<string | null>`case when ${tickets.companyId} = ${MANUAL_COMPANY_ID} and ${tickets.receiptId} is null then null else coalesce(nullif(${receipts.nameIssuer}, ''), ${companies.name}) end`;
  const breakdownRows = db
    .select({ department, category, venue, value: sql<string>`sum(${tickets.amount})::text` })
    .from(tickets)
    .innerJoin(collaborators, ofCompany(companyClientId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(companyAreas, eq(companyAreas.id, collaborators.areaId))
    .leftJoin(metaTags, eq(metaTags.id, tickets.metaTagId))
    .leftJoin(receipts, eq(receipts.id, tickets.receiptId))
    .where(and(liveExpenses(from, to), approved))
    .groupBy(sql`grouping sets ((1), (2), (3))`);

  const [[yearRow], breakdown] = await Promise.all([yearRows, breakdownRows]);
  const byValue = (a: { label: string; value: number }, b: { label: string; value: number }) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  const departments: { label: string; value: number }[] = [];
  const categories: { label: string; value: number }[] = [];
  const venues: { label: string; value: number }[] = [];
  for (const r of breakdown) {
    const value = money(r.value);
    if (r.department !== null) departments.push({ label: r.department, value });
    else if (r.category !== null) categories.push({ label: r.category, value });
    else if (r.venue !== null) venues.push({ label: r.venue, value });
  }
  return {
    monthly: Array.from({ length: 12 }, (_, i) => ({
      month: `${year}-${String(i + 1).padStart(2, '0')}`,
      sum: money((yearRow as Record<string, string | null> | undefined)?.[`m${i + 1}`]),
    })),
    departments: departments.sort(byValue),
    categories: categories.sort(byValue).slice(0, TOP),
    venues: venues.sort(byValue).slice(0, TOP),
  };
}
