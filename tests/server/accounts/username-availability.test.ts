import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { USERNAME_CHECKS_PER_HOUR, USERNAME_CHECKS_PER_MINUTE } from '../../../src/server/accounts/username-availability';
import { createHarness, DRIVERS, freshIp, uniqueName, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('GET /api/v2/username_available on %s', (driver) => {
  let h: Harness;
  let taken: string;
  beforeAll(async () => {
    h = await createHarness(driver);
    taken = (await h.signUp('lupita')).username;
  });
  afterAll(async () => h?.close());

  const check = (username: string, ip = freshIp()) => h.call('GET', `/api/v2/username_available?username=${encodeURIComponent(username)}`, { ip });

  it('says a registered name is taken, whatever case or spacing it is typed in', async () => {
    const r = await check(`  ${taken.toUpperCase()} `);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json).toEqual({ response: { username: taken, available: false } });
  });

  it('says a free name is available, as the rule will save it (accents transliterated, spaces as dots)', async () => {
    const suffix = uniqueName('').slice(0, 6);
    const r = await check(`Lupita Gómez ${suffix}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ response: { username: `lupita.gomez.${suffix}`, available: true } });
  });

  it('refuses names the rule makes too short or too long, and hostile input, with the spec messages', async () => {
    const cases: [string, number, string][] = [
      ['', 400, MSG.accountEmpty],
      ['   ', 400, MSG.accountEmpty],
      ['a!b', 400, MSG.usernameShort],
      ['ñ"\'<>&;', 400, MSG.usernameShort],
      ['x'.repeat(26), 400, MSG.usernameLong],
      ['x'.repeat(61), 400, MSG.usernameLong],
    ];
    for (const [username, status, message] of cases) {
      const r = await check(username);
      expect(r.status, JSON.stringify(username)).toBe(status);
      expect(r.json).toEqual({ errors: [message] });
    }
    // Control characters are refused before the route, by the app's input guard.
    expect((await check('abcd\u0000efgh')).status).toBe(400);
    const missing = await h.call('GET', '/api/v2/username_available', { ip: freshIp() });
    expect(missing.status).toBe(400);
    const array = await h.call('GET', '/api/v2/username_available?username=abcd&username=efgh', { ip: freshIp() });
    expect([200, 400]).toContain(array.status);
    const injection = await check(`${taken}' OR '1'='1`);
    expect(injection.status).toBe(200);
    expect(injection.json.response.username).toEqual(`${taken}.or.11`);
    expect(injection.json.response.available).toBe(true);
  });

  it('limits each address per minute, then per hour, with 429 and Retry-After; other addresses go on', async () => {
    const ip = freshIp();
    for (let i = 0; i < USERNAME_CHECKS_PER_MINUTE.limit; i++) expect((await check(`prueba${i}x`, ip)).status).toBe(200);
    const limited = await check('otra.prueba', ip);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ errors: [MSG.usernameChecksTooMany] });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Invalid names count too: a refused shape is no free probe.
    expect((await check('a', ip)).status).toBe(429);
    expect((await check('otra.prueba')).status).toBe(200);

    // Minute after minute, the hourly budget runs out.
    let used = USERNAME_CHECKS_PER_MINUTE.limit;
    while (used < USERNAME_CHECKS_PER_HOUR.limit) {
      h.advance(USERNAME_CHECKS_PER_MINUTE.windowMs);
      for (let i = 0; i < USERNAME_CHECKS_PER_MINUTE.limit && used < USERNAME_CHECKS_PER_HOUR.limit; i++, used++) {
        expect((await check(`hora${used}x`, ip)).status).toBe(200);
      }
    }
    h.advance(USERNAME_CHECKS_PER_MINUTE.windowMs);
    const hourly = await check('una.mas', ip);
    expect(hourly.status).toBe(429);
    expect(Number(hourly.headers.get('retry-after'))).toBeGreaterThan(60);
    h.advance(USERNAME_CHECKS_PER_HOUR.windowMs);
    expect((await check('una.mas', ip)).status).toBe(200);
  });
});
