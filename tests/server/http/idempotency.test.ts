import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, idempotencyKeys } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('Idempotency-Key on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  const countRfc = async (userId: number, rfc: string) =>
    (await h.database.db.select().from(clients).where(and(eq(clients.userId, userId), eq(clients.rfc, rfc)))).length;

  it('replays the stored response for the same key and body, with one effect and one row', async () => {
    const u = await h.signUp('idem');
    const key = crypto.randomUUID();
    const body = { client: { rfc: 'IDE010101AB1', name: 'Idempotente' } };
    const first = await h.call('POST', '/new_client', { token: u.token, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await h.call('POST', '/new_client', { token: u.token, body, headers: { 'Idempotency-Key': key } });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(await countRfc(u.userId, 'IDE010101AB1')).toBe(1);
    const rows = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ scope: `u:${u.userId}`, state: 'done', responseStatus: 200 });
  });

  it('answers the same key with another body with 422', async () => {
    const u = await h.signUp('idem');
    const key = crypto.randomUUID();
    await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'IDF010101AB1', name: 'A' } }, headers: { 'Idempotency-Key': key } });
    const other = await h.call('POST', '/new_client', {
      token: u.token,
      body: { client: { rfc: 'IDG010101AB1', name: 'B' } },
      headers: { 'Idempotency-Key': key },
    });
    expect(other.status).toBe(422);
    expect(other.json).toEqual({ errors: [MSG.idempotencyMismatch] });
    expect(await countRfc(u.userId, 'IDG010101AB1')).toBe(0);
  });

  it('lets concurrent duplicates have one effect: the others wait (409) or replay', async () => {
    const u = await h.signUp('idem');
    const key = crypto.randomUUID();
    const body = { client: { rfc: 'IDH010101AB1', name: 'Concurrente' } };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => h.call('POST', '/new_client', { token: u.token, body, headers: { 'Idempotency-Key': key } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json).toEqual({ errors: [MSG.idempotencyInFlight] });
    const fresh = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true');
    expect(fresh).toHaveLength(1);
    expect(await countRfc(u.userId, 'IDH010101AB1')).toBe(1);
  });

  it('keeps keys apart per user and does not store a 401', async () => {
    const a = await h.signUp('idem');
    const b = await h.signUp('idem');
    const key = crypto.randomUUID();
    const body = { client: { rfc: 'IDJ010101AB1', name: 'Compartida' } };
    const ra = await h.call('POST', '/new_client', { token: a.token, body, headers: { 'Idempotency-Key': key } });
    const rb = await h.call('POST', '/new_client', { token: b.token, body, headers: { 'Idempotency-Key': key } });
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect(rb.json.response.diverza_client_id).not.toBe(ra.json.response.diverza_client_id);

    const key2 = crypto.randomUUID();
    const noAuth = await h.call('POST', '/new_client', { body, headers: { 'Idempotency-Key': key2 } });
    expect(noAuth.status).toBe(401);
    expect(await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key2))).toHaveLength(0);
  });

  it('never stores a login response (it carries a session token)', async () => {
    const key = crypto.randomUUID();
    const body = { user: { login: 'demo', password: 'cuentasclaras' } };
    const a = await h.call('POST', '/api/v2/login', { body, headers: { 'Idempotency-Key': key } });
    const b = await h.call('POST', '/api/v2/login', { body, headers: { 'Idempotency-Key': key } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.json.response.token).not.toBe(a.json.response.token);
    expect(await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
  });

  it('stores a validation failure and replays it', async () => {
    const u = await h.signUp('idem');
    const key = crypto.randomUUID();
    const body = { client: { rfc: 'MAL', name: 'X' } };
    const first = await h.call('POST', '/new_client', { token: u.token, body, headers: { 'Idempotency-Key': key } });
    const second = await h.call('POST', '/new_client', { token: u.token, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual({ errors: [MSG.rfcInvalid] });
  });
});
