// Buying a plan on the web (spec §7 Subscribe): the caller's own tax account, a purchasable plan, one
// charge of the whole period with IVA. Every attempt lands in `payments`; only a paid one changes the plan.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { DECLINE_REASON } from '../../domain/payment-card';
import { APP_STORE_PLAN_ID, planById } from '../../domain/plans';
import type { Db } from '../db/client';
import { clients, payments, subscriptions, users } from '../db/schema';
import { ApiError, fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { PaymentError, type CardSummary, type ChargeFailure, type PaymentProvider } from '../payments/provider';
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

/** The account after the plan change; throws 404 / 422 / 402 as ApiError. */
export async function subscribe(d: SubscribeDeps, input: SubscribeInput): Promise<{ paymentId: string; until: Date }> {
  const [row] = await d.db
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

  const amount = chargeAmount(plan, (await d.collaborators([row.id])).get(row.id) ?? 0);
  const failed = async (code: ChargeFailure, id: string | null, card: CardSummary | null): Promise<never> => {
    await d.db.transaction(async (tx) => {
      await tx.insert(payments).values({
        id: id ?? localPaymentId(),
        clientId: row.id,
        planId: plan.id,
        amount: amount.toFixed(2),
        successful: false,
        cardBrand: card?.brand ?? null,
        cardLast4: card?.last4 ?? null,
        kind: 'subscribe',
        failure: failureText(code),
        createdAt: input.now,
      }).onConflictDoNothing();
      // A no-op write so the accounts cache (fed by the clients trigger) drops the stale history.
      await tx.update(clients).set({ planId: sql`${clients.planId}` }).where(eq(clients.id, row.id));
    });
    throw new ChargeDeclined(code);
  };

  let customer;
  try {
    customer = await d.provider.createCustomer(input.token, row.email);
  } catch (err) {
    if (err instanceof PaymentError) return failed(err.code, null, null);
    throw err;
  }
  const attemptKey = localPaymentId();
  const result = await d.provider.charge({
    customer,
    amountCents: Math.round(amount * 100),
    description: `Cuentas Claras: ${plan.name}`,
    idempotencyKey: attemptKey,
  });
  if (!result.ok) return failed(result.code, result.chargeId, customer.card);

  const until = addMonths(input.now, plan.interval);
  const card = customer.card;
  await d.db.transaction(async (tx) => {
    await tx.insert(payments).values({
      id: result.chargeId,
      clientId: row.id,
      planId: plan.id,
      amount: amount.toFixed(2),
      successful: true,
      cardBrand: card.brand,
      cardLast4: card.last4,
      kind: 'subscribe',
      createdAt: input.now,
    })
      // A provider's idempotent replay answers the same charge id: one row.
      .onConflictDoNothing();
    const values = {
      planId: plan.id,
      provider: d.provider.name,
      providerCustomer: customer.customerId,
      providerPaymentMethod: customer.paymentMethodId,
      cardBrand: card.brand,
      cardLast4: card.last4,
      cardExpMonth: card.expMonth,
      cardExpYear: card.expYear,
      status: 'active',
      currentPeriodEnd: until,
      graceUntil: null,
      updatedAt: input.now,
    };
    await tx
      .insert(subscriptions)
      .values({ clientId: row.id, createdAt: input.now, ...values })
      .onConflictDoUpdate({ target: subscriptions.clientId, set: values });
    await tx
      .update(clients)
      .set({
        planId: plan.id,
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpMonth: card.expMonth,
        cardExpYear: card.expYear,
        activeUntil: until,
      })
      .where(eq(clients.id, row.id));
  });
  // The receipt is a courtesy: the payment stands even if the mail server is down.
  await d.mailer
    .send(receiptMail({ to: row.email, paymentId: result.chargeId, planName: plan.name, amount, cardBrand: card.brand, cardLast4: card.last4, at: input.now, until, appUrl: d.appUrl }))
    .catch((err: unknown) => console.error('[plans] recibo no enviado:', errorSummary(err)));
  return { paymentId: result.chargeId, until };
}
