// The Stripe adapter against a local HTTP server answering the calls it makes (form-encoded REST).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentError } from '../../../src/server/payments/provider';
import { paymentProviderFromEnv } from '../../../src/server/payments/select';
import { SandboxProvider } from '../../../src/server/payments/sandbox';
import { formEncode, StripeProvider } from '../../../src/server/payments/stripe';
import { FAKE_KEY, startFakeStripe, type Seen } from './fake-stripe';

describe('Stripe adapter against a local fake', () => {
  let url: string;
  let seen: Seen[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ url, seen, close } = await startFakeStripe());
  });
  afterAll(() => close());

  it('is selected by STRIPE_SECRET_KEY (else the sandbox)', () => {
    expect(paymentProviderFromEnv(() => new Date(), { STRIPE_SECRET_KEY: FAKE_KEY, STRIPE_API_URL: url })).toBeInstanceOf(StripeProvider);
    expect(paymentProviderFromEnv(() => new Date(), {})).toBeInstanceOf(SandboxProvider);
  });

  it('encodes nested form fields as Stripe expects', () => {
    expect(formEncode({ card: { token: 'tok_x' }, confirm: true, n: 5, skip: undefined }).toString()).toBe('card%5Btoken%5D=tok_x&confirm=true&n=5');
  });

  it('turns a tok_ into a payment method, attaches it to a customer and reads brand, last 4 and expiry', async () => {
    seen.length = 0;
    const p = new StripeProvider(FAKE_KEY, url);
    const c = await p.createCustomer('tok_visa', 'emma@example.com');
    expect(c).toEqual({ customerId: 'cus_1', paymentMethodId: 'pm_ok', card: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034 } });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/payment_methods', 'POST /v1/customers', 'GET /v1/payment_methods/pm_ok']);
    expect(seen[0]!.form).toEqual({ type: 'card', 'card[token]': 'tok_visa' });
    expect(seen[1]!.form).toEqual({ email: 'emma@example.com', payment_method: 'pm_ok', 'invoice_settings[default_payment_method]': 'pm_ok' });
  });

  it('a declined token fails customer creation with a typed error', async () => {
    const p = new StripeProvider(FAKE_KEY, url);
    await expect(p.createCustomer('tok_chargeDeclined', 'a@example.com')).rejects.toMatchObject({ code: 'declined' });
    await expect(p.createCustomer('garbage', 'a@example.com')).rejects.toBeInstanceOf(PaymentError);
  });

  it('charges with a confirmed off-session PaymentIntent in MXN cents, with the idempotency key', async () => {
    seen.length = 0;
    const p = new StripeProvider(FAKE_KEY, url);
    const r = await p.charge({ customer: { customerId: 'cus_123', paymentMethodId: 'pm_ok' }, amountCents: 10324, description: 'Plan', idempotencyKey: 'k1' });
    expect(r).toEqual({ ok: true, chargeId: 'ch_1' });
    expect(seen[0]).toMatchObject({
      path: '/v1/payment_intents',
      idem: 'k1',
      form: { amount: '10324', currency: 'mxn', customer: 'cus_123', payment_method: 'pm_ok', confirm: 'true', off_session: 'true', description: 'Plan' },
    });
  });

  it('maps declines and insufficient funds; a bad key throws', async () => {
    const p = new StripeProvider(FAKE_KEY, url);
    const base = { customer: { customerId: 'cus_123', paymentMethodId: 'pm_declined' }, amountCents: 100, description: 'x', idempotencyKey: 'k2' };
    expect(await p.charge(base)).toEqual({ ok: false, code: 'declined', chargeId: 'ch_failed' });
    expect(await p.charge({ ...base, customer: { customerId: 'cus_123', paymentMethodId: 'pm_funds' } })).toEqual({
      ok: false,
      code: 'insufficient_funds',
      chargeId: 'ch_failed',
    });
    await expect(new StripeProvider('sk_wrong', url).charge(base)).rejects.toThrow('Stripe 401');
  });
});
