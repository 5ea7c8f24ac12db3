// The server's password rules: zxcvbn strength (the meter's verdict) at sign-up and reset, reset links
// that die together, and reset mails limited per account and per address.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { RESET_MAILS_PER_ACCOUNT, RESET_REQUESTS_PER_IP } from '../../../src/server/accounts/password-reset';
import { mailMessages, users } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, freshIp, uniqueName, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('password rules on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://app.example.mx' });
  });
  afterAll(async () => h?.close());

  const mailsTo = async (email: string) => (await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, email))).length;

  /** Asks for a reset and returns the token of the mail it sent. */
  async function resetToken(login: string, email: string): Promise<string> {
    const before = await mailsTo(email);
    const r = await h.call('POST', '/api/v2/password_reset', { body: { user: { login } } });
    expect(r.json).toEqual({ response: { message: MSG.resetSent } });
    const mails = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, email));
    expect(mails.length).toBe(before + 1);
    const newest = mails.sort((a, b) => b.id - a.id)[0];
    const token = newest?.text.match(/token=([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) throw new Error('sin enlace');
    return token;
  }

  const confirm = (token: string, password: string) => h.call('POST', '/api/v2/password_reset/confirm', { body: { token, password } });
  const signIn = (login: string, password: string) => h.call('POST', '/api/v2/login', { body: { user: { login, password } } });

  it('refuses a weak password at sign-up with the exact message, and accepts a strong one', async () => {
    for (const password of ['password', '12345678', 'contraseña1', 'qwertyuiop']) {
      const username = uniqueName('debil');
      const r = await h.call('POST', '/api/v2/create_user', { body: { user: { username, email: `${username}@example.com`, password }, captcha: await h.solveCaptcha() } });
      expect(r.status, password).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.passwordWeak] });
      expect(await h.database.db.select().from(users).where(eq(users.username, username))).toEqual([]);
    }
    // The username or e-mail as the password counts as weak too (the meter gets them as user inputs).
    const username = uniqueName('propio');
    const own = await h.call('POST', '/api/v2/create_user', { body: { user: { username, email: `${username}@example.com`, password: username }, captcha: await h.solveCaptcha() } });
    expect(own.json).toEqual({ errors: [MSG.passwordWeak] });
    const strong = uniqueName('fuerte');
    const ok = await h.call('POST', '/api/v2/create_user', { body: { user: { username: strong, email: `${strong}@example.com`, password: 'Clave-Segura-2026!' }, captcha: await h.solveCaptcha() } });
    expect(ok.status).toBe(200);
    expect(MSG.passwordWeak.startsWith('Tu contraseña es muy débil')).toBe(true);
  });

  it('refuses a weak password at reset and keeps the link usable for a strong one', async () => {
    const u = await h.signUp('rdebil');
    const token = await resetToken(u.username, u.email);
    for (const password of ['password', '12345678']) {
      const r = await confirm(token, password);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.passwordWeak] });
    }
    expect((await signIn(u.username, u.password)).status).toBe(200);
    const done = await confirm(token, 'Nueva-Clave-Segura-7');
    expect(done.json).toEqual({ response: { message: MSG.resetDone } });
    expect((await signIn(u.username, 'Nueva-Clave-Segura-7')).status).toBe(200);
  });

  it('using one reset link ends every other link of the user; an older link still works until then', async () => {
    const u = await h.signUp('reuso');
    const first = await resetToken(u.email, u.email);
    const second = await resetToken(u.username, u.email);
    const third = await resetToken(u.username, u.email);
    // Mails can arrive out of order: the older link works after a newer one was requested.
    expect((await confirm(first, 'Primera-Clave-Nueva-1')).status).toBe(200);
    for (const old of [second, third]) {
      const r = await confirm(old, 'Clave-Del-Atacante-2');
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.resetInvalid] });
    }
    expect((await signIn(u.username, 'Primera-Clave-Nueva-1')).status).toBe(200);
    expect((await signIn(u.username, 'Clave-Del-Atacante-2')).status).toBe(401);
  });

  it(`mails at most ${RESET_MAILS_PER_ACCOUNT} links per account per hour, answering the same message`, async () => {
    const u = await h.signUp('correos');
    for (let i = 0; i < 6; i++) {
      const r = await h.call('POST', '/api/v2/password_reset', { body: { user: { login: i % 2 ? u.username : u.email } } });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ response: { message: MSG.resetSent } });
    }
    expect(await mailsTo(u.email)).toBe(RESET_MAILS_PER_ACCOUNT);
    h.advance(60 * 60_000 + 1000);
    try {
      await resetToken(u.username, u.email);
    } finally {
      h.advance(-(60 * 60_000 + 1000));
    }
  });

  it(`answers 429 after ${RESET_REQUESTS_PER_IP} requests per hour from one address, known account or not`, async () => {
    const ip = freshIp();
    const u = await h.signUp('porip');
    for (let i = 0; i < RESET_REQUESTS_PER_IP; i++) {
      const r = await h.call('POST', '/api/v2/password_reset', { body: { user: { login: `nadie${i}@example.com` } }, ip });
      expect(r.status).toBe(200);
    }
    const limited = await h.call('POST', '/api/v2/password_reset', { body: { user: { login: u.username } }, ip });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ errors: [MSG.resetRateLimited] });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await mailsTo(u.email)).toBe(0);
    expect((await h.call('POST', '/api/v2/password_reset', { body: { user: { login: u.username } } })).status).toBe(200);
    expect(await mailsTo(u.email)).toBe(1);
  });

  it('a completed reset frees the account from failed sign-ins by others', async () => {
    const u = await h.signUp('libera');
    for (let i = 0; i < 10; i++) expect((await signIn(u.username, 'adivinanza-1')).status).toBe(401);
    expect((await signIn(u.username, u.password)).status).toBe(429);
    const token = await resetToken(u.username, u.email);
    expect((await confirm(token, 'Clave-Recuperada-2026')).status).toBe(200);
    expect((await signIn(u.username, 'Clave-Recuperada-2026')).status).toBe(200);
  });
});
