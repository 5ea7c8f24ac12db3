// What Stripe's webhook events change (the route has already checked the signature): a checkout paid or
// refused while the browser was gone, and a disputed charge. Stripe delivers at least once and may repeat
// an event: its id is kept in stripe_events and a repeat changes nothing.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { clients, payments, stripeEvents, subscriptions } from '../db/schema';
import { readIntent } from '../payments/stripe-intents';
import { CANCELING } from './cancel';
import { settleIntent, type CheckoutDeps } from './stripe-checkout';

export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** The payment history's text for a disputed charge. */
export const DISPUTED = 'El cargo fue disputado ante el banco; el plan ya no se renovará.';

/** A charge its holder disputed: a history line, and no more renewals on that card (the plan runs to its paid end). */
async function disputed(d: CheckoutDeps, dispute: Record<string, unknown>, now: Date): Promise<void> {
  const chargeId = typeof dispute.charge === 'string' ? dispute.charge : null;
  if (!chargeId || typeof dispute.id !== 'string') return;
  const [paid] = await d.db.select().from(payments).where(eq(payments.id, chargeId)).limit(1);
  if (!paid) return;
  const disputeId = dispute.id;
  await d.db.transaction(async (tx) => {
    await tx
      .insert(payments)
      .values({
        id: disputeId,
        clientId: paid.clientId,
        planId: paid.planId,
        amount: (-Number(dispute.amount ?? 0) / 100).toFixed(2),
        successful: false,
        cardBrand: paid.cardBrand,
        cardLast4: paid.cardLast4,
        kind: 'dispute',
        failure: DISPUTED,
        createdAt: now,
      })
      .onConflictDoNothing();
    await tx
      .update(subscriptions)
      .set({ status: CANCELING, updatedAt: now })
      .where(and(eq(subscriptions.clientId, paid.clientId), inArray(subscriptions.status, ['active', 'past_due'])));
    // A no-op write so the accounts cache (fed by the clients trigger) drops the stale history.
    await tx.update(clients).set({ planId: sql`${clients.planId}` }).where(eq(clients.id, paid.clientId));
  });
}

async function apply(d: CheckoutDeps, event: StripeEvent, now: Date): Promise<void> {
  const object = event.data.object;
  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    // Renewals write their own rows as they charge: only a checkout's intent needs finishing here.
    if ((object.metadata as Record<string, unknown> | undefined)?.kind !== 'checkout') return;
    // The event names the intent; its state (and card) is read from Stripe itself.
    const intent = await readIntent(d.stripe, String(object.id));
    if (intent) await settleIntent(d, intent, now);
  } else if (event.type === 'charge.dispute.created') {
    await disputed(d, object, now);
  }
}

/** Handles one verified event; 'duplicate' when its id was handled before. */
export async function handleStripeEvent(d: CheckoutDeps, event: StripeEvent, now: Date): Promise<'handled' | 'duplicate'> {
  const [seen] = await d.db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return 'duplicate';
  // Recorded after its effects: a failure midway leaves it unrecorded, and Stripe's retry runs it again
  // (every effect is keyed by a Stripe id, so a second run adds nothing).
  await apply(d, event, now);
  const inserted = await d.db.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: now }).onConflictDoNothing().returning({ id: stripeEvents.id });
  return inserted.length > 0 ? 'handled' : 'duplicate';
}
