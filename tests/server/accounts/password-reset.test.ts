import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { mailMessages } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** Reads the newest reset link for an address from the dev mailbox page, as a person would. */
async function linkFromMailbox(h: Harness, email: string): Promise<string> {
  const page = await h.call('GET', '/dev/mailbox', { direct: true });
  expect(page.status).toBe(200);
  const article = page.text.split('<article>').find((a) => a.includes(`Para: ${email}`));
  // The mail's own link, not the mailbox's link to the mail's HTML part.
  const href = article?.match(/<a href="([^"]*reset-password[^"]*)">/)?.[1];
  if (!href) throw new Error('no hay enlace en el buzón');
  return href.replace(/&amp;/g, '&');
}

describe.each(DRIVERS)('password reset through the dev mailbox on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://app.example.mx' });
  });
  afterAll(async () => h?.close());

  it('asks only for the user name or e-mail, the one thing the page has', async () => {
    for (const body of [{ user: { login: '   ' } }, { user: {} }, {}, { user: { login: 12 } }]) {
      const r = await h.call('POST', '/api/v2/password_reset', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.resetLoginEmpty] });
      expect(r.text).not.toContain('contraseña');
    }
  });

  it('always answers the same message, and mails only existing users', async () => {
    const before = (await h.database.db.select().from(mailMessages)).length;
    const r = await h.call('POST', '/api/v2/password_reset', { body: { user: { login: 'nadie-existe@example.com' } } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ response: { message: MSG.resetSent } });
    expect((await h.database.db.select().from(mailMessages)).length).toBe(before);
  });

  it('resets once through the mailed link, revokes every session, and refuses the link afterwards', async () => {
    const u = await h.signUp('reset');
    const r = await h.call('POST', '/api/v2/password_reset', { body: { user: { login: u.username.toUpperCase() } } });
    expect(r.json).toEqual({ response: { message: MSG.resetSent } });
    const [mail] = (await h.database.db.select().from(mailMessages)).filter((m) => m.to === u.email);
    expect(mail?.subject).toBe('Restablece tu contraseña de Cuentas Claras');
    expect(mail?.text).toContain('vale por 1 hora');
    expect(mail?.html).toContain('<a href="https://app.example.mx/#/reset-password?token=');

    const link = await linkFromMailbox(h, u.email);
    expect(link).toMatch(/^https:\/\/app\.example\.mx\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = decodeURIComponent(link.split('token=')[1] as string);

    const short = await h.call('POST', '/api/v2/password_reset/confirm', { body: { token, password: 'corta' } });
    expect(short.status).toBe(400);
    expect(short.json).toEqual({ errors: [MSG.passwordShort] });

    const done = await h.call('POST', '/api/v2/password_reset/confirm', { body: { token, password: 'nueva-contraseña-9' } });
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ response: { message: MSG.resetDone } });

    expect((await h.call('GET', '/user_clients', { token: u.token })).status).toBe(401);
    expect((await h.call('POST', '/api/v2/login', { body: { user: { login: u.username, password: u.password } } })).status).toBe(401);
    expect((await h.call('POST', '/api/v2/login', { body: { user: { login: u.email, password: 'nueva-contraseña-9' } } })).status).toBe(200);

    const again = await h.call('POST', '/api/v2/password_reset/confirm', { body: { token, password: 'otra-contraseña-9' } });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ errors: [MSG.resetInvalid] });
  });

  it('refuses a link older than one hour and a made-up token', async () => {
    const u = await h.signUp('late');
    await h.call('POST', '/api/v2/password_reset', { body: { user: { login: u.email } } });
    const token = decodeURIComponent((await linkFromMailbox(h, u.email)).split('token=')[1] as string);
    h.advance(60 * 60_000 + 1000);
    try {
      const late = await h.call('POST', '/api/v2/password_reset/confirm', { body: { token, password: 'nueva-contraseña-9' } });
      expect(late.status).toBe(400);
      expect(late.json).toEqual({ errors: [MSG.resetInvalid] });
    } finally {
      h.advance(-(60 * 60_000 + 1000));
    }
    const fake = await h.call('POST', '/api/v2/password_reset/confirm', { body: { token: 'A'.repeat(43), password: 'nueva-contraseña-9' } });
    expect(fake.json).toEqual({ errors: [MSG.resetInvalid] });
    expect((await h.call('POST', '/api/v2/login', { body: { user: { login: u.email, password: u.password } } })).status).toBe(200);
  });

  it('links to the address the server listens on when PUBLIC_URL is not set, never the request\'s host', async () => {
    const h2 = await createHarness(driver);
    try {
      await h2.call('POST', 'http://evil.example/api/v2/password_reset', { body: { user: { login: 'demo' } } });
      expect(await linkFromMailbox(h2, 'demo@cuentasclaras.mx')).toMatch(/^http:\/\/localhost:8080\/#\/reset-password\?token=/);
    } finally {
      await h2.close();
    }
  });
});

describe('dev mailbox page', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => h?.close());

  it('escapes every field and carries no script', async () => {
    await h.database.db.insert(mailMessages).values({
      to: '<b>x</b>@example.com',
      subject: '<script>alert(1)</script>',
      text: 'Hola "<img src=x onerror=alert(1)>" https://example.com/?a=1&b=<2>',
    });
    const r = await h.call('GET', '/dev/mailbox', { direct: true });
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).not.toMatch(/<script/i);
    expect(r.text).not.toContain('<img');
    expect(r.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.text).toContain('<a href="https://example.com/?a=1&amp;b=">');
  });

  it('is not served when the dev tools are off (any production setting)', async () => {
    const h2 = await createHarness('pglite', { devTools: false });
    try {
      const r = await h2.call('GET', '/dev/mailbox', { direct: true });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.notFound] });
    } finally {
      await h2.close();
    }
  });
});
