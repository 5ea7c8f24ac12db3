// Cancelling a paid plan from the profile: nothing is refunded and nothing changes at once. The plan runs
// to the end of the period already paid, the renewal job charges it no more, and at that date the account
// falls to the free plan (renewals.ts endCancelledPeriods). Until then the owner can change their mind.
import { and, eq, gt } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { APP_STORE_PLAN_ID, FREE_PLAN_ID, type SubscriptionState, type SubscriptionStatus } from '../../domain/plans';
import type { Db } from '../db/client';
import { clients, subscriptions } from '../db/schema';
import { fail } from '../http/errors';

/** The subscription's status column: 'canceling' = cancelled by its owner, still paid until current_period_end. */
export const CANCELING = 'canceling';

export const CANCEL_MSG = {
  nothingToCancel: 'Tu cuenta está en el plan Gratuito: no hay un plan de pago que cancelar.',
  cannotResume: 'Tu plan ya terminó. Para volver a tenerlo, contrátalo de nuevo en Planes.',
} as const;


const STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'canceling', 'canceled'];

/** The caller's own account and its web subscription; 404 for anyone else's (or no) account. */
async function ownAccount(db: Db, userId: number, clientId: number) {
  if (!Number.isSafeInteger(clientId) || clientId <= 0) throw fail(404, MSG.notFound);
  const [row] = await db
    .select({ id: clients.id, planId: clients.planId, subStatus: subscriptions.status, periodEnd: subscriptions.currentPeriodEnd })
    .from(clients)
    .leftJoin(subscriptions, eq(subscriptions.clientId, clients.id))
    .where(and(eq(clients.id, clientId), eq(clients.userId, userId)))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  return row;
}

export async function subscriptionState(db: Db, userId: number, clientId: number): Promise<SubscriptionState> {
  const row = await ownAccount(db, userId, clientId);
  const status = STATUSES.find((s) => s === row.subStatus) ?? 'none';
  const paid = status !== 'none' && status !== 'canceled';
  return {
    client_id: row.id,
    plan_id: row.planId,
    status,
    current_period_end: paid && row.periodEnd ? row.periodEnd.toISOString() : null,
    cancel_at_period_end: status === CANCELING,
  };
}

/**
 * Cancels at the end of the paid period. Idempotent: a plan already cancelled (or already ended) answers
 * its state again. A renewal that already failed (past_due, in grace) has no paid period left: it ends now.
 */
export async function cancelSubscription(db: Db, userId: number, clientId: number, now: Date): Promise<SubscriptionState> {
  const row = await ownAccount(db, userId, clientId);
  if (row.planId === APP_STORE_PLAN_ID) throw fail(422, MSG.appStorePlan);
  if (row.subStatus === 'active') {
    await db
      .update(subscriptions)
      .set({ status: CANCELING, updatedAt: now })
      .where(and(eq(subscriptions.clientId, row.id), eq(subscriptions.status, 'active')));
  } else if (row.subStatus === 'past_due') {
    await db.transaction(async (tx) => {
      const ended = await tx
        .update(subscriptions)
        .set({ status: 'canceled', graceUntil: null, updatedAt: now })
        .where(and(eq(subscriptions.clientId, row.id), eq(subscriptions.status, 'past_due')))
        .returning({ id: subscriptions.id });
      if (ended.length) await tx.update(clients).set({ planId: FREE_PLAN_ID, activeUntil: null }).where(eq(clients.id, row.id));
    });
  } else if (row.subStatus !== CANCELING && row.subStatus !== 'canceled') {
    throw fail(422, CANCEL_MSG.nothingToCancel);
  }
  return subscriptionState(db, userId, clientId);
}

/** Undoes a cancellation before the period ends (idempotent on a plan that renews). */
export async function resumeSubscription(db: Db, userId: number, clientId: number, now: Date): Promise<SubscriptionState> {
  const row = await ownAccount(db, userId, clientId);
  if (row.subStatus === CANCELING) {
    const resumed = await db
      .update(subscriptions)
      .set({ status: 'active', updatedAt: now })
      .where(and(eq(subscriptions.clientId, row.id), eq(subscriptions.status, CANCELING), gt(subscriptions.currentPeriodEnd, now)))
      .returning({ id: subscriptions.id });
    if (!resumed.length) throw fail(422, CANCEL_MSG.cannotResume);
  } else if (row.subStatus !== 'active') {
    throw fail(422, CANCEL_MSG.cannotResume);
  }
  return subscriptionState(db, userId, clientId);
}
