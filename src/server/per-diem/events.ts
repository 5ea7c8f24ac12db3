// Per-diem (viáticos) events of a company, stored on the server (spec §3, §4, §5):
// list (newest first), create (checkPerDiem against Mexico City's today), approve (open → approved) and
// close (approved → closed, freezing authorised = deposit vs spent = the event's tickets then).
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { checkPerDiem, nextPerDiemStatus, type PerDiemEventDetail, type PerDiemOptions, type PerDiemStatus } from '../../domain/company';
import { mexicoCityToday } from '../../domain/mexico-time';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { collaborators, companyAreas, perDiemEvents } from '../db/schema-company';
import { fail } from '../http/errors';
import type { PerDiemBodyOut } from './schemas';
import { eventsSpending, type EventScope, type EventSpending } from './totals';

/** A real calendar day (2026-02-30 is not). */
const realDay = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

interface Member {
  id: number;
  name: string;
  areaId: number | null;
  clientId: number | null;
  status: string;
}

async function members(db: Db, companyId: number): Promise<Member[]> {
  return db
    .select({
      id: collaborators.id,
      name: sql<string>`${collaborators.firstName} || ' ' || ${collaborators.lastName}`,
      areaId: collaborators.areaId,
      clientId: collaborators.clientId,
      status: collaborators.status,
    })
    .from(collaborators)
    .where(eq(collaborators.companyClientId, companyId))
    .orderBy(asc(collaborators.firstName), asc(collaborators.lastName), asc(collaborators.id));
}

/** The tax accounts whose tickets count for an event: its collaborator, else its department's, else all. */
function accountsOf(all: Member[], collaboratorId: number | null, areaId: number | null): number[] {
  const active = all.filter((m) => m.status === 'activo' && m.clientId !== null);
  const chosen = collaboratorId !== null ? active.filter((m) => m.id === collaboratorId) : areaId !== null ? active.filter((m) => m.areaId === areaId) : active;
  return [...new Set(chosen.map((m) => m.clientId as number))];
}

type Row = typeof perDiemEvents.$inferSelect;

const money = (s: string | null) => (s === null ? null : Number(s));

const scopeOf = (row: Row, all: Member[]): EventScope => ({
  eventId: row.id,
  clientIds: accountsOf(all, row.collaboratorId, row.areaId),
  start: row.startDate,
  end: row.endDate,
});

/** The spending of one event (one query); the list asks for all its events at once. */
async function spendingOf(db: Db, companyId: number, row: Row, all: Member[]): Promise<EventSpending> {
  return (await eventsSpending(db, companyId, [scopeOf(row, all)])).get(row.id)!;
}

function detail(row: Row, spending: EventSpending, all: Member[], areaNames: Map<number, string>): PerDiemEventDetail {
  return {
    id: row.id,
    status: row.status as PerDiemStatus,
    start_date: row.startDate,
    end_date: row.endDate,
    area: row.areaId === null ? null : (areaNames.get(row.areaId) ?? null),
    area_id: row.areaId,
    username: row.collaboratorId === null ? null : (all.find((m) => m.id === row.collaboratorId)?.name ?? null),
    collaborator_id: row.collaboratorId,
    event_name: row.eventName,
    deposit: Number(row.deposit),
    authorized_spending: spending.approved,
    spending_pending_of_authorization_: spending.pending,
    notes: row.notes,
    authorized_total: money(row.authorizedTotal),
    spent_total: money(row.spentTotal),
    closed_at: row.closedAt ? row.closedAt.toISOString() : null,
  };
}

async function areaMap(db: Db, companyId: number): Promise<Map<number, string>> {
  const rows = await db.select({ id: companyAreas.id, area: companyAreas.area }).from(companyAreas).where(eq(companyAreas.companyClientId, companyId));
  return new Map(rows.map((r) => [r.id, r.area]));
}

export async function listPerDiemEvents(db: Db, companyId: number): Promise<PerDiemEventDetail[]> {
  const rows = await db
    .select()
    .from(perDiemEvents)
    .where(eq(perDiemEvents.companyClientId, companyId))
    .orderBy(desc(perDiemEvents.createdAt), desc(perDiemEvents.id));
  if (rows.length === 0) return [];
  const [all, areas] = await Promise.all([members(db, companyId), areaMap(db, companyId)]);
  const spending = await eventsSpending(db, companyId, rows.map((r) => scopeOf(r, all)));
  return rows.map((r) => detail(r, spending.get(r.id)!, all, areas));
}

