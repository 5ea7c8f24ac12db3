// Cancelling a paid plan: owner only, idempotent, never charged again, on the free plan once the paid
// period is over; undoing it before then. Plus the company gates for plans 6 and 7 on the server routes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, payments, subscriptions } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { SandboxProvider } from '../../../src/server/payments/sandbox';
import { CANCEL_MSG } from '../../../src/server/plans/cancel';
import { renewDueSubscriptions } from '../../../src/server/plans/renewals';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const PERSON = { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' };
const COMPANY = { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' };
const HOUR = 3_600_000;

describe.each(DRIVERS)('plan cancellation on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  async function account(client: object = PERSON) {
    const u = await h.signUp('cancel');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client } });
    expect(made.status).toBe(200);
    return { ...u, clientId: made.json.response.diverza_client_id as number };
  }
  async function buy(u: { token: string; clientId: number }, planId: number) {
    const t = await h.call('POST', '/api/v3/payments/sandbox/tokens', {
      body: { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' } },
    });
    const r = await h.call('POST', '/api/v3/subscriptions.json', {
      token: u.token,
      body: { subscription: { plan_id: planId, client_id: u.clientId, token: t.json.response.id } },
    });
    expect(r.status).toBe(200);
    return new Date(r.json.response.subscription.active_until as string);
  }
  const path = (clientId: number | string) => `/api/v3/subscriptions/${clientId}/cancellation.json`;
  const cancel = (u: { token: string }, clientId: number | string) => h.call('POST', path(clientId), { token: u.token });
  const resume = (u: { token: string }, clientId: number | string) => h.call('DELETE', path(clientId), { token: u.token });
  const state = (u: { token: string }, clientId: number) => h.call('GET', `/api/v3/subscriptions/${clientId}/current.json`, { token: u.token });
  const renew = (at: Date) => renewDueSubscriptions(h.database.db, new SandboxProvider(() => at), () => at, devMailboxMailer(h.database.db));
  const clientOf = async (id: number) => (await h.database.db.select().from(clients).where(eq(clients.id, id)))[0]!;
  const subOf = async (id: number) => (await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, id)))[0]!;
  const paymentsOf = (id: number) => h.database.db.select().from(payments).where(eq(payments.clientId, id));

  it('cancels at the end of the paid period: idempotent, the renewal skips it, then the account is on Gratuito', async () => {
    const u = await account();
    const until = await buy(u, 2);
    const before = await state(u, u.clientId);
    expect(before.json.response).toEqual({ client_id: u.clientId, plan_id: 2, status: 'active', current_period_end: until.toISOString(), cancel_at_period_end: false });

    const first = await cancel(u, u.clientId);
    expect(first.status).toBe(200);
    const cancelled = { client_id: u.clientId, plan_id: 2, status: 'canceling', current_period_end: until.toISOString(), cancel_at_period_end: true };
    expect(first.json.response).toEqual(cancelled);
    const again = await cancel(u, u.clientId);
    expect(again.status).toBe(200);
    expect(again.json.response).toEqual(cancelled);
    // Still paid: the plan and its date are untouched until the end.
    expect(await clientOf(u.clientId)).toMatchObject({ planId: 2, activeUntil: until });

    // A run before the end changes nothing.
    await renew(new Date(until.getTime() - HOUR));
    expect((await subOf(u.clientId)).status).toBe('canceling');
    // The run after the end charges nothing and puts the account on the free plan.
    const run = await renew(new Date(until.getTime() + HOUR));
    expect(run.ended).toBeGreaterThanOrEqual(1);
    expect((await paymentsOf(u.clientId)).filter((p) => p.kind === 'renewal')).toEqual([]);
    expect(await clientOf(u.clientId)).toMatchObject({ planId: 1, activeUntil: null });
    expect((await subOf(u.clientId)).status).toBe('canceled');
    expect((await state(u, u.clientId)).json.response).toMatchObject({ plan_id: 1, status: 'canceled', current_period_end: null, cancel_at_period_end: false });
    // Later runs never charge it; cancelling again is still a calm 200.
    await renew(new Date(until.getTime() + 40 * 24 * HOUR));
    expect((await paymentsOf(u.clientId)).filter((p) => p.kind === 'renewal')).toEqual([]);
    expect((await cancel(u, u.clientId)).status).toBe(200);
    // And it can be bought again.
    await buy(u, 3);
    expect((await state(u, u.clientId)).json.response).toMatchObject({ plan_id: 3, status: 'active', cancel_at_period_end: false });
  });

  it('undoes a cancellation before the end (then it renews as usual), not after', async () => {
    const u = await account();
    const until = await buy(u, 2);
    expect((await cancel(u, u.clientId)).status).toBe(200);
    const undone = await resume(u, u.clientId);
    expect(undone.status).toBe(200);
    expect(undone.json.response).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect((await resume(u, u.clientId)).status).toBe(200);
    await renew(new Date(until.getTime() + HOUR));
    expect((await paymentsOf(u.clientId)).filter((p) => p.kind === 'renewal' && p.successful)).toHaveLength(1);
    expect((await clientOf(u.clientId)).planId).toBe(2);

    // Past the end (the renewal job has not run yet): too late to undo.
    const v = await account();
    await buy(v, 2);
    await cancel(v, v.clientId);
    await h.database.db.update(subscriptions).set({ currentPeriodEnd: new Date(Date.now() - HOUR) }).where(eq(subscriptions.clientId, v.clientId));
    const late = await resume(v, v.clientId);
    expect(late.status).toBe(422);
    expect(late.json.errors).toEqual([CANCEL_MSG.cannotResume]);
    expect((await subOf(v.clientId)).status).toBe('canceling');
  });

  it('a plan whose renewal already failed (in grace) ends at once when cancelled', async () => {
    const u = await account();
    await buy(u, 2);
    await h.database.db.update(subscriptions).set({ status: 'past_due', graceUntil: new Date(Date.now() + 5 * 24 * HOUR) }).where(eq(subscriptions.clientId, u.clientId));
    const r = await cancel(u, u.clientId);
    expect(r.status).toBe(200);
    expect(r.json.response).toMatchObject({ plan_id: 1, status: 'canceled' });
    expect(await clientOf(u.clientId)).toMatchObject({ planId: 1, activeUntil: null });
  });

  it('only the owner: 404 for another user or a junk id, 401 without a session, 422 with nothing to cancel or an app-store plan', async () => {
    const u = await account();
    await buy(u, 2);
    const other = await h.signUp('cancel');
    for (const call of [cancel, resume]) {
      const r = await call(other, u.clientId);
      expect(r.status).toBe(404);
      expect(r.json.errors).toEqual([MSG.notFound]);
    }
    expect((await state(other, u.clientId)).status).toBe(404);
    expect((await h.call('POST', path(u.clientId))).status).toBe(401);
    for (const junk of ['abc', '-1', '0', '1e3', '99999999999999999999']) expect((await cancel(u, junk)).status).toBe(404);
    expect((await subOf(u.clientId)).status).toBe('active');

    const free = await account();
    const nothing = await cancel(free, free.clientId);
    expect(nothing.status).toBe(422);
    expect(nothing.json.errors).toEqual([CANCEL_MSG.nothingToCancel]);
    expect((await state(free, free.clientId)).json.response).toMatchObject({ status: 'none', plan_id: 1, current_period_end: null });
    const store = await account();
    await h.database.db.update(clients).set({ planId: 0 }).where(eq(clients.id, store.clientId));
    expect((await cancel(store, store.clientId)).json.errors).toEqual([MSG.appStorePlan]);
  });
});

