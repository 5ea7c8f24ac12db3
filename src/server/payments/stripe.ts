// The Stripe adapter (selected by STRIPE_SECRET_KEY): plain fetch against Stripe's form-encoded REST API.
// The browser tokenises with Stripe.js (a tok_… or pm_… id); here we attach it to a customer and charge
// with PaymentIntents confirmed off-session, so renewals can charge the same payment method again.
import { PaymentError, type CardSummary, type ChargeFailure, type ChargeRequest, type ChargeResult, type Customer, type PaymentProvider } from './provider';

export const STRIPE_DEFAULT_URL = 'https://api.stripe.com';
const TIMEOUT_MS = 20_000;

interface StripeCard {
  brand?: string;
  last4?: string;
  exp_month?: number;
  exp_year?: number;
}
interface StripeError {
  type?: string;
  code?: string;
  decline_code?: string;
  charge?: string;
  payment_intent?: { id?: string; latest_charge?: string | null };
}

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'MasterCard', amex: 'American Express' };

/** Stripe's codes the user can act on; every other card error (do_not_honor, lost_card, fraudulent…) is a plain bank refusal. */
const STRIPE_CODES: Partial<Record<string, ChargeFailure>> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  incorrect_number: 'incorrect_number',
  invalid_number: 'incorrect_number',
  processing_error: 'processing_error',
};

/** Stripe's card as ours (null when Stripe gave no last 4). */
export function cardSummary(card: StripeCard | undefined): CardSummary | null {
  if (!card?.last4) return null;
  return { brand: BRANDS[card.brand ?? ''] ?? card.brand ?? 'Otra', last4: card.last4, expMonth: Number(card.exp_month), expYear: Number(card.exp_year) };
}

export function failureOf(e: StripeError): ChargeFailure {
  const known = STRIPE_CODES[e.decline_code ?? ''] ?? STRIPE_CODES[e.code ?? ''];
  if (known) return known;
  if (e.type === 'card_error') return 'declined';
  return 'other';
}

/** Stripe's nested form encoding: { card: { token: 'x' } } → card[token]=x. */
export function formEncode(data: Record<string, unknown>, prefix = '', out = new URLSearchParams()): URLSearchParams {
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null) continue;
    const key = prefix ? `${prefix}[${k}]` : k;
    if (typeof v === 'object') formEncode(v as Record<string, unknown>, key, out);
    else out.append(key, String(v));
  }
  return out;
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;

  constructor(
    private readonly secretKey: string,
    private readonly baseUrl = STRIPE_DEFAULT_URL,
  ) {}

  async post(path: string, data: Record<string, unknown>, idempotencyKey?: string) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.secretKey}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    const res = await fetch(new URL(path, this.baseUrl), {
      method: 'POST',
      headers,
      body: formEncode(data).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown> & { error?: StripeError };
    return { status: res.status, json };
  }

  async createCustomer(token: string, email: string): Promise<Customer> {
    let pm = token;
    if (token.startsWith('tok_')) {
      const made = await this.post('/v1/payment_methods', { type: 'card', card: { token } });
      if (made.status !== 200) throw new PaymentError(failureOf(made.json.error ?? {}));
      pm = String(made.json.id);
    } else if (!token.startsWith('pm_')) {
      throw new PaymentError('other', 'token');
    }
    // payment_method on create attaches it; invoice_settings makes it the one renewals use.
    const cus = await this.post('/v1/customers', { email, payment_method: pm, invoice_settings: { default_payment_method: pm } });
    if (cus.status !== 200) throw new PaymentError(failureOf(cus.json.error ?? {}));
    const method = await this.get(`/v1/payment_methods/${encodeURIComponent(pm)}`);
    const summary = cardSummary((method.json as { card?: StripeCard }).card);
    if (method.status !== 200 || !summary) throw new PaymentError('other');
    return { customerId: String(cus.json.id), paymentMethodId: pm, card: summary };
  }

  async get(path: string) {
    const res = await fetch(new URL(path, this.baseUrl), {
      headers: { Authorization: `Bearer ${this.secretKey}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown> & { error?: StripeError };
    return { status: res.status, json };
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const r = await this.post(
      '/v1/payment_intents',
      {
        amount: req.amountCents,
        currency: 'mxn',
        customer: req.customer.customerId,
        payment_method: req.customer.paymentMethodId,
        confirm: true,
        off_session: true,
        description: req.description,
      },
      req.idempotencyKey,
    );
    if (r.status === 200 && r.json.status === 'succeeded') {
      return { ok: true, chargeId: String(r.json.latest_charge ?? r.json.id) };
    }
    if (r.status >= 500 || r.status === 401 || r.status === 429) throw new Error(`Stripe ${r.status}`);
    const e = r.json.error ?? {};
    const chargeId = e.charge ?? e.payment_intent?.latest_charge ?? e.payment_intent?.id ?? (typeof r.json.id === 'string' ? r.json.id : null);
    return { ok: false, code: r.status === 200 ? 'declined' : failureOf(e), chargeId };
  }
}