export async function perDiemOptions(db: Db, companyId: number): Promise<PerDiemOptions> {
  const [all, areas] = await Promise.all([
    members(db, companyId),
    db.select({ id: companyAreas.id, area: companyAreas.area }).from(companyAreas).where(eq(companyAreas.companyClientId, companyId)).orderBy(asc(companyAreas.area), asc(companyAreas.id)),
  ]);
  return { areas, collaborators: all.filter((m) => m.status !== 'inactivo').map((m) => ({ id: m.id, name: m.name, area_id: m.areaId })) };
}

export async function createPerDiemEvent(db: Db, companyId: number, input: PerDiemBodyOut, now: Date): Promise<PerDiemEventDetail> {
  const problem = checkPerDiem(input, mexicoCityToday(now));
  if (problem) throw fail(422, problem);
  if (!realDay(input.start_date)) throw fail(422, MSG.perDiemStartRequired);
  const end = input.end_date || input.start_date;
  if (!realDay(end)) throw fail(422, MSG.perDiemEndBeforeStart);
  const [all, areas] = await Promise.all([members(db, companyId), areaMap(db, companyId)]);
  if (input.area_id !== null && !areas.has(input.area_id)) throw fail(422, MSG.perDiemAreaInvalid);
  if (input.collaborator_id !== null && !all.some((m) => m.id === input.collaborator_id)) throw fail(422, MSG.perDiemCollaboratorInvalid);
  const [row] = await db
    .insert(perDiemEvents)
    .values({
      companyClientId: companyId,
      eventName: input.event_name.trim(),
      startDate: input.start_date,
      endDate: end,
      areaId: input.area_id,
      collaboratorId: input.collaborator_id,
      deposit: input.deposit.trim(),
      notes: input.notes.trim(),
      createdAt: now,
    })
    .returning();
  return detail(row!, await spendingOf(db, companyId, row!, all), all, areas);
}

async function eventOf(db: Db, companyId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(perDiemEvents)
    .where(and(eq(perDiemEvents.id, id), eq(perDiemEvents.companyClientId, companyId)))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  return row;
}

/** Open → approved; anything else 409. The update is guarded by the status, so two clicks approve once. */
export async function approvePerDiemEvent(db: Db, companyId: number, id: number): Promise<PerDiemEventDetail> {
  const row = await eventOf(db, companyId, id);
  if (nextPerDiemStatus(row.status as PerDiemStatus, 'approve') === null) throw fail(409, MSG.perDiemNotOpen);
  const [updated] = await db
    .update(perDiemEvents)
    .set({ status: 'approved' })
    .where(and(eq(perDiemEvents.id, id), eq(perDiemEvents.status, 'open')))
    .returning();
  if (!updated) throw fail(409, MSG.perDiemNotOpen);
  const [all, areas] = await Promise.all([members(db, companyId), areaMap(db, companyId)]);
  return detail(updated, await spendingOf(db, companyId, updated, all), all, areas);
}

/** Approved → closed, freezing authorised (the deposit) vs spent (approved + pending tickets now). */
export async function closePerDiemEvent(db: Db, companyId: number, id: number, now: Date): Promise<PerDiemEventDetail> {
  const row = await eventOf(db, companyId, id);
  if (nextPerDiemStatus(row.status as PerDiemStatus, 'close') === null) throw fail(409, MSG.perDiemNotApproved);
  const [all, areas] = await Promise.all([members(db, companyId), areaMap(db, companyId)]);
  const spending = await spendingOf(db, companyId, row, all);
  const spent = Math.round((spending.approved + spending.pending) * 100) / 100;
  const [updated] = await db
    .update(perDiemEvents)
    .set({ status: 'closed', authorizedTotal: row.deposit, spentTotal: spent.toFixed(2), closedAt: now })
    .where(and(eq(perDiemEvents.id, id), eq(perDiemEvents.status, 'approved')))
    .returning();
  if (!updated) throw fail(409, MSG.perDiemNotApproved);
  return detail(updated, spending, all, areas);
}

