// Buying a plan on the web (spec §7 Subscribe): the caller's own tax account, a purchasable plan, one
// charge of the whole period with IVA. Every attempt lands in `payments`; only a paid one changes the plan.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { DECLINE_REASON } from '../../domain/payment-card';
import { APP_STORE_PLAN_ID, planById, type Plan } from '../../domain/plans';
import type { Db } from '../db/client';
import { clients, payments, subscriptions, users } from '../db/schema';
import { ApiError, fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { PaymentError, type CardSummary, type ChargeFailure, type Customer, type PaymentProvider } from '../payments/provider';
import { receiptMail } from './mail';
import { addMonths, chargeAmount, type CollaboratorCounter } from './pricing';
import { errorSummary } from '../lib/error-summary';

export interface SubscribeInput {
  userId: number;
  clientId: number;
  planId: number;
  token: string;
  now: Date;
}

export interface SubscribeDeps {
  db: Db;
  provider: PaymentProvider;
  mailer: Mailer;
  collaborators: CollaboratorCounter;
  /** The app's public address: the receipt's 'Ver mi plan' button opens Perfil there. */
  appUrl?: string;
}

/**
 * A refused card: a 402 with the spec's message whose envelope also carries the decline code, so the
 * checkout can say why ('Fondos insuficientes') and keep the card number (routes.ts writes it).
 */
export class ChargeDeclined extends ApiError {
  constructor(readonly code: ChargeFailure) {
    super(402, [MSG.chargeFailed]);
  }
}

/** Our id for an attempt the provider gave none (a refused token). */
export const localPaymentId = () => `pay_${randomBytes(10).toString('hex')}`;

/** The payment history's failure text: the decline reason of domain/payment-card.ts, as a sentence. */
export function failureText(code: ChargeFailure): string {
  return `${DECLINE_REASON[code]}.`;
}

/** The caller's own account that may buy this plan, with the e-mail the receipt goes to; throws 404 / 422. */
export async function subscribableAccount(db: Db, input: { userId: number; clientId: number; planId: number }): Promise<{ id: number; email: string; plan: Plan }> {
  const [row] = await db
    .select({ id: clients.id, planId: clients.planId, email: users.email })
    .from(clients)
    .innerJoin(users, eq(users.id, clients.userId))
    .where(and(eq(clients.id, input.clientId), eq(clients.userId, input.userId)))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  const plan = planById(input.planId);
  if (!plan || !plan.purchasable) throw fail(422, MSG.planNotPurchasable);
  if (row.planId === APP_STORE_PLAN_ID) throw fail(422, MSG.appStorePlan);
  if (row.planId === plan.id) throw fail(422, MSG.samePlan);
  return { id: row.id, email: row.email, plan };
}

export interface FailedAttempt {
  clientId: number;
  planId: number;
  amount: number;
  /** The provider's id for the attempt; ours when it made none. */
  id: string | null;
  card: Pick<CardSummary, 'brand' | 'last4'> | null;
  code: ChargeFailure;
  now: Date;
}

/** A refused purchase in the payment history (once per id: a webhook may report the same attempt again). */
export async function recordFailedAttempt(db: Db, f: FailedAttempt): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(payments).values({
      id: f.id ?? localPaymentId(),
      clientId: f.clientId,
      planId: f.planId,
      amount: f.amount.toFixed(2),
      successful: false,
      cardBrand: f.card?.brand ?? null,
      cardLast4: f.card?.last4 ?? null,
      kind: 'subscribe',
      failure: failureText(f.code),
      createdAt: f.now,
    }).onConflictDoNothing();
    // A no-op write so the accounts cache (fed by the clients trigger) drops the stale history.
    await tx.update(clients).set({ planId: sql`${clients.planId}` }).where(eq(clients.id, f.clientId));
  });
}

export interface PaidPlan {
  clientId: number;
  email: string;
  plan: Plan;
  amount: number;
  chargeId: string;
  customer: Customer;
  provider: PaymentProvider['name'];
  now: Date;
}

