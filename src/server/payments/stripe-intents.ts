// PaymentIntents confirmed in the browser with Stripe.js: the server creates one per checkout attempt,
// the browser confirms it with the card (and 3-D Secure when the bank asks), and the server reads it back
// from Stripe to know whether it was paid. The card never passes through here: only ids, brand and last 4.
import type { CardSummary, ChargeFailure } from './provider';
import { cardSummary, failureOf, type StripeProvider } from './stripe';

/** What a checkout's PaymentIntent carries, so its webhook can finish the purchase on its own. */
export interface CheckoutMetadata {
  kind: 'checkout';
  client_id: string;
  plan_id: string;
  user_id: string;
}

export interface Intent {
  id: string;
  /** Stripe's: succeeded, requires_action, requires_payment_method, processing, canceled… */
  status: string;
  amountCents: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  /** The charge behind it (the payment history's id), when Stripe made one. */
  chargeId: string | null;
  metadata: Record<string, string>;
  card: CardSummary | null;
  /** Why the last attempt was refused, when it was. */
  failure: ChargeFailure | null;
}

type Json = Record<string, unknown>;

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Json).id === 'string' ? ((v as Json).id as string) : null);

const cardOf = (pm: unknown) => (pm && typeof pm === 'object' ? cardSummary((pm as { card?: Parameters<typeof cardSummary>[0] }).card) : null);

/** Stripe's PaymentIntent JSON (payment_method expanded or not) as ours. */
export function intentOf(json: Json): Intent {
  const lastError = (json.last_payment_error ?? null) as (Json & { payment_method?: unknown }) | null;
  const metadata = (json.metadata && typeof json.metadata === 'object' ? json.metadata : {}) as Record<string, string>;
  return {
    id: String(json.id),
    status: String(json.status),
    amountCents: Number(json.amount),
    currency: String(json.currency),
    customerId: idOf(json.customer),
    paymentMethodId: idOf(json.payment_method) ?? idOf(lastError?.payment_method),
    chargeId: idOf(json.latest_charge),
    metadata,
    card: cardOf(json.payment_method) ?? cardOf(lastError?.payment_method),
    failure: lastError ? failureOf(lastError as Parameters<typeof failureOf>[0]) : null,
  };
}

function expectOk(r: { status: number }, what: string): void {
  if (r.status !== 200) throw new Error(`Stripe ${r.status} (${what})`);
}

/** A Stripe customer for this e-mail: the saved card hangs from it, for the renewals. */
export async function createStripeCustomer(stripe: StripeProvider, email: string, idempotencyKey: string): Promise<string> {
  const r = await stripe.post('/v1/customers', { email }, idempotencyKey);
  expectOk(r, 'customer');
  return String(r.json.id);
}

export interface IntentRequest {
  customerId: string;
  amountCents: number;
  description: string;
  metadata: CheckoutMetadata;
  idempotencyKey: string;
}

/** An unconfirmed PaymentIntent that saves its card for off-session renewals; the browser confirms it. */
export async function createIntent(stripe: StripeProvider, req: IntentRequest): Promise<{ id: string; clientSecret: string }> {
  const r = await stripe.post(
    '/v1/payment_intents',
    {
      amount: req.amountCents,
      currency: 'mxn',
      customer: req.customerId,
      setup_future_usage: 'off_session',
      payment_method_types: ['card'],
      description: req.description,
      metadata: req.metadata,
    },
    req.idempotencyKey,
  );
  expectOk(r, 'payment_intent');
  return { id: String(r.json.id), clientSecret: String(r.json.client_secret) };
}

/** The PaymentIntent as Stripe has it now, with its card; null when Stripe knows no such id. */
export async function readIntent(stripe: StripeProvider, id: string): Promise<Intent | null> {
  if (!/^pi_[A-Za-z0-9_]+$/.test(id)) return null;
  const r = await stripe.get(`/v1/payment_intents/${id}?expand[]=payment_method&expand[]=last_payment_error.payment_method`);
  if (r.status === 404) return null;
  expectOk(r, 'payment_intent');
  return intentOf(r.json);
}
