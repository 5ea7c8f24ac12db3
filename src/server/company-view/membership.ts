// The collaborator's side of the company tier: which companies the caller works for (the invitations they
// accepted and that are still active), with the RFC they share, their department and who authorizes their
// spending — so the dashboard and the Empresa screens can say it instead of showing a plan advert.
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Collaboration } from '../../domain/company';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { collaborators, companyAreas } from '../db/schema-company';
import { collaboratorName } from './queries';


const host = alias(clients, 'host');
const shared = alias(clients, 'shared');
const authorizer = alias(collaborators, 'authorizer');

/** The caller's active collaborations, oldest first; an empty list for everyone else. */
export async function collaborationsOf(db: Db, userId: number): Promise<Collaboration[]> {
  const rows = await db
    .select({
      hostName: host.name,
      hostRfc: host.rfc,
      rfc: shared.rfc,
      area: companyAreas.area,
      authFirst: authorizer.firstName,
      authLast: authorizer.lastName,
      acceptedAt: collaborators.acceptedAt,
    })
    .from(collaborators)
    .innerJoin(host, eq(host.id, collaborators.companyClientId))
    // The shared account must still be the caller's (as the company's reads require).
    .innerJoin(shared, and(eq(shared.id, collaborators.clientId), eq(shared.userId, userId)))
    .leftJoin(companyAreas, eq(companyAreas.id, collaborators.areaId))
    .leftJoin(authorizer, eq(authorizer.id, collaborators.authorizerId))
    .where(and(eq(collaborators.userId, userId), eq(collaborators.status, 'activo')))
    .orderBy(asc(collaborators.id));
  return rows.map((r) => ({
    company_name: r.hostName?.trim() || r.hostRfc,
    company_rfc: r.hostRfc,
    rfc: r.rfc,
    area: r.area ?? '',
    authorizer: r.authFirst !== null ? collaboratorName(r.authFirst, r.authLast ?? '', '') : '',
    since: r.acceptedAt ? r.acceptedAt.toISOString() : null,
  }));
}
