// 'Aprobar' / 'Rechazar' (spec §4 aprobado / rechazado, §7 'Mark as paid / rejected', §8): one set-based
// UPDATE of many tickets plus one upsert of their reviews, in a transaction. Every id must be a live type-2
// ticket of an active collaborator of the company, or nothing changes and the answer is 404.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { TICKET_TYPE } from '../../domain/ticket';
import type { Db } from '../db/client';
import { tickets } from '../db/schema';
import { collaborators, ticketReviews } from '../db/schema-company';
import { fail } from '../http/errors';
import { APPROVED_STATUS, REJECTED_STATUS } from './queries';

export type Decision = 'aprobado' | 'rechazado';

export interface ReviewInput {
  companyClientId: number;
  reviewerId: number;
  ticketIds: readonly string[];
  decision: Decision;
  /** Required for a rejection (checked by the body schema); ignored for an approval. */
  reason: string | null;
  now: Date;
}

/** Which company's collaborators own these tickets, among the companies `userId` owns (for bodies without client_id). */
export async function companyOfTickets(db: Db, ownedCompanyIds: readonly number[], ticketIds: readonly string[]): Promise<number | null> {
  if (ownedCompanyIds.length === 0) return null;
  const [row] = await db
    .select({ id: collaborators.companyClientId })
    .from(tickets)
    .innerJoin(collaborators, and(eq(collaborators.clientId, tickets.clientId), eq(collaborators.status, 'activo'), inArray(collaborators.companyClientId, [...ownedCompanyIds])))
    .where(inArray(tickets.id, [ticketIds[0]!]))
    .limit(1);
  return row?.id ?? null;
}

/** Reviews the tickets; returns how many changed. Throws 404 (and changes nothing) if any is not the company's. */
export async function reviewTickets(db: Db, input: ReviewInput): Promise<number> {
  const ids = [...new Set(input.ticketIds.map((id) => id.toLowerCase()))];
  return db.transaction(async (tx) => {
    const owned = tx
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(collaborators, and(eq(collaborators.clientId, tickets.clientId), eq(collaborators.companyClientId, input.companyClientId), eq(collaborators.status, 'activo')))
      .where(and(inArray(tickets.id, ids), eq(tickets.type, TICKET_TYPE.expense), isNull(tickets.deletedAt)));
    const updated = await tx
      .update(tickets)
      .set({ statusId: input.decision === 'aprobado' ? APPROVED_STATUS : REJECTED_STATUS, updatedAt: input.now })
      .where(inArray(tickets.id, owned))
      .returning({ id: tickets.id });
    // Not all the company's: roll the update back (the transaction throws) — nothing changes.
    if (updated.length !== ids.length) throw fail(404, MSG.notFound);
    const reason = input.decision === 'rechazado' ? input.reason : null;
    await tx
      .insert(ticketReviews)
      .values(ids.map((ticketId) => ({ ticketId, companyClientId: input.companyClientId, decision: input.decision, reason, reviewedBy: input.reviewerId, reviewedAt: input.now })))
      .onConflictDoUpdate({
        target: ticketReviews.ticketId,
        set: {
          companyClientId: sql`excluded.company_client_id`,
          decision: sql`excluded.decision`,
          reason: sql`excluded.reason`,
          reviewedBy: sql`excluded.reviewed_by`,
          reviewedAt: sql`excluded.reviewed_at`,
        },
      });
    return updated.length;
  });
}
