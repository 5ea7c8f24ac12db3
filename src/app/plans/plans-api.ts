// The plan and payment calls (spec §7 Subscribe; the sandbox tokeniser stands in for Stripe.js).
import type { PaymentHistoryItem } from '../../domain/account';
import { api } from '../api/client';

export interface CardToken {
  id: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

export const tokenizeCard = (card: { number: string; exp_month: number; exp_year: number; cvc: string }) =>
  api.post<CardToken>('/api/v3/payments/sandbox/tokens', { card });

export const subscribe = (planId: number, clientId: number, token: string) =>
  api.post<{ subscription: { plan_id: number; client_id: number; payment_id: string; active_until: string } }>('/api/v3/subscriptions.json', {
    subscription: { plan_id: planId, client_id: clientId, token },
  });

/** The query key of an account's payment history: a payment (or a failed one) invalidates it. */
export const paymentHistoryKey = (clientId: number) => ['payment-history', clientId] as const;

export const getPaymentHistory = (clientId: number, signal?: AbortSignal) =>
  api.get<PaymentHistoryItem[]>(`/api/v3/subscriptions/${clientId}/payments.json`, undefined, signal);
