// Rate limits (lib/ip-limiter.ts): the in-memory window and the shared one in rate_limit_hits (PGlite and
// PostgreSQL) agree; two limit objects on one database (two API processes) spend one budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbLimits, memoryLimits, type RateLimits } from '../../../src/server/lib/ip-limiter';
import { createApp } from '../../../src/server/app';
import { USERNAME_CHECKS_PER_MINUTE } from '../../../src/server/accounts/username-availability';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { createHarness, DRIVERS, socketEnv, type Harness } from '../helpers/harness';

async function spend(limits: RateLimits, bucket: string, key: string, now: number, times: number): Promise<boolean[]> {
  const limit = limits(bucket, 3, 60_000);
  const out: boolean[] = [];
  for (let i = 0; i < times; i++) out.push(await limit.take(key, now + i));
  return out;
}

describe('memory limits', () => {
  it('allows `limit` calls per window and frees them as they leave it', async () => {
    const limit = memoryLimits('x', 3, 60_000);
    const t0 = 1_000_000;
    expect([await limit.take('a', t0), await limit.take('a', t0 + 1), await limit.take('a', t0 + 2), await limit.take('a', t0 + 3)]).toEqual([true, true, true, false]);
    expect(limit.retryAfter('a', t0 + 3)).toBe(60);
    expect(await limit.take('a', t0 + 60_000)).toBe(true);
  });
});

describe.each(DRIVERS)('shared limits in rate_limit_hits (%s)', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('counts like the in-memory window: refused calls are not counted, old ones leave', async () => {
    const limit = dbLimits(h.database.db)('window', 3, 60_000);
    const t0 = 2_000_000;
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await limit.take('a', t0 + i * 1000));
    expect(got).toEqual([true, true, true, false]);
    expect(limit.retryAfter('a', t0 + 3000)).toBe(57);
    // Another key and another limit have their own budgets.
    expect(await limit.take('b', t0)).toBe(true);
    expect(await dbLimits(h.database.db)('other', 3, 60_000).take('a', t0)).toBe(true);
    // The first call leaves the window: one more is allowed, then refused again.
    expect(await limit.take('a', t0 + 60_000)).toBe(true);
    expect(await limit.take('a', t0 + 60_001)).toBe(false);
  });

  it('two processes (two limit objects on one database) spend one budget, even at once', async () => {
    const a = dbLimits(h.database.db);
    const b = dbLimits(h.database.db);
    const t0 = 3_000_000;
    const both = await Promise.all([spend(a, 'shared', 'ip', t0, 3), spend(b, 'shared', 'ip', t0, 3)]);
    expect(both.flat().filter(Boolean)).toHaveLength(3);
  });

  it('a route spends one budget whichever app answers (the user-name check: 10 a minute per address)', async () => {
    const apps = [0, 1].map(() =>
      createApp({ db: h.database.db, mailer: devMailboxMailer(h.database.db), limits: dbLimits(h.database.db), config: { trustProxy: true } }),
    );
    const statuses: number[] = [];
    for (let i = 0; i <= USERNAME_CHECKS_PER_MINUTE.limit; i++) {
      const res = await apps[i % 2]!.request('/api/v2/username_available?username=alguien', { headers: { 'x-forwarded-for': '10.99.0.1' } }, socketEnv());
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
