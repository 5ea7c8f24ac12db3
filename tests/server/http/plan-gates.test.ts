// requireFeature on a gated route: 401 without a session, 404 for another user's account, 403 in Spanish
// without the plan, through once the plan is bought.
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSession, SessionCache } from '../../../src/server/accounts/sessions';
import type { AppEnv, Services } from '../../../src/server/context';
import { clients } from '../../../src/server/db/schema';
import { ApiError } from '../../../src/server/http/errors';
import { requireFeature } from '../../../src/server/http/plan-gates';
import { MSG } from '../../../src/domain/messages';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('feature gates on the server (%s)', (driver) => {
  let h: Harness;
  let gated: Hono<AppEnv>;
  beforeAll(async () => {
    h = await createHarness(driver);
    const sessions = new SessionCache(0);
    const clock = () => new Date();
    const authenticate: Services['authenticate'] = async (_c, token) => (token ? resolveSession(h.database.db, sessions, token, clock) : null);
    const s = { db: h.database.db, clock, sessions, authenticate } as unknown as Services;
    gated = new Hono<AppEnv>();
    gated.use(async (c, next) => {
      c.set('auth', undefined);
      c.set('body', {});
      await next();
    });
    gated.get('/sync/:client', requireFeature(s, 'SincronizacionSAT', (c) => ({ clientId: Number(c.req.param('client')) })), (c) => c.json({ ok: true }));
    gated.get('/viaticos/:rfc', requireFeature(s, 'Viaticos', (c) => ({ rfc: c.req.param('rfc') ?? '' })), (c) => c.json({ ok: true }));
    gated.onError((err, c) => (err instanceof ApiError ? c.json({ errors: err.messages }, err.status) : c.json({ errors: ['x'] }, 500)));
  });
  afterAll(async () => h?.close());

  const call = async (path: string, token?: string) => {
    const res = await gated.request(path, { headers: token ? { 'x-access-token': token } : {} });
    return { status: res.status, json: (await res.json()) as { errors?: string[]; ok?: boolean } };
  };

  it('answers 401, 404, 403 and then lets the plan through', async () => {
    const u = await h.signUp('gate');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez' } } });
    const id = made.json.response.diverza_client_id as number;
    expect((await call(`/sync/${id}`)).status).toBe(401);
    const other = await h.signUp('gate');
    expect((await call(`/sync/${id}`, other.token)).status).toBe(404);
    const locked = await call(`/sync/${id}`, u.token);
    expect(locked).toEqual({ status: 403, json: { errors: [MSG.featureLocked] } });
    await h.database.db.update(clients).set({ planId: 2 }).where(eq(clients.id, id));
    expect(await call(`/sync/${id}`, u.token)).toEqual({ status: 200, json: { ok: true } });
  });

  it('finds the account by RFC too (per-diem only for company plans 6/7)', async () => {
    const u = await h.signUp('gate');
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'ABC010101AB1', name: 'Abarrotes SA' } } });
    const id = made.json.response.diverza_client_id as number;
    expect((await call('/viaticos/abc010101ab1', u.token)).status).toBe(403);
    await h.database.db.update(clients).set({ planId: 6 }).where(eq(clients.id, id));
    expect((await call('/viaticos/abc010101ab1', u.token)).status).toBe(200);
  });
});
