// Who may use the company expense view (spec §6: only the manager view has Aprobar / Rechazar): the owner
// of the company tax account, on a plan with Gastos. Same refusals as the rest of the company tier
// (http/company-access.ts): outsider 404, an active collaborator 403, the owner without the plan 403.
import { and, eq } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import { managedCompany, type Company } from '../http/company-access';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { fail } from '../http/errors';

/** The company `clientId` when `userId` manages it and its plan has Gastos. */
export const gastosCompany = (db: Db, userId: number, clientId: number): Promise<Company> => managedCompany(db, userId, clientId, 'Gastos');

/**
 * The company named by its RFC (the GET endpoints' usuario[rfc_owner]): the caller's own tax account with
 * that RFC; else, when the caller is an active collaborator of a company with that RFC, 403; else 404.
 */
export async function gastosCompanyByRfc(db: Db, userId: number, rawRfc: string): Promise<Company> {
  const rfc = normalizeRfc(rawRfc);
  const [own] = await db.select({ id: clients.id }).from(clients).where(and(eq(clients.rfc, rfc), eq(clients.userId, userId))).limit(1);
  if (own) return gastosCompany(db, userId, own.id);
  const [member] = await db
    .select({ id: collaborators.id })
    .from(collaborators)
    .innerJoin(clients, eq(clients.id, collaborators.companyClientId))
    .where(and(eq(clients.rfc, rfc), eq(collaborators.userId, userId), eq(collaborators.status, 'activo')))
    .limit(1);
  throw member ? fail(403, MSG.forbidden) : fail(404, MSG.notFound);
}
