// Company plans charge base + 89 a month per 'activo' collaborator (spec §9): the counter the checkout and
// the daily renewal use counts only accepted collaborators of that company.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLABORATOR_MONTHLY_PRICE, IVA_FACTOR, planById } from '../../../src/domain/plans';
import { activeCollaboratorCounter } from '../../../src/server/plans/collaborator-count';
import { clients, payments, subscriptions } from '../../../src/server/db/schema';
import { collaborators } from '../../../src/server/db/schema-company';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { SandboxProvider } from '../../../src/server/payments/sandbox';
import { renewDueSubscriptions } from '../../../src/server/plans/renewals';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { addDepartment, collaboratorBody, companyManager } from './helpers';

describe.each(DRIVERS)('collaborators in the company bill on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('counts only the active collaborators of each company', async () => {
    const a = await companyManager(h);
    const b = await companyManager(h, 4, 'XYZ020202XY2', 'Otra SA');
    const area = await addDepartment(h, a);
    for (const email of ['a1@example.com', 'a2@example.com', 'a3@example.com']) {
      const r = await h.call('POST', `/api/v3/clients/${a.clientId}/collaborators.json`, { token: a.token, body: collaboratorBody(area, { email }) });
      expect(r.status).toBe(201);
    }
    await h.database.db.update(collaborators).set({ status: 'activo' }).where(eq(collaborators.email, 'a1@example.com'));
    await h.database.db.update(collaborators).set({ status: 'activo' }).where(eq(collaborators.email, 'a2@example.com'));
    await h.database.db.update(collaborators).set({ status: 'inactivo' }).where(eq(collaborators.email, 'a3@example.com'));
    const counts = await activeCollaboratorCounter(h.database.db)([a.clientId, b.clientId]);
    expect(counts.get(a.clientId)).toBe(2);
    expect(counts.get(b.clientId) ?? 0).toBe(0);
  });

  it('renews a company plan at base + 89 per active collaborator, plus IVA', async () => {
    const m = await companyManager(h, 1, 'DEF040404DE4', 'Renueva SA');
    const t = await h.call('POST', '/api/v3/payments/sandbox/tokens', { body: { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' } } });
    const bought = await h.call('POST', '/api/v3/subscriptions.json', { token: m.token, body: { subscription: { plan_id: 4, client_id: m.clientId, token: t.json.response.id } } });
    expect(bought.status).toBe(200);
    const area = await addDepartment(h, m);
    for (const email of ['r1@example.com', 'r2@example.com']) {
      await h.call('POST', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token, body: collaboratorBody(area, { email }) });
    }
    await h.database.db.update(collaborators).set({ status: 'activo' }).where(eq(collaborators.companyClientId, m.clientId));
    const [sub] = await h.database.db.select().from(subscriptions).where(eq(subscriptions.clientId, m.clientId));
    const at = new Date(sub!.currentPeriodEnd.getTime() + 60_000);
    await renewDueSubscriptions(h.database.db, new SandboxProvider(() => at), () => at, devMailboxMailer(h.database.db));
    const rows = await h.database.db.select().from(payments).where(eq(payments.clientId, m.clientId));
    const renewal = rows.find((p) => p.kind === 'renewal');
    const plan = planById(4)!;
    const expected = Math.round((plan.price + 2 * COLLABORATOR_MONTHLY_PRICE) * plan.interval * IVA_FACTOR * 100) / 100;
    expect(renewal).toMatchObject({ successful: true, amount: expected.toFixed(2), planId: 4 });
    expect((await h.database.db.select().from(clients).where(eq(clients.id, m.clientId)))[0]!.planId).toBe(4);
  });
});