describe.each(DRIVERS)('company gates of plans 6 and 7 on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('plans 6 and 7 open Colaboradores, Gastos and Viáticos; 4 and 5 all but Viáticos; the free plan none', async () => {
    const u = await h.signUp('gates');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: COMPANY } });
    const clientId = made.json.response.diverza_client_id as number;
    const status = async (p: string) => (await h.call('GET', p, { token: u.token })).status;
    const month = `?usuario[rfc_owner]=${COMPANY.rfc}&date[year]=2026&date[month]=3&action=company-view-stats`;
    const routes = {
      Colaboradores: `/api/v3/clients/${clientId}/collaborators.json`,
      Gastos: `/tickets/colaborator_stats${month}`,
      Viaticos: `/api/v3/clients/${clientId}/per_diem_events.json`,
    };
    const want: Record<number, [number, number, number]> = { 1: [403, 403, 403], 4: [200, 200, 403], 5: [200, 200, 403], 6: [200, 200, 200], 7: [200, 200, 200] };
    for (const [plan, expected] of Object.entries(want)) {
      await h.database.db.update(clients).set({ planId: Number(plan) }).where(eq(clients.id, clientId));
      const got = [await status(routes.Colaboradores), await status(routes.Gastos), await status(routes.Viaticos)];
      expect(got, `plan ${plan}`).toEqual(expected);
    }
  });
});
