// The collaborators a company plan is priced by (spec §9), counted from the company tier's table.
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { collaborators } from '../db/schema-company';
import type { CollaboratorCounter } from './pricing';

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
