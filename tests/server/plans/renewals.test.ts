// The daily renewal with an injected clock: renew, fail into grace, retry, fall back to the free plan.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, mailMessages, payments, subscriptions } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { SandboxProvider } from '../../../src/server/payments/sandbox';
import { renewDueSubscriptions } from '../../../src/server/plans/renewals';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const DAY = 86_400_000;

describe.each(DRIVERS)('renewals on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  async function subscribed(planId: number, card: { number: string; exp_month?: number; exp_year?: number }) {
    const u = await h.signUp('ren');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' } } });
    const clientId = made.json.response.diverza_client_id as number;
    const t = await h.call('POST', '/api/v3/payments/sandbox/tokens', {
      body: { card: { exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123', ...card } },
    });
    expect(t.status).toBe(200);
    const r = await h.call('POST', '/api/v3/subscriptions.json', {
      token: u.token,
      body: { subscription: { plan_id: planId, client_id: clientId, token: t.json.response.id } },
    });
    expect(r.status).toBe(200);
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId));
    return { ...u, clientId, sub: sub! };
  }
  const run = (at: Date) =>
    renewDueSubscriptions(h.database.db, new SandboxProvider(() => at), () => at, devMailboxMailer(h.database.db), { appUrl: 'https://app.example.mx' });
  const rowsOf = (clientId: number) => h.database.db.select().from(payments).where(eq(payments.clientId, clientId));
  const clientOf = async (clientId: number) => (await h.database.db.select().from(clients).where(eq(clients.id, clientId)))[0]!;
  const subOf = async (clientId: number) => (await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId)))[0]!;

  it('charges a due monthly subscription once, extends it a month and mails the receipt', async () => {
    const u = await subscribed(2, { number: '4242424242424242' });
    const before = await run(new Date(Date.now() + 5 * DAY));
    expect((await rowsOf(u.clientId)).length).toBe(1);
    expect(before.charged).toBe(0);
    const at = new Date(u.sub.currentPeriodEnd.getTime() + 3_600_000);
    const r = await run(at);
    expect(r.renewed).toBeGreaterThanOrEqual(1);
    const rows = await rowsOf(u.clientId);
    expect(rows.filter((p) => p.kind === 'renewal')).toEqual([expect.objectContaining({ successful: true, amount: '103.24', cardLast4: '4242', planId: 2 })]);
    const sub = await subOf(u.clientId);
    expect(sub.status).toBe('active');
    expect(sub.currentPeriodEnd.getTime()).toBeGreaterThan(at.getTime() + 27 * DAY);
    expect((await clientOf(u.clientId)).activeUntil?.getTime()).toBe(sub.currentPeriodEnd.getTime());
    const mails = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, u.email));
    expect(mails.filter((m) => m.subject.startsWith('Recibo de tu pago'))).toHaveLength(2);
    // The same day again: nothing is due, nothing charged twice.
    await run(at);
    expect((await rowsOf(u.clientId)).length).toBe(2);
  });

  it('renews an annual plan for 12 more months at 75 × 12 × 1.16', async () => {
    const u = await subscribed(3, { number: '4242424242424242' });
    const at = new Date(u.sub.currentPeriodEnd.getTime() + 60_000);
    await run(at);
    const renewal = (await rowsOf(u.clientId)).find((p) => p.kind === 'renewal');
    expect(renewal).toMatchObject({ successful: true, amount: '1044.00' });
    expect((await subOf(u.clientId)).currentPeriodEnd.getTime()).toBeGreaterThan(at.getTime() + 360 * DAY);
  });

  it('a failed renewal keeps the plan for 7 days of grace, retries daily, then returns to the free plan', async () => {
    const now = new Date();
    // Valid today, expired by the time the month is over.
    const u = await subscribed(2, { number: '4242424242424242', exp_month: now.getUTCMonth() + 1, exp_year: now.getUTCFullYear() });
    const end = u.sub.currentPeriodEnd.getTime();
    await run(new Date(end + 3_600_000));
    let sub = await subOf(u.clientId);
    expect(sub.status).toBe('past_due');
    expect(sub.graceUntil!.getTime()).toBe(end + 3_600_000 + 7 * DAY);
    expect((await clientOf(u.clientId)).planId).toBe(2);
    const notices = await h.database.db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.to, u.email), eq(mailMessages.subject, 'No pudimos renovar tu plan de Cuentas Claras')));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain('Conservarás tu plan');
    expect(notices[0]!.text).toContain('https://app.example.mx/#/subscription');
    expect(notices[0]!.html).toContain('Revisar mi tarjeta');

    await run(new Date(end + 2 * DAY));
    sub = await subOf(u.clientId);
    expect(sub.status).toBe('past_due');
    expect((await clientOf(u.clientId)).planId).toBe(2);
    const failed = (await rowsOf(u.clientId)).filter((p) => !p.successful);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ kind: 'renewal', failure: 'Tarjeta rechazada por el banco.', cardLast4: '4242' });

    await run(new Date(end + 8 * DAY));
    sub = await subOf(u.clientId);
    expect(sub.status).toBe('canceled');
    expect(await clientOf(u.clientId)).toMatchObject({ planId: 1, activeUntil: null });
    expect((await rowsOf(u.clientId)).filter((p) => !p.successful)).toHaveLength(3);
    // Canceled: never charged again.
    await run(new Date(end + 40 * DAY));
    expect((await rowsOf(u.clientId)).length).toBe(4);
  });
});
