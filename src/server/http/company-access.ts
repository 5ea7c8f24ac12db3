// Who may use a company's endpoints (spec §6): only the owner of the company tax account (the
// manager), and only on a plan with the endpoint's feature (Colaboradores, Gastos or Viaticos). Everyone else is refused the way the house does it:
// an outsider gets 404 (the company does not exist for them), an active collaborator of that company
// gets 403 (they know it exists; they just may not manage it), the owner without the plan gets 403
// MSG.featureLocked. The company's own endpoints, its spending view and its per-diem all ask it.
import { and, eq } from 'drizzle-orm';
import { hasFeature, type Feature } from '../../domain/feature-gates';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { fail } from './errors';

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
