// POST /api/v3/subscriptions.json with STRIPE_SECRET_KEY set: the API charges through the Stripe adapter
// (against the local fake); the sandbox tokeniser is not mounted then.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, subscriptions } from '../../../src/server/db/schema';
import { MSG } from '../../../src/domain/messages';
import { createHarness, type Harness } from '../helpers/harness';
import { FAKE_KEY, startFakeStripe } from './fake-stripe';

describe('subscriptions through the Stripe adapter', () => {
  let h: Harness;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    fake = await startFakeStripe();
    process.env.STRIPE_SECRET_KEY = FAKE_KEY;
    process.env.STRIPE_API_URL = fake.url;
    try {
      h = await createHarness('pglite');
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_API_URL;
    }
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('charges 103.24 MXN as 10324 centavos and stores only Stripe ids, brand, last 4 and expiry', async () => {
    const u = await h.signUp('stripe');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' } } });
    const clientId = made.json.response.diverza_client_id as number;
    expect((await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number: '4242424242424242', exp_month: 1, exp_year: 2040, cvc: '123' } } })).status).toBe(404);

    const ok = await h.call('POST', '/api/v3/subscriptions.json', { token: u.token, body: { subscription: { plan_id: 2, client_id: clientId, token: 'tok_ok' } } });
    expect(ok.status).toBe(200);
    const intent = fake.seen.find((s) => s.path === '/v1/payment_intents');
    expect(intent?.form).toMatchObject({ amount: '10324', currency: 'mxn', confirm: 'true' });
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId));
    expect(sub).toMatchObject({ provider: 'stripe', providerPaymentMethod: 'pm_ok', cardBrand: 'Visa', cardLast4: '4242', cardExpYear: 2034 });

    const funds = await h.call('POST', '/api/v3/subscriptions.json', { token: u.token, body: { subscription: { plan_id: 4, client_id: clientId, token: 'tok_funds' } } });
    expect(funds.status).toBe(402);
    expect(funds.json).toEqual({ errors: [MSG.chargeFailed], decline_code: 'insufficient_funds', decline_reason: 'Fondos insuficientes' });
    const rows = await h.database.db.select().from(payments).where(eq(payments.clientId, clientId));
    expect(rows.map((r) => [r.successful, r.failure, r.cardLast4])).toEqual(
      expect.arrayContaining([
        [true, null, '4242'],
        [false, 'Fondos insuficientes.', '9995'],
      ]),
    );
  });
});
