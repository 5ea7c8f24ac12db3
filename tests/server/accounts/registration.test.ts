import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { users } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, uniqueName, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('create_user and captcha on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { captchaMaxNumber: 50_000 });
  });
  afterAll(async () => h?.close());

  const create = async (user: Record<string, unknown>, captcha?: string | null) =>
    h.call('POST', '/api/v2/create_user', {
      body: { user, device: { id_device: 'x', device: 'web', model: 'test' }, ...(captcha === null ? {} : { captcha: captcha ?? (await h.solveCaptcha()) }) },
    });

  it('GET /api/v2/captcha returns a signed SHA-256 ALTCHA challenge that expires in 10 minutes', async () => {
    const r = await h.call('GET', '/api/v2/captcha');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const ch = r.json.response;
    expect(ch).toMatchObject({ algorithm: 'SHA-256', maxnumber: 50_000 });
    expect(ch.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(ch.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(ch.salt.split('?')[1]).get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it('creates a user with a normalised username and lowercased e-mail', async () => {
    const base = uniqueName('Ana');
    const r = await create({ username: `  ${base.toUpperCase()}__Perez..MX!  `, email: `  ${base}@Example.COM `, password: 'una-contraseña-larga' });
    expect(r.status).toBe(200);
    const expected = `${base.toLowerCase()}_perez.mx`;
    expect(r.json).toEqual({ response: { user_id: expect.any(Number), username: expected, email: `${base.toLowerCase()}@example.com` } });
    const login = await h.call('POST', '/api/v2/login', { body: { user: { login: expected, password: 'una-contraseña-larga' } } });
    expect(login.status).toBe(200);
  });

  it('stores the password as Argon2id m=19456, t=2, p=1, never in clear', async () => {
    const username = uniqueName('hash');
    const r = await create({ username, email: `${username}@example.com`, password: 'secreto-de-prueba' });
    expect(r.status).toBe(200);
    const [row] = await h.database.db.select().from(users).where(eq(users.username, username));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain('secreto-de-prueba');
    expect(row?.isStaff).toBe(false);
  });

  it('runs the registration checks in the spec order with their exact messages', async () => {
    const ok = { username: uniqueName('orden'), email: 'orden@example.com', password: 'contraseña-buena' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, username: '   ', email: 'mal' }, MSG.accountEmpty],
      [{ ...ok, password: '', email: 'mal' }, MSG.accountEmpty],
      [{ ...ok, username: 'a!b', email: 'mal' }, MSG.usernameShort],
      [{ ...ok, username: 'x'.repeat(26), email: 'mal' }, MSG.usernameLong],
      [{ ...ok, password: 'corta', email: 'mal' }, MSG.passwordShort],
      [{ ...ok, email: 'sin-arroba' }, MSG.emailInvalid],
      [{ ...ok, email: 'dos@@example.com' }, MSG.emailInvalid],
    ];
    for (const [user, message] of cases) {
      const r = await create(user, 'no-importa');
      expect(r.status, message).toBe(400);
      expect(r.json).toEqual({ errors: [message] });
    }
  });

  it('answers wrong types with the schema message', async () => {
    const r = await create({ username: 1234, email: 'a@b.mx', password: 'contraseña-buena' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ errors: [MSG.accountEmpty] });
    const r2 = await h.call('POST', '/api/v2/create_user', { body: { user: 'nada' } });
    expect(r2.json).toEqual({ errors: [MSG.accountEmpty] });
  });

  it('refuses a taken username and a taken e-mail with 422', async () => {
    const username = uniqueName('dup');
    const first = await create({ username, email: `${username}@example.com`, password: 'contraseña-buena' });
    expect(first.status).toBe(200);
    const sameName = await create({ username: username.toUpperCase(), email: `otro-${username}@example.com`, password: 'contraseña-buena' });
    expect(sameName.status).toBe(422);
    expect(sameName.json).toEqual({ errors: [MSG.usernameTaken] });
    const sameMail = await create({ username: `${username}x`, email: `${username.toUpperCase()}@EXAMPLE.com`, password: 'contraseña-buena' });
    expect(sameMail.status).toBe(422);
    expect(sameMail.json).toEqual({ errors: [MSG.emailTaken] });
  });

  it('requires the captcha, rejects a forged one and accepts each solution once', async () => {
    const username = uniqueName('cap');
    const user = { username, email: `${username}@example.com`, password: 'contraseña-buena' };
    const missing = await create(user, null);
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ errors: [MSG.captchaRequired] });

    const solved = await h.solveCaptcha();
    const decoded = JSON.parse(Buffer.from(solved, 'base64').toString());
    const forged = Buffer.from(JSON.stringify({ ...decoded, number: decoded.number + 1 })).toString('base64');
    const bad = await create(user, forged);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ errors: [MSG.captchaInvalid] });
    const garbage = await create(user, 'esto no es base64 {');
    expect(garbage.json).toEqual({ errors: [MSG.captchaInvalid] });

    const good = await create(user, solved);
    expect(good.status).toBe(200);
    const other = uniqueName('cap');
    const reused = await create({ username: other, email: `${other}@example.com`, password: 'contraseña-buena' }, solved);
    expect(reused.status).toBe(400);
    expect(reused.json).toEqual({ errors: [MSG.captchaInvalid] });
  });

  it('rejects a solved challenge after it expires', async () => {
    const solved = await h.solveCaptcha();
    h.advance(11 * 60_000);
    try {
      const username = uniqueName('late');
      const r = await create({ username, email: `${username}@example.com`, password: 'contraseña-buena' }, solved);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.captchaInvalid] });
    } finally {
      h.advance(-11 * 60_000);
    }
  });
});
