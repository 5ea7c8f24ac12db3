// POST /api/v3/subscriptions.json with each sandbox test card, the sandbox tokeniser, payment history.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPaymentHistory } from '../../../src/server/lib/account-view';
import { clients, mailMessages, payments, subscriptions } from '../../../src/server/db/schema';
import { MSG } from '../../../src/domain/messages';
import { CARD_MSG, DECLINE_REASON } from '../../../src/domain/payment-card';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const PERSON = { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez Díaz', name: null };
const COMPANY = { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' };

describe.each(DRIVERS)('subscriptions on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  async function account(client: object) {
    const u = await h.signUp('sub');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client } });
    expect(made.status).toBe(200);
    return { ...u, clientId: made.json.response.diverza_client_id as number };
  }
  async function token(number: string, extra: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {}) {
    return h.call('POST', '/api/v3/payments/sandbox/tokens', {
      body: { card: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123', ...extra } },
    });
  }
  async function buy(u: { token: string; clientId: number }, planId: number, number: string, headers: Record<string, string> = {}) {
    const t = await token(number);
    expect(t.status).toBe(200);
    return h.call('POST', '/api/v3/subscriptions.json', {
      token: u.token,
      headers,
      body: { subscription: { plan_id: planId, client_id: u.clientId, token: t.json.response.id } },
    });
  }
  const historyOf = async (clientId: number) =>
    (await withPaymentHistory(h.database.db, [{ diverza_client_id: clientId } as never]))[0]!.payment_history;

  it('tokenises test cards without storing the number, and checks Luhn, expiry and CVC in Spanish', async () => {
    const t = await token('4242 4242 4242 4242');
    expect(t.status).toBe(200);
    expect(t.json.response.id).toMatch(/^tok_sbx_/);
    expect(t.json.response.id).not.toContain('4242424242424242');
    expect(t.json.response.card).toEqual({ brand: 'Visa', last4: '4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 });
    expect((await token('4242 4242 4242 4241')).json.errors).toEqual([CARD_MSG.number]);
    expect((await token('4242424242424242', { exp_month: 13 })).json.errors).toEqual([CARD_MSG.expiry]);
    expect((await token('4242424242424242', { exp_year: 2020 })).json.errors).toEqual([CARD_MSG.expired]);
    expect((await token('4242424242424242', { cvc: '12' })).json.errors).toEqual([CARD_MSG.cvc]);
    const bad = await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number: 4242 } } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual([MSG.badCard]);
  });

  it('buys the professional plan with 4242: charges 89 × 1.16, records the payment, updates the account and mails a receipt', async () => {
    const u = await account(PERSON);
    const r = await buy(u, 2, '4242424242424242');
    expect(r.status).toBe(200);
    expect(r.json.response.subscription).toMatchObject({ plan_id: 2, client_id: u.clientId });
    const list = await h.call('GET', '/user_clients', { token: u.token });
    const acc = list.json.response.find((a: { diverza_client_id: number }) => a.diverza_client_id === u.clientId);
    expect(acc).toMatchObject({ plan_id: 2, card_brand: 'Visa', card_last4: '4242', card_exp_month: 12 });
    expect(new Date(acc.active_until).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    const history = await historyOf(u.clientId);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ plan_id: 2, amount: 103.24, successful: true, card_brand: 'Visa', card_last4: '4242' });
    expect(history[0]!.id).toBe(r.json.response.subscription.payment_id);
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, u.clientId));
    expect(sub).toMatchObject({ planId: 2, provider: 'sandbox', status: 'active', cardLast4: '4242' });
    const mails = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, u.email));
    const receipt = mails.find((m) => m.subject.startsWith('Recibo de tu pago'));
    expect(receipt?.text).toContain('$103.24');
    // Its one button opens Perfil at the app's public address.
    expect(receipt?.text).toMatch(/https?:\/\/[^\s]+\/#\/subscription/);
    expect(receipt?.html).toContain('Ver mi plan');
  });

  it('charges an annual company plan for 12 months: 240 × 12 × 1.16', async () => {
    const u = await account(COMPANY);
    const r = await buy(u, 5, '5555555555554444');
    expect(r.status).toBe(200);
    const [p] = await historyOf(u.clientId);
    expect(p).toMatchObject({ amount: 3340.8, successful: true, card_brand: 'MasterCard', plan_id: 5 });
    expect(new Date(r.json.response.subscription.active_until).getTime()).toBeGreaterThan(Date.now() + 360 * 86_400_000);
  });

  it.each([
    ['declined', '4000000000000002'],
    ['insufficient funds', '4000000000009995'],
  ])('a %s card answers 402 with the §8 message, keeps the plan and records a failed row', async (_name, number) => {
    const u = await account(PERSON);
    const r = await buy(u, 3, number);
    expect(r.status).toBe(402);
    expect(r.json.errors).toEqual([MSG.chargeFailed]);
    const [row] = await h.database.db.select().from(clients).where(eq(clients.id, u.clientId));
    expect(row).toMatchObject({ planId: 1, cardLast4: null, activeUntil: null });
    expect(await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, u.clientId))).toEqual([]);
    const history = await historyOf(u.clientId);
    expect(history).toEqual([expect.objectContaining({ successful: false, plan_id: 3, amount: 1044, card_last4: number.slice(-4) })]);
  });

  it.each([
    ['4000000000000002', 'declined', 'Tarjeta rechazada por el banco'],
    ['4000000000009995', 'insufficient_funds', 'Fondos insuficientes'],
    ['4000000000000069', 'expired_card', DECLINE_REASON.expired_card],
    ['4000000000000127', 'incorrect_cvc', DECLINE_REASON.incorrect_cvc],
    ['4000000000000119', 'processing_error', DECLINE_REASON.processing_error],
    // Lost and stolen cards are told only that the bank refused them.
    ['4000000000009979', 'declined', 'Tarjeta rechazada por el banco'],
  ])('a refused %s says why: decline_code %s, its Spanish reason, and the same reason in the history', async (number, code, reason) => {
    const u = await account(PERSON);
    const r = await buy(u, 2, number);
    expect(r.status).toBe(402);
    expect(r.json).toEqual({ errors: [MSG.chargeFailed], decline_code: code, decline_reason: reason });
    const [row] = await h.database.db.select().from(payments).where(eq(payments.clientId, u.clientId));
    expect(row).toMatchObject({ successful: false, failure: `${reason}.`, cardLast4: number.slice(-4) });
  });

  it('refuses a forged token with the §8 message and a failed row', async () => {
    const u = await account(PERSON);
    const r = await h.call('POST', '/api/v3/subscriptions.json', {
      token: u.token,
      body: { subscription: { plan_id: 2, client_id: u.clientId, token: 'tok_sbx_eyJ9.falso' } },
    });
    expect(r.status).toBe(402);
    expect(r.json).toEqual({ errors: [MSG.chargeFailed], decline_code: 'other', decline_reason: DECLINE_REASON.other });
    expect(await historyOf(u.clientId)).toEqual([expect.objectContaining({ successful: false, card_brand: null })]);
  });

  it('refuses plan 0, plan 1 and unknown plans (422), another user account (404), no token (401), bad bodies (400)', async () => {
    const u = await account(PERSON);
    const other = await account(COMPANY);
    for (const planId of [0, 1, 8, 99]) {
      const r = await buy(u, planId, '4242424242424242');
      expect(r.status).toBe(422);
      expect(r.json.errors).toEqual([MSG.planNotPurchasable]);
    }
    const theirs = await buy({ token: u.token, clientId: other.clientId }, 2, '4242424242424242');
    expect(theirs.status).toBe(404);
    expect(await historyOf(other.clientId)).toEqual([]);
    const anon = await h.call('POST', '/api/v3/subscriptions.json', { body: { subscription: { plan_id: 2, client_id: u.clientId, token: 'x' } } });
    expect(anon.status).toBe(401);
    const bad = await h.call('POST', '/api/v3/subscriptions.json', { token: u.token, body: { subscription: { plan_id: '2' } } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual([MSG.badSubscription]);
    expect(await h.database.db.select().from(payments).where(eq(payments.clientId, u.clientId))).toEqual([]);
  });

  it('app-store accounts cannot change plan on the web; the same plan twice is refused', async () => {
    const u = await account(PERSON);
    await h.database.db.update(clients).set({ planId: 0 }).where(eq(clients.id, u.clientId));
    const r = await buy(u, 2, '4242424242424242');
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual([MSG.appStorePlan]);
    const v = await account(PERSON);
    expect((await buy(v, 2, '4242424242424242')).status).toBe(200);
    const again = await buy(v, 2, '4242424242424242');
    expect(again.status).toBe(422);
    expect(again.json.errors).toEqual([MSG.samePlan]);
    expect((await buy(v, 3, '4242424242424242')).status).toBe(200);
    expect((await historyOf(v.clientId)).map((p) => p.plan_id)).toEqual([3, 2]);
  });

  it('an Idempotency-Key retry charges once', async () => {
    const u = await account(PERSON);
    const t = await token('4242424242424242');
    const send = () =>
      h.call('POST', '/api/v3/subscriptions.json', {
        token: u.token,
        headers: { 'Idempotency-Key': `sub-${u.clientId}` },
        body: { subscription: { plan_id: 2, client_id: u.clientId, token: t.json.response.id } },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(await historyOf(u.clientId)).toHaveLength(1);
  });
});

describe.each(DRIVERS)('payment history endpoint on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('lists the own account history newest first with the §3 fields; 404 for another user, 401 anonymous', async () => {
    const u = await h.signUp('hist');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: PERSON } });
    const clientId = made.json.response.diverza_client_id as number;
    const empty = await h.call('GET', `/api/v3/subscriptions/${clientId}/payments.json`, { token: u.token });
    expect(empty).toMatchObject({ status: 200, json: { response: [] } });
    for (const number of ['4000000000000002', '4242424242424242']) {
      const t = await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number, exp_month: 1, exp_year: 2040, cvc: '123' } } });
      h.advance(1_000);
      await h.call('POST', '/api/v3/subscriptions.json', { token: u.token, body: { subscription: { plan_id: 2, client_id: clientId, token: t.json.response.id } } });
    }
    const r = await h.call('GET', `/api/v3/subscriptions/${clientId}/payments.json`, { token: u.token });
    expect(r.json.response).toHaveLength(2);
    expect(Object.keys(r.json.response[0]).sort()).toEqual(['amount', 'card_brand', 'card_last4', 'id', 'plan_id', 'successful', 'timestamp']);
    expect(r.json.response.map((p: { successful: boolean }) => p.successful)).toEqual([true, false]);
    const other = await h.signUp('hist');
    expect((await h.call('GET', `/api/v3/subscriptions/${clientId}/payments.json`, { token: other.token })).status).toBe(404);
    expect((await h.call('GET', `/api/v3/subscriptions/${clientId}/payments.json`)).status).toBe(401);
    expect((await h.call('GET', '/api/v3/subscriptions/abc/payments.json', { token: u.token })).status).toBe(404);
  });
});
