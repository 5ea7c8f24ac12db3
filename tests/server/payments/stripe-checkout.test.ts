// The Stripe.js checkout through the API, against the local fake of Stripe: the server opens a PaymentIntent,
// the "browser" confirms it with the publishable key as Stripe.js does (3-D Secure included), the server reads
// it back and puts the plan on; the signed webhook finishes checkouts, once per event, and refuses forgeries.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, payments, stripeEvents, subscriptions } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { StripeProvider } from '../../../src/server/payments/stripe';
import { signatureHeader } from '../../../src/server/payments/stripe-signature';
import { renewDueSubscriptions } from '../../../src/server/plans/renewals';
import { PAYMENT_PENDING } from '../../../src/server/plans/stripe-checkout';
import { DISPUTED } from '../../../src/server/plans/stripe-events';
import { BAD_SIGNATURE } from '../../../src/server/plans/stripe-routes';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { FAKE_KEY, FAKE_PUBLISHABLE_KEY, startFakeStripe, type FakeStripe } from './fake-stripe';

const WEBHOOK_SECRET = 'whsec_local';
const JS_URL = 'http://127.0.0.1:9/v3/';
const STRIPE_ENV = ['STRIPE_SECRET_KEY', 'STRIPE_API_URL', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_JS_URL'] as const;

describe.each(DRIVERS)('Stripe.js checkout and webhooks on %s', (driver) => {
  let h: Harness;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
    Object.assign(process.env, {
      STRIPE_SECRET_KEY: FAKE_KEY,
      STRIPE_API_URL: fake.url,
      STRIPE_PUBLISHABLE_KEY: FAKE_PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_JS_URL: JS_URL,
    });
    try {
      h = await createHarness(driver);
    } finally {
      for (const k of STRIPE_ENV) delete process.env[k];
    }
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  async function account(prefix: string) {
    const u = await h.signUp(prefix);
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' } } });
    return { token: u.token, clientId: made.json.response.diverza_client_id as number };
  }

  const openIntent = (a: { token: string; clientId: number }, planId: number) =>
    h.call('POST', '/api/v3/payments/stripe/intents.json', { token: a.token, body: { subscription: { plan_id: planId, client_id: a.clientId } } });

  /** What Stripe.js's confirmCardPayment sends: the publishable key, the client secret and the card's payment method. */
  async function browserConfirm(intent: { id: string; client_secret: string }, paymentMethod: string) {
    const res = await fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FAKE_PUBLISHABLE_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: intent.client_secret, payment_method: paymentMethod }).toString(),
    });
    return (await res.json()) as { status?: string; error?: { decline_code?: string } };
  }

  const finish = (a: { token: string; clientId: number }, planId: number, intentId: string) =>
    h.call('POST', '/api/v3/subscriptions.json', { token: a.token, body: { subscription: { plan_id: planId, client_id: a.clientId, token: intentId } } });

  function webhook(event: unknown, opts: { at?: number; secret?: string; header?: string } = {}) {
    const raw = JSON.stringify(event);
    const t = Math.floor((opts.at ?? Date.now()) / 1000);
    const header = opts.header ?? signatureHeader(opts.secret ?? WEBHOOK_SECRET, t, raw);
    return h.call('POST', '/api/v3/payments/stripe/webhook', { raw, headers: { 'stripe-signature': header } });
  }

  const paymentsOf = (clientId: number) => h.database.db.select().from(payments).where(eq(payments.clientId, clientId));

  it('tells the app to load Stripe.js from STRIPE_JS_URL, and lets it in through the CSP', async () => {
    const r = await h.call('GET', '/api/v3/payments/config.json');
    expect(r.json.response).toEqual({ provider: 'stripe', stripe: { publishable_key: FAKE_PUBLISHABLE_KEY, js_url: JS_URL } });
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' http://127.0.0.1:9;");
    expect(csp).toContain('frame-src http://127.0.0.1:9 https://hooks.stripe.com');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com http://127.0.0.1:9;");
  });

  it('success: a PaymentIntent in centavos MXN that saves the card, confirmed in the browser, verified with Stripe; the renewal charges it off-session', async () => {
    const a = await account('pi-ok');
    fake.seen.length = 0;
    const opened = await openIntent(a, 2);
    expect(opened.status).toBe(200);
    const intent = opened.json.response.payment_intent;
    expect(intent).toMatchObject({ id: expect.stringMatching(/^pi_/), client_secret: expect.stringContaining('_secret_'), amount_cents: 10324 });
    const created = fake.seen.find((s) => s.path === '/v1/payment_intents');
    expect(created?.form).toMatchObject({
      amount: '10324', currency: 'mxn', customer: 'cus_1', setup_future_usage: 'off_session',
      'metadata[kind]': 'checkout', 'metadata[client_id]': String(a.clientId), 'metadata[plan_id]': '2',
    });
    expect(created?.form.confirm).toBeUndefined();

    expect((await browserConfirm(intent, 'pm_ok')).status).toBe('succeeded');
    const done = await finish(a, 2, intent.id);
    expect(done.status).toBe(200);
    expect(done.json.response.subscription).toMatchObject({ client_id: a.clientId, plan_id: 2, payment_id: fake.intents.get(intent.id)?.latest_charge });
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, a.clientId));
    expect(sub).toMatchObject({ provider: 'stripe', providerCustomer: 'cus_1', providerPaymentMethod: 'pm_ok', cardBrand: 'Visa', cardLast4: '4242', status: 'active' });
    expect((await paymentsOf(a.clientId)).map((p) => [p.successful, p.amount, p.kind])).toEqual([[true, '103.24', 'subscribe']]);

    // Finishing twice changes nothing: one payment, one period.
    expect((await finish(a, 2, intent.id)).json.response.subscription.payment_id).toBe(done.json.response.subscription.payment_id);
    expect(await paymentsOf(a.clientId)).toHaveLength(1);

    // The daily renewal charges the saved card without the holder, through the existing job.
    fake.seen.length = 0;
    const later = () => new Date(sub!.currentPeriodEnd.getTime() + 60_000);
    const run = await renewDueSubscriptions(h.database.db, new StripeProvider(FAKE_KEY, fake.url), later, devMailboxMailer(h.database.db));
    expect(run.renewed).toBeGreaterThanOrEqual(1);
    expect(fake.seen.find((s) => s.form.customer === 'cus_1')?.form).toMatchObject({ payment_method: 'pm_ok', off_session: 'true', confirm: 'true', amount: '10324' });
  });

  it('decline: the refusal is read from Stripe, answered with the Spanish reason and kept in the history; the plan stays', async () => {
    const a = await account('pi-funds');
    const intent = (await openIntent(a, 4)).json.response.payment_intent;
    expect((await browserConfirm(intent, 'pm_funds')).error?.decline_code).toBe('insufficient_funds');
    const r = await finish(a, 4, intent.id);
    expect(r.status).toBe(402);
    expect(r.json).toEqual({ errors: [MSG.chargeFailed], decline_code: 'insufficient_funds', decline_reason: 'Fondos insuficientes' });
    expect((await paymentsOf(a.clientId)).map((p) => [p.successful, p.failure, p.cardLast4])).toEqual([[false, 'Fondos insuficientes.', '9995']]);
    const [row] = await h.database.db.select({ planId: clients.planId }).from(clients).where(eq(clients.id, a.clientId));
    expect(row?.planId).toBe(1);
  });

  it('3-D Secure: requires_action is still pending (409); once the holder passes the challenge the plan is paid', async () => {
    const a = await account('pi-3ds');
    const intent = (await openIntent(a, 2)).json.response.payment_intent;
    expect((await browserConfirm(intent, 'pm_3ds')).status).toBe('requires_action');
    const early = await finish(a, 2, intent.id);
    expect(early.status).toBe(409);
    expect(early.json.errors).toEqual([PAYMENT_PENDING]);
    expect(await paymentsOf(a.clientId)).toHaveLength(0);

    fake.finish3ds(intent.id, true);
    const done = await finish(a, 2, intent.id);
    expect(done.status).toBe(200);
    expect((await paymentsOf(a.clientId)).map((p) => [p.successful, p.cardLast4])).toEqual([[true, '3184']]);
  });

  it("another user's PaymentIntent, or one for another plan, is not found", async () => {
    const a = await account('pi-own');
    const b = await account('pi-other');
    const intent = (await openIntent(a, 2)).json.response.payment_intent;
    await browserConfirm(intent, 'pm_ok');
    expect((await finish(b, 2, intent.id)).status).toBe(404);
    expect((await finish(a, 3, intent.id)).status).toBe(404);
    expect((await finish(a, 2, 'pi_nothere')).status).toBe(404);
  });

  it('webhook: payment_intent.succeeded finishes a checkout the browser left; the same event twice acts once', async () => {
    const a = await account('wh-ok');
    const intent = (await openIntent(a, 2)).json.response.payment_intent;
    await browserConfirm(intent, 'pm_ok');
    const event = { id: 'evt_ok_1', type: 'payment_intent.succeeded', data: { object: fake.view(fake.intents.get(intent.id)!, false) } };
    const first = await webhook(event);
    expect(first.status).toBe(200);
    expect(first.json.response).toEqual({ received: true, duplicate: false });
    const again = await webhook(event);
    expect(again.json.response).toEqual({ received: true, duplicate: true });
    expect((await paymentsOf(a.clientId)).map((p) => p.successful)).toEqual([true]);
    const [row] = await h.database.db.select({ planId: clients.planId }).from(clients).where(eq(clients.id, a.clientId));
    expect(row?.planId).toBe(2);
    expect(await h.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_ok_1'))).toHaveLength(1);
    // The browser coming back afterwards finds it done.
    expect((await finish(a, 2, intent.id)).status).toBe(200);
    expect(await paymentsOf(a.clientId)).toHaveLength(1);

    // Its charge disputed: a history line, and the plan no longer renews.
    const charge = fake.intents.get(intent.id)!.latest_charge;
    const dispute = { id: 'evt_dp_1', type: 'charge.dispute.created', data: { object: { id: 'dp_1', object: 'dispute', charge, amount: 10324 } } };
    expect((await webhook(dispute)).status).toBe(200);
    expect((await webhook(dispute)).json.response.duplicate).toBe(true);
    const history = await paymentsOf(a.clientId);
    expect(history.filter((p) => p.kind === 'dispute').map((p) => [p.id, p.amount, p.failure])).toEqual([['dp_1', '-103.24', DISPUTED]]);
    const [sub] = await h.database.db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.clientId, a.clientId));
    expect(sub?.status).toBe('canceling');
  });

  it('webhook: payment_intent.payment_failed records the refusal once', async () => {
    const a = await account('wh-fail');
    const intent = (await openIntent(a, 2)).json.response.payment_intent;
    await browserConfirm(intent, 'pm_declined');
    const event = { id: 'evt_fail_1', type: 'payment_intent.payment_failed', data: { object: fake.view(fake.intents.get(intent.id)!, false) } };
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    // The browser's own report of the same attempt adds nothing either.
    expect((await finish(a, 2, intent.id)).json.decline_code).toBe('declined');
    expect((await paymentsOf(a.clientId)).map((p) => [p.successful, p.failure])).toEqual([[false, 'Tarjeta rechazada por el banco.']]);
  });

  it('webhook: a forged, unsigned, stale or oversized request is refused and changes nothing', async () => {
    const a = await account('wh-forged');
    const intent = (await openIntent(a, 2)).json.response.payment_intent;
    await browserConfirm(intent, 'pm_ok');
    const event = { id: 'evt_forged', type: 'payment_intent.succeeded', data: { object: fake.view(fake.intents.get(intent.id)!, false) } };
    for (const r of [
      await webhook(event, { secret: 'whsec_wrong' }),
      await webhook(event, { header: '' }),
      await webhook(event, { header: 't=1,v1=zz' }),
      await webhook(event, { at: Date.now() - 6 * 60_000 }),
      await webhook(event, { at: Date.now() + 6 * 60_000 }),
    ]) {
      expect(r.status).toBe(400);
      expect(r.json.errors).toEqual([BAD_SIGNATURE]);
    }
    const big = { ...event, padding: 'x'.repeat(300 * 1024) };
    expect((await webhook(big)).status).toBe(413);
    expect(await paymentsOf(a.clientId)).toHaveLength(0);
    expect(await h.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_forged'))).toHaveLength(0);
  });
});

describe('without Stripe keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(() => h?.close());

  it('the app keeps the sandbox checkout, and neither Stripe route nor Stripe origin exists', async () => {
    const r = await h.call('GET', '/api/v3/payments/config.json');
    expect(r.json.response).toEqual({ provider: 'sandbox', stripe: null });
    expect(r.headers.get('content-security-policy')).not.toContain('stripe');
    expect((await h.call('POST', '/api/v3/payments/stripe/webhook', { body: {} })).status).toBe(404);
    const tok = await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number: '4242424242424242', exp_month: 1, exp_year: 2040, cvc: '123' } } });
    expect(tok.status).toBe(200);
  });
});
