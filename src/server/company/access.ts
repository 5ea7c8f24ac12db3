// Who may use a company's endpoints (spec §6): only the owner of the company tax account (the
// manager), and only on a plan with the endpoint's feature (Colaboradores, Gastos or Viaticos). Everyone else is refused the way the house does it:
// an outsider gets 404 (the company does not exist for them), an active collaborator of that company
// gets 403 (they know it exists; they just may not manage it), the owner without the plan gets 403
// MSG.featureLocked. Also the helpers other parts read: which tax accounts a company may see.
import { and, count, eq, inArray } from 'drizzle-orm';
import { hasFeature, type Feature } from '../../domain/feature-gates';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { fail } from '../http/errors';
import type { CollaboratorCounter } from '../plans/pricing';

export interface Company {
  id: number;
  rfc: string;
  name: string | null;
}

/** The company `clientId` when `userId` manages it on a plan with `feature`; throws 404 / 403 otherwise (see above). */
export async function managedCompany(db: Db, userId: number, clientId: number, feature: Feature = 'Colaboradores'): Promise<Company> {
  if (!Number.isSafeInteger(clientId) || clientId <= 0 || clientId > 2_147_483_647) throw fail(404, MSG.notFound);
  const [row] = await db
    .select({ id: clients.id, userId: clients.userId, rfc: clients.rfc, name: clients.name, plan_id: clients.planId, subscription_id: clients.subscriptionId })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  if (row.userId !== userId) {
    const [member] = await db
      .select({ id: collaborators.id })
      .from(collaborators)
      .where(and(eq(collaborators.companyClientId, clientId), eq(collaborators.userId, userId), eq(collaborators.status, 'activo')))
      .limit(1);
    throw member ? fail(403, MSG.forbidden) : fail(404, MSG.notFound);
  }
  if (!hasFeature(feature, row)) throw fail(403, MSG.featureLocked);
  return { id: row.id, rfc: row.rfc, name: row.name };
}

/**
 * The tax accounts (clients.id) whose profile, tax data and received invoices the company may read
 * (spec §6): those its active collaborators accepted the invitation with.
 */
export async function collaboratorClientIds(db: Db, companyClientId: number): Promise<number[]> {
  const rows = await db
    .select({ clientId: collaborators.clientId })
    .from(collaborators)
    .where(and(eq(collaborators.companyClientId, companyClientId), eq(collaborators.status, 'activo')));
  return [...new Set(rows.flatMap((r) => (r.clientId === null ? [] : [r.clientId])))];
}

/** Billing (spec §9): 'activo' collaborators per company account, for the plan's price. */
export function activeCollaboratorCounter(db: Db): CollaboratorCounter {
  return async (clientIds) => {
    const out = new Map<number, number>();
    if (clientIds.length === 0) return out;
    const rows = await db
      .select({ id: collaborators.companyClientId, n: count() })
      .from(collaborators)
      .where(and(inArray(collaborators.companyClientId, [...clientIds]), eq(collaborators.status, 'activo')))
      .groupBy(collaborators.companyClientId);
    for (const r of rows) out.set(r.id, Number(r.n));
    return out;
  };
}