/**
 * A paid charge: its history row, the subscription (what renewals charge) and the account's plan. Once per
 * charge id: when the browser and Stripe's webhook both finish one checkout, the second finds the row and
 * changes nothing (fresh: false) and no second receipt goes out.
 */
export async function applyPaidPlan(d: Pick<SubscribeDeps, 'db' | 'mailer' | 'appUrl'>, p: PaidPlan): Promise<{ until: Date; fresh: boolean }> {
  const until = addMonths(p.now, p.plan.interval);
  const card = p.customer.card;
  const fresh = await d.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(payments)
      .values({
        id: p.chargeId,
        clientId: p.clientId,
        planId: p.plan.id,
        amount: p.amount.toFixed(2),
        successful: true,
        cardBrand: card.brand,
        cardLast4: card.last4,
        kind: 'subscribe',
        createdAt: p.now,
      })
      // A provider's idempotent replay answers the same charge id: one row.
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (inserted.length === 0) return false;
    const values = {
      planId: p.plan.id,
      provider: p.provider,
      providerCustomer: p.customer.customerId,
      providerPaymentMethod: p.customer.paymentMethodId,
      cardBrand: card.brand,
      cardLast4: card.last4,
      cardExpMonth: card.expMonth,
      cardExpYear: card.expYear,
      status: 'active',
      currentPeriodEnd: until,
      graceUntil: null,
      updatedAt: p.now,
    };
    await tx
      .insert(subscriptions)
      .values({ clientId: p.clientId, createdAt: p.now, ...values })
      .onConflictDoUpdate({ target: subscriptions.clientId, set: values });
    await tx
      .update(clients)
      .set({ planId: p.plan.id, cardBrand: card.brand, cardLast4: card.last4, cardExpMonth: card.expMonth, cardExpYear: card.expYear, activeUntil: until })
      .where(eq(clients.id, p.clientId));
    return true;
  });
  if (!fresh) {
    const [sub] = await d.db.select({ end: subscriptions.currentPeriodEnd }).from(subscriptions).where(eq(subscriptions.clientId, p.clientId)).limit(1);
    return { until: sub?.end ?? until, fresh };
  }
  // The receipt is a courtesy: the payment stands even if the mail server is down.
  await d.mailer
    .send(receiptMail({ to: p.email, paymentId: p.chargeId, planName: p.plan.name, amount: p.amount, cardBrand: card.brand, cardLast4: card.last4, at: p.now, until, appUrl: d.appUrl }))
    .catch((err: unknown) => console.error('[plans] recibo no enviado:', errorSummary(err)));
  return { until, fresh };
}

/** The account after the plan change; throws 404 / 422 / 402 as ApiError. */
export async function subscribe(d: SubscribeDeps, input: SubscribeInput): Promise<{ paymentId: string; until: Date }> {
  const row = await subscribableAccount(d.db, input);
  const plan = row.plan;
  const amount = chargeAmount(plan, (await d.collaborators([row.id])).get(row.id) ?? 0);
  const failed = async (code: ChargeFailure, id: string | null, card: CardSummary | null): Promise<never> => {
    await recordFailedAttempt(d.db, { clientId: row.id, planId: plan.id, amount, id, card, code, now: input.now });
    throw new ChargeDeclined(code);
  };

  let customer;
  try {
    customer = await d.provider.createCustomer(input.token, row.email);
  } catch (err) {
    if (err instanceof PaymentError) return failed(err.code, null, null);
    throw err;
  }
  const result = await d.provider.charge({
    customer,
    amountCents: Math.round(amount * 100),
    description: `Cuentas Claras: ${plan.name}`,
    idempotencyKey: localPaymentId(),
  });
  if (!result.ok) return failed(result.code, result.chargeId, customer.card);

  const { until } = await applyPaidPlan(d, {
    clientId: row.id, email: row.email, plan, amount, chargeId: result.chargeId, customer, provider: d.provider.name, now: input.now,
  });
  return { paymentId: result.chargeId, until };
}
