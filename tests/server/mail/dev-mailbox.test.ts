// The dev mailbox shows each e-mail's HTML part as its recipient would see it (the branded layout), linked
// from the list; a message without one, or an unknown id, is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { passwordResetMail } from '../../../src/server/mail/templates';
import { createHarness, DRIVERS, socketEnv, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('dev mailbox HTML view on %s', (driver) => {
  let h: Harness;
  const get = (path: string) => h.app.request(path, {}, socketEnv('127.0.0.1'));

  beforeAll(async () => {
    h = await createHarness(driver);
  }, 180_000);
  afterAll(async () => h?.close());

  it('serves the stored HTML part and links it from the mailbox', async () => {
    await devMailboxMailer(h.database.db).send(passwordResetMail('ana@example.com', 'ana<b>', 'http://localhost:8080/#/password-reset?token=t'));
    const [row] = await h.database.db.select({ id: mailMessages.id }).from(mailMessages);
    const list = await (await get('/dev/mailbox')).text();
    expect(list).toContain(`<a href="/dev/mailbox/${row!.id}/html">`);
    const page = await get(`/dev/mailbox/${row!.id}/html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Elegir una nueva contraseña</a>');
    expect(html).toContain('Hola, ana&lt;b&gt;:');
  });

  it('answers 404 for a message without HTML and for an unknown id', async () => {
    const [plain] = await h.database.db.insert(mailMessages).values({ to: 'b@example.com', subject: 'Solo texto', text: 'Hola.' }).returning({ id: mailMessages.id });
    expect((await get(`/dev/mailbox/${plain!.id}/html`)).status).toBe(404);
    expect((await get('/dev/mailbox/999999/html')).status).toBe(404);
    expect((await get('/dev/mailbox/abc/html')).status).toBe(404);
  });
});
