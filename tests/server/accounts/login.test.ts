import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { loginAttempts, users } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, freshIp, type Harness } from '../helpers/harness';

const DAY = 86_400_000;

describe.each(DRIVERS)('login, sessions and logout on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  const login = (loginText: string, password: string, extra: Record<string, unknown> = {}, ip?: string) =>
    h.call('POST', '/api/v2/login', { body: { user: { login: loginText, password, ...extra }, device: { device: 'web' } }, ip });

  it('signs the seeded demo user in by username or e-mail, case-insensitively, with a new token each time', async () => {
    const a = await login('demo', 'cuentasclaras');
    expect(a.status).toBe(200);
    expect(a.json.response).toEqual({ token: expect.any(String), user_id: expect.any(Number), email: 'demo@cuentasclaras.mx', username: 'demo', device_token: expect.any(String) });
    expect(a.json.response.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const b = await login('  Demo@CuentasClaras.MX ', 'cuentasclaras');
    expect(b.status).toBe(200);
    expect(b.json.response.user_id).toBe(a.json.response.user_id);
    expect(b.json.response.token).not.toBe(a.json.response.token);
  });

  it('finds a user name typed as a name, by the sign-up rule (Lupita Gómez → lupita.gomez); an exact name wins', async () => {
    const u = await h.signUp('lupe');
    await h.database.db.update(users).set({ username: 'lupita.gomez' }).where(eq(users.id, u.userId));
    const typed = await login(' Lupita Gómez ', u.password, {}, freshIp());
    expect(typed.status).toBe(200);
    expect(typed.json.response).toMatchObject({ user_id: u.userId, username: 'lupita.gomez' });
    // Someone whose stored name is exactly what was typed keeps it.
    const other = await h.signUp('gomez');
    await h.database.db.update(users).set({ username: 'lupita-gomez' }).where(eq(users.id, other.userId));
    const exact = await login('lupita-gomez', other.password, {}, freshIp());
    expect(exact.json.response).toMatchObject({ user_id: other.userId });
  });

  it('answers a wrong password and an unknown user with the same 401 message', async () => {
    const wrong = await login('demo', 'otra-cosa');
    const unknown = await login('nadie-por-aqui', 'otra-cosa');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ errors: [MSG.loginFailed] });
    expect(unknown.json).toEqual(wrong.json);
    const empty = await login('  ', '');
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ errors: [MSG.loginEmpty] });
  });

  it('accepts the token in X-Access-Token, token header, access_token query, user.token and usuario.token', async () => {
    const u = await h.signUp('places');
    const viaHeader = await h.call('GET', '/user_clients', { headers: { 'X-Access-Token': u.token } });
    const viaToken = await h.call('GET', '/user_clients', { headers: { token: u.token } });
    const viaQuery = await h.call('GET', `/user_clients?access_token=${u.token}`);
    const viaBracket = await h.call('GET', `/user_clients?user[token]=${u.token}`);
    for (const r of [viaHeader, viaToken, viaQuery, viaBracket]) {
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ response: [] });
    }
    const client = { rfc: 'GOMA800101AB1', first_name: 'Ana', last_name: 'Gómez' };
    const viaUser = await h.call('POST', '/new_client', { body: { user: { token: u.token }, client } });
    expect(viaUser.status).toBe(200);
    const viaUsuario = await h.call('POST', '/new_client', { body: { usuario: { token: u.token }, client: { ...client, rfc: 'GOMA800101AB2' } } });
    expect(viaUsuario.status).toBe(200);
  });

  it('refuses a missing, wrong or revoked token with 401 in each of the four places', async () => {
    const u = await h.signUp('revoke');
    const client = { rfc: 'PEXJ900101AA1', first_name: 'Juan', last_name: 'Pérez' };
    const attempts = (token: string | undefined) => [
      h.call('GET', '/user_clients', token === undefined ? {} : { headers: { 'X-Access-Token': token } }),
      h.call('GET', '/user_clients', token === undefined ? {} : { headers: { token } }),
      h.call('GET', `/user_clients${token === undefined ? '' : `?access_token=${encodeURIComponent(token)}`}`),
      h.call('POST', '/new_client', { body: { user: token === undefined ? {} : { token }, client } }),
      h.call('POST', '/new_client', { body: { usuario: token === undefined ? {} : { token }, client } }),
    ];
    const out = await h.call('POST', '/api/v2/logout', { token: u.token });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ response: { ok: true } });
    for (const token of [undefined, 'x'.repeat(43), `${u.token.slice(0, -2)}zz`, u.token]) {
      for (const r of await Promise.all(attempts(token))) {
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ errors: [MSG.unauthorized] });
      }
    }
  });

  it('expires a plain session after 24 hours and a remembered one after 30 idle days', async () => {
    const u = await h.signUp('expiry');
    const remembered = (await login(u.username, u.password, { remember: true })).json.response.token as string;
    const plain = u.token;
    h.advance(DAY + 60_000);
    try {
      expect((await h.call('GET', '/user_clients', { token: plain })).status).toBe(401);
      expect((await h.call('GET', '/user_clients', { token: remembered })).status).toBe(200);
      h.advance(29 * DAY); // used a day ago: still within 30 idle days
      expect((await h.call('GET', '/user_clients', { token: remembered })).status).toBe(200);
      h.advance(31 * DAY);
      expect((await h.call('GET', '/user_clients', { token: remembered })).status).toBe(401);
    } finally {
      h.advance(-(61 * DAY + 60_000));
    }
  });

  it('limits failures to 10 per account in 15 minutes with 429 and Retry-After, even with the right password', async () => {
    const u = await h.signUp('limit');
    for (let i = 0; i < 10; i++) {
      const r = await login(i % 2 ? u.username : u.email, 'incorrecta', {}, freshIp());
      expect(r.status).toBe(401);
    }
    const blocked = await login(u.username, u.password, {}, freshIp());
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual({ errors: [MSG.loginRateLimited] });
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // Other accounts are unaffected; the window slides.
    expect((await login('demo', 'cuentasclaras')).status).toBe(200);
    h.advance(15 * 60_000 + 1000);
    try {
      expect((await login(u.username, u.password, {}, freshIp())).status).toBe(200);
    } finally {
      h.advance(-(15 * 60_000 + 1000));
    }
  });

  it('limits failures to 30 per IP address across accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      expect((await login(`desconocido${i}`, 'x', {}, ip)).status).toBe(401);
    }
    const blocked = await login('demo', 'cuentasclaras', {}, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await login('demo', 'cuentasclaras', {}, freshIp())).status).toBe(200);
  });

  const rowsOf = async (bucket: string) => (await h.database.db.select().from(loginAttempts).where(eq(loginAttempts.bucket, bucket))).length;

  it('holds the account limit under concurrency: of 60 parallel wrong passwords at most 10 are checked', async () => {
    const u = await h.signUp('parallel');
    const all = await Promise.all(Array.from({ length: 60 }, () => login(u.username, 'incorrecta-9', {}, freshIp())));
    const statuses = all.map((r) => r.status);
    // A 401 is a password that was checked; a 429 never reached the hash.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(await rowsOf(`user:${u.userId}`)).toBe(10);
    for (const r of all.filter((x) => x.status === 429)) expect(r.json).toEqual({ errors: [MSG.loginRateLimited] });
  });

  it('lets the owner in from a known device while the account is locked; strangers stay locked out', async () => {
    const u = await h.signUp('owner');
    const first = await login(u.username, u.password);
    expect(first.status).toBe(200);
    const deviceToken = first.json.response.device_token as string;
    expect(deviceToken).toMatch(/^d1\.\d+\.\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const other = await h.signUp('otro');
    const otherDevice = (await login(other.username, other.password)).json.response.device_token as string;

    // An attacker spends the account's failures from many addresses, and the address the owner shares.
    const shared = freshIp();
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'adivinanza-1', {}, i < 5 ? shared : freshIp())).status).toBe(401);
    for (let i = 0; i < 25; i++) expect((await login(`nadie${i}`, 'x', {}, shared)).status).toBe(401);
    expect((await login(u.username, u.password, {}, freshIp())).status).toBe(429);
    // Without a valid token of this user (none, another user's, forged), the owner is locked out too.
    for (const token of [undefined, otherDevice, `${deviceToken.slice(0, -3)}AAA`]) {
      const withToken = await h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: u.password }, device_token: token }, ip: shared });
      expect(withToken.status).toBe(429);
    }
    // The owner's device: in, even from the shared address that is over its own limit.
    const owner = await h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: u.password }, device_token: deviceToken }, ip: shared });
    expect(owner.status).toBe(200);
    expect(owner.json.response.user_id).toBe(u.userId);

    // A wrong password with the device token is a failure of that token alone, limited like an account.
    for (let i = 0; i < 10; i++) {
      const r = await h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: 'mal-escrita-1' }, device_token: deviceToken } });
      expect(r.status).toBe(401);
    }
    const stolen = await h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: u.password }, device_token: deviceToken } });
    expect(stolen.status).toBe(429);
    expect(stolen.json).toEqual({ errors: [MSG.loginRateLimited] });
  });

  it('a device token spares its owner for a year, then no more', async () => {
    const u = await h.signUp('caduca');
    const deviceToken = (await login(u.username, u.password)).json.response.device_token as string;
    for (let i = 0; i < 10; i++) await login(u.username, 'adivinanza-1', {}, freshIp());
    const withToken = () => h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: u.password }, device_token: deviceToken } });
    expect((await withToken()).status).toBe(200);
    h.advance(366 * DAY);
    try {
      for (let i = 0; i < 10; i++) await login(u.username, 'adivinanza-1', {}, freshIp());
      expect((await withToken()).status).toBe(429);
    } finally {
      h.advance(-366 * DAY);
    }
  });
});
