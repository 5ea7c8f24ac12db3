// What a company may read of its collaborators (spec §6): accepting an invitation lets the
// inviting host see the profile, the tax data and the received invoices of the RFC accepted with — never
// passwords, never the collaborator's other RFCs. Only while the collaborator is 'activo', and only for the
// company's manager on a plan with Colaboradores or Gastos (managedCompany's rules, http/company-access.ts).
import { and, eq, isNull } from 'drizzle-orm';
import { hasFeature } from '../../domain/feature-gates';
import { MSG } from '../../domain/messages';
import type { OAuthProfile } from '../../domain/oauth';
import { TICKET_TYPE } from '../../domain/ticket';
import { sharedProfile } from '../lib/account-view';
import type { Db } from '../db/client';
import { clients, receipts, tickets, users } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { fail } from '../http/errors';
import { fileColumns, type ReceiptFileRow } from '../cfdi/receipts';

/** The active collaborator `collaboratorId` of the company `companyClientId`: their profile and the accepted RFC's tax data; 404 otherwise. */
export async function collaboratorProfile(db: Db, companyClientId: number, collaboratorId: number): Promise<OAuthProfile> {
  if (!Number.isSafeInteger(collaboratorId) || collaboratorId <= 0 || collaboratorId > 2_147_483_647) throw fail(404, MSG.notFound);
  const [row] = await db
    .select({ username: users.username, email: users.email, client: clients })
    .from(collaborators)
    .innerJoin(users, eq(users.id, collaborators.userId))
    // The accepted account must still be that user's.
    .innerJoin(clients, and(eq(clients.id, collaborators.clientId), eq(clients.userId, collaborators.userId)))
    .where(and(eq(collaborators.id, collaboratorId), eq(collaborators.companyClientId, companyClientId), eq(collaborators.status, 'activo')))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  return sharedProfile(row, row.client);
}

/**
 * A received invoice (the receipt of a live type-2 ticket) of a tax account that is an active collaborator
 * of a company `userId` manages on a plan with Colaboradores or Gastos; null otherwise.
 */
export async function hostedReceipt(db: Db, userId: number, receiptId: string): Promise<ReceiptFileRow | null> {
  const rows = await db
    .select({ ...fileColumns, rfc: clients.rfc, plan_id: clients.planId, subscription_id: clients.subscriptionId })
    .from(receipts)
    .innerJoin(tickets, and(eq(tickets.receiptId, receipts.id), eq(tickets.clientId, receipts.clientId)))
    .innerJoin(collaborators, and(eq(collaborators.clientId, tickets.clientId), eq(collaborators.status, 'activo')))
    .innerJoin(clients, eq(clients.id, collaborators.companyClientId))
    .where(and(eq(receipts.id, receiptId), eq(clients.userId, userId), eq(tickets.type, TICKET_TYPE.expense), isNull(tickets.deletedAt)));
  const allowed = rows.find((r) => hasFeature('Colaboradores', r) || hasFeature('Gastos', r));
  if (!allowed) return null;
  const { rfc: _rfc, plan_id: _plan, subscription_id: _sub, ...file } = allowed;
  return file;
}
