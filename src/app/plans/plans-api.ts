// The plan and payment calls (spec §7 Subscribe): which checkout the server offers, the sandbox tokeniser,
// and with Stripe the PaymentIntent the browser confirms with Stripe.js.
import type { PaymentHistoryItem } from '../../domain/account';
import { declineCode, declineReason, type DeclineCode } from '../../domain/payment-card';
import type { SubscriptionState } from '../../domain/plans';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';

/** What pays: a sandbox token (with its card), or with Stripe the id of the PaymentIntent Stripe.js confirmed. */
export interface CardToken {
  id: string;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number };
}

/** Which card form the checkout shows: the sandbox's own fields, or Stripe's (null: Stripe without a publishable key). */
export interface PaymentsConfig {
  provider: 'sandbox' | 'stripe';
  stripe: { publishable_key: string; js_url: string } | null;
}

export const paymentsConfigKey = ['payments-config'] as const;

export const getPaymentsConfig = (signal?: AbortSignal) => api.get<PaymentsConfig>('/api/v3/payments/config.json', undefined, signal);

export interface StripeIntent {
  id: string;
  client_secret: string;
  amount_cents: number;
}

/** Opens the PaymentIntent of this purchase; Stripe.js confirms it with the card. */
export const openStripeIntent = async (planId: number, clientId: number) =>
  (await api.post<{ payment_intent: StripeIntent }>('/api/v3/payments/stripe/intents.json', { subscription: { plan_id: planId, client_id: clientId } })).payment_intent;

export const tokenizeCard = (card: { number: string; exp_month: number; exp_year: number; cvc: string }) =>
  api.post<CardToken>('/api/v3/payments/sandbox/tokens', { card });

/** The bank refused the card: the 402's decline code, said in Spanish (domain/payment-card.ts). */
export class CardDeclined extends Error {
  constructor(
    readonly code: DeclineCode,
    options?: ErrorOptions,
  ) {
    super(declineReason(code), options);
    this.name = 'CardDeclined';
  }
}

/** A charge may wait on the bank twice (card, then charge): more than an ordinary call's deadline. */
const SUBSCRIBE_TIMEOUT_MS = 60_000;

type Subscribed = { subscription: { plan_id: number; client_id: number; payment_id: string; active_until: string } };

/** Subscribes; a refused card throws CardDeclined (the 402 also carries why), anything else ApiError. */
export async function subscribe(planId: number, clientId: number, token: string): Promise<Subscribed> {
  try {
    return await api.post<Subscribed>('/api/v3/subscriptions.json', { subscription: { plan_id: planId, client_id: clientId, token } }, SUBSCRIBE_TIMEOUT_MS);
  } catch (err) {
    // The decline code is beside the spec's message in the envelope.
    const body = err instanceof ApiError && err.status === 402 ? err.body : null;
    if (body && typeof body === 'object' && 'decline_code' in body) throw new CardDeclined(declineCode(body.decline_code), { cause: err });
    throw err;
  }
}


export const subscriptionKey = (clientId: number) => ['subscription', clientId] as const;

export const getSubscription = (clientId: number, signal?: AbortSignal) =>
  api.get<SubscriptionState>(`/api/v3/subscriptions/${clientId}/current.json`, undefined, signal);

/** Ends the plan at the end of the paid period (idempotent). */
export const cancelPlan = (clientId: number) => api.post<SubscriptionState>(`/api/v3/subscriptions/${clientId}/cancellation.json`);

/** Undoes the cancellation while the period lasts. */
export const resumePlan = (clientId: number) => api.delete<SubscriptionState>(`/api/v3/subscriptions/${clientId}/cancellation.json`);

/** The query key of an account's payment history: a payment (or a failed one) invalidates it. */
export const paymentHistoryKey = (clientId: number) => ['payment-history', clientId] as const;

export const getPaymentHistory = (clientId: number, signal?: AbortSignal) =>
  api.get<PaymentHistoryItem[]>(`/api/v3/subscriptions/${clientId}/payments.json`, undefined, signal);
