// The plan and payment calls (spec §7 Subscribe; the sandbox tokeniser stands in for Stripe.js).
import type { PaymentHistoryItem } from '../../domain/account';
import { declineCode, declineReason, type DeclineCode } from '../../domain/payment-card';
import type { SubscriptionState } from '../../domain/plans';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';

export interface CardToken {
  id: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

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
