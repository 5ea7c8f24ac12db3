// The renewal as a durable pg-boss job: a job on the queue renews what is due (clock injected).
import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, subscriptions } from '../../../src/server/db/schema';
import { startBoss } from '../../../src/server/jobs/boss';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { SandboxProvider } from '../../../src/server/payments/sandbox';
import { RENEWALS_QUEUE, startRenewalWorker } from '../../../src/server/plans/jobs';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('renewal job on %s', (driver) => {
  let h: Harness;
  let boss: PgBoss | undefined;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await h?.close();
  });

  it('runs renewDueSubscriptions from the queue and is scheduled daily', async () => {
    const u = await h.signUp('job');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' } } });
    const clientId = made.json.response.diverza_client_id as number;
    const t = await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } } });
    expect((await h.call('POST', '/api/v3/subscriptions.json', { token: u.token, body: { subscription: { plan_id: 2, client_id: clientId, token: t.json.response.id } } })).status).toBe(200);
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, clientId));
    const later = new Date(sub!.currentPeriodEnd.getTime() + 60_000);

    boss = await startBoss(h.database, { supervise: false });
    const at = () => later;
    await startRenewalWorker(boss, { db: h.database.db, mailer: devMailboxMailer(h.database.db), clock: at, provider: new SandboxProvider(at) });
    expect((await boss.getSchedules()).map((s) => s.name)).toContain(RENEWALS_QUEUE);
    await boss.send(RENEWALS_QUEUE, {});
    await expect
      .poll(async () => (await h.database.db.select().from(payments).where(eq(payments.clientId, clientId))).filter((p) => p.kind === 'renewal').length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
  }, 60_000);
});
