// Buying a plan with Stripe.js (spec §7 Subscribe, with Stripe on): the server opens a PaymentIntent for the
// account and plan (the whole period with IVA, in centavos, the card kept for off-session renewals), the
// browser confirms it with the card and 3-D Secure, then either the browser (subscriptions.json with the
// pi_… id) or Stripe's webhook finishes it: the intent is read back from Stripe, never trusted from the caller.
import { eq } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { planById } from '../../domain/plans';
import type { Db } from '../db/client';
import { clients, subscriptions, users } from '../db/schema';
import { fail } from '../http/errors';
import type { StripeProvider } from '../payments/stripe';
import { createIntent, createStripeCustomer, readIntent, type Intent } from '../payments/stripe-intents';
import { chargeAmount, type CollaboratorCounter } from './pricing';
import { applyPaidPlan, ChargeDeclined, localPaymentId, recordFailedAttempt, subscribableAccount, type SubscribeDeps } from './subscribe';

/** The bank has not answered yet (3-D Secure left open, or a charge still processing). */
export const PAYMENT_PENDING = 'Tu banco aún no confirma el pago. Termina la verificación o intenta de nuevo en unos momentos.';

export interface CheckoutDeps extends Pick<SubscribeDeps, 'db' | 'mailer' | 'appUrl'> {
  stripe: StripeProvider;
}

export interface CheckoutInput {
  userId: number;
  clientId: number;
  planId: number;
  now: Date;
}

/** The Stripe customer the account already has (its saved card), if any. */
async function knownCustomer(db: Db, clientId: number): Promise<string | null> {
  const [sub] = await db
    .select({ provider: subscriptions.provider, customer: subscriptions.providerCustomer })
    .from(subscriptions)
    .where(eq(subscriptions.clientId, clientId))
    .limit(1);
  return sub?.provider === 'stripe' ? sub.customer : null;
}

/** A PaymentIntent for this purchase: the browser confirms it with Stripe.js. Throws 404 / 422 like subscribe. */
export async function startCheckout(
  d: CheckoutDeps & { collaborators: CollaboratorCounter },
  input: CheckoutInput,
): Promise<{ id: string; clientSecret: string; amountCents: number }> {
  const row = await subscribableAccount(d.db, input);
  const amount = chargeAmount(row.plan, (await d.collaborators([row.id])).get(row.id) ?? 0);
  const amountCents = Math.round(amount * 100);
  const customerId = (await knownCustomer(d.db, row.id)) ?? (await createStripeCustomer(d.stripe, row.email, localPaymentId()));
  const intent = await createIntent(d.stripe, {
    customerId,
    amountCents,
    description: `Cuentas Claras: ${row.plan.name}`,
    metadata: { kind: 'checkout', client_id: String(row.id), plan_id: String(row.plan.id), user_id: String(input.userId) },
    idempotencyKey: localPaymentId(),
  });
  return { ...intent, amountCents };
}

export type IntentOutcome =
  | { kind: 'paid'; paymentId: string; until: Date }
  | { kind: 'declined'; code: ChargeDeclined['code'] }
  | { kind: 'pending' }
  | { kind: 'ignored' };

/** What a checkout intent as Stripe reports it means here: the plan put on, the refusal recorded, or still waiting. */
export async function settleIntent(d: CheckoutDeps, intent: Intent, now: Date): Promise<IntentOutcome> {
  const clientId = Number(intent.metadata.client_id);
  const plan = planById(Number(intent.metadata.plan_id));
  if (intent.metadata.kind !== 'checkout' || !plan || !Number.isSafeInteger(clientId) || intent.currency !== 'mxn') return { kind: 'ignored' };
  const [account] = await d.db.select({ email: users.email }).from(clients).innerJoin(users, eq(users.id, clients.userId)).where(eq(clients.id, clientId)).limit(1);
  if (!account) return { kind: 'ignored' };
  const amount = intent.amountCents / 100;
  if (intent.status === 'succeeded') {
    if (!intent.customerId || !intent.paymentMethodId || !intent.card) throw new Error(`PaymentIntent ${intent.id} sin cliente o tarjeta`);
    const chargeId = intent.chargeId ?? intent.id;
    const { until } = await applyPaidPlan(d, {
      clientId, email: account.email, plan, amount, chargeId, provider: 'stripe', now,
      customer: { customerId: intent.customerId, paymentMethodId: intent.paymentMethodId, card: intent.card },
    });
    return { kind: 'paid', paymentId: chargeId, until };
  }
  if (intent.failure && (intent.status === 'requires_payment_method' || intent.status === 'canceled')) {
    await recordFailedAttempt(d.db, { clientId, planId: plan.id, amount, id: intent.chargeId ?? intent.id, card: intent.card, code: intent.failure, now });
    return { kind: 'declined', code: intent.failure };
  }
  return { kind: 'pending' };
}

/** The browser's end of the checkout: the intent must be this caller's, for this account and plan. */
export async function completeCheckout(d: CheckoutDeps, input: CheckoutInput & { intentId: string }): Promise<{ paymentId: string; until: Date }> {
  const intent = await readIntent(d.stripe, input.intentId);
  const m = intent?.metadata;
  if (!intent || m?.kind !== 'checkout' || m.client_id !== String(input.clientId) || m.plan_id !== String(input.planId) || m.user_id !== String(input.userId)) {
    throw fail(404, MSG.notFound);
  }
  const outcome = await settleIntent(d, intent, input.now);
  if (outcome.kind === 'paid') return outcome;
  if (outcome.kind === 'declined') throw new ChargeDeclined(outcome.code);
  throw fail(409, PAYMENT_PENDING);
}
