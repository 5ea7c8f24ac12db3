// Server side of the feature gates (spec §6): a gated endpoint answers 403 in Spanish unless the caller's
// tax account has the feature. The account is named by id or RFC, wherever the endpoint carries it.
import { and, eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { hasFeature, type Feature } from '../../domain/feature-gates';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { caller, requireAuth } from './auth';
import { fail } from './errors';

export type AccountRef = { clientId: number } | { rfc: string };

/** Throws 404 when the account is not the user's, 403 when its plan lacks the feature. */
export async function assertFeature(db: Db, userId: number, ref: AccountRef, feature: Feature): Promise<void> {
  const where =
    'clientId' in ref
      ? and(eq(clients.id, ref.clientId), eq(clients.userId, userId))
      : and(eq(clients.rfc, ref.rfc.trim().toUpperCase()), eq(clients.userId, userId));
  const [row] = await db
    .select({ plan_id: clients.planId, rfc: clients.rfc, subscription_id: clients.subscriptionId })
    .from(clients)
    .where(where)
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  if (!hasFeature(feature, row)) throw fail(403, MSG.featureLocked);
}

/**
 * Middleware for a gated route: authenticates, then checks the account `refOf` reads from the request
 * (null = the request names no account: 404).
 */
export function requireFeature(
  s: Services,
  feature: Feature,
  refOf: (c: Context<AppEnv>) => AccountRef | null,
): MiddlewareHandler<AppEnv> {
  const auth = requireAuth(s);
  return async (c, next) => {
    await auth(c, async () => undefined);
    const ref = refOf(c);
    if (!ref) throw fail(404, MSG.notFound);
    await assertFeature(s.db, caller(c).userId, ref, feature);
    return next();
  };
}
