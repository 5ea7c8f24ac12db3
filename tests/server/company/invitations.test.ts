// Invitations and join over HTTP, with the invitation e-mail sent through a real SMTP server: the link
// shows the host's data, works once, expires, and accepting or signing up makes the collaborator 'activo'.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_TTL_DAYS } from '../../../src/domain/company';
import { MSG } from '../../../src/domain/messages';
import { collaboratorClientIds } from '../../../src/server/company/collaborators';
import { users } from '../../../src/server/db/schema';
import { collaborators } from '../../../src/server/db/schema-company';
import { smtpMailer } from '../../../src/server/mail/mailer';
import { createHarness, DRIVERS, uniqueName, type Harness } from '../helpers/harness';
import { decodedText, startSmtp, type TestSmtp } from '../helpers/smtp';
import { addDepartment, collaboratorBody, companyManager, tokenFromText, type Manager } from './helpers';

const DAY = 86_400_000;

describe.each(DRIVERS)('invitations and join on %s', (driver) => {
  let h: Harness;
  let smtp: TestSmtp;
  let m: Manager;
  let area: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await createHarness(driver, { publicUrl: 'https://cc.example' }, { mailer: smtpMailer(smtp.url) });
    m = await companyManager(h);
    area = await addDepartment(h, m, 'ventas');
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  /** Invites `email` and returns the token of the link the SMTP server received. */
  async function invite(email: string): Promise<{ id: number; token: string; text: string }> {
    const before = smtp.received.length;
    const r = await h.call('POST', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token, body: collaboratorBody(area, { email }) });
    expect(r.status).toBe(201);
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received[smtp.received.length - 1]!;
    expect(mail.to).toEqual([email.toLowerCase()]);
    const text = decodedText(mail.raw);
    return { id: r.json.response.id, token: tokenFromText(text), text };
  }

  it('sends the company text and a single-use link; only the hash of the token is stored', async () => {
    const { id, token, text } = await invite('hugo@example.com');
    expect(text).toContain('Bienvenida al equipo de ventas.');
    expect(text).toContain('Abarrotes del Centro te invita');
    expect(text).toContain(`https://cc.example/#/join?token=${token}`);
    const [row] = await h.database.db.select().from(collaborators).where(eq(collaborators.id, id));
    expect(row!.invitationTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.invitationTokenHash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('shows the invitation with the host data, without a session', async () => {
    const { token } = await invite('ines@example.com');
    const r = await h.call('GET', `/api/v3/invitations/${token}.json`);
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual({
      email: 'ines@example.com',
      registered: false,
      company_name: 'Abarrotes Del Centro SA',
      host: {
        first_name: null,
        last_name: null,
        rfc: 'ABC010101AB1',
        name: 'Abarrotes Del Centro SA',
        address: { street: 'Av. Juárez', external_number: '10', internal_number: '', neighborhood: '', city: 'Puebla', state: 'Puebla', country: 'MEX', zip_code: '72000' },
      },
    });
    for (const bad of ['nope', 'x'.repeat(43), `${token}x`]) {
      expect(await h.call('GET', `/api/v3/invitations/${bad}.json`)).toMatchObject({ status: 404, json: { errors: [MSG.invalidPageToken] } });
    }
  });

  it('a registered user accepts with one of their RFCs; the link then stops working', async () => {
    const u = await h.signUp('reg');
    await h.database.db.update(users).set({ email: 'juan@example.com' }).where(eq(users.id, u.userId));
    await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Juan', last_name: 'Pérez' } } });
    const { id, token } = await invite('juan@example.com');
    expect((await h.call('GET', `/api/v3/invitations/${token}.json`)).json.response.registered).toBe(true);

    expect((await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { body: { rfc: 'GODE561231GR8' } })).status).toBe(401);
    // Not one of the user's RFCs.
    expect(await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: u.token, body: { rfc: 'ABC010101AB1' } })).toMatchObject({ status: 404, json: { errors: [MSG.notFound] } });
    const ok = await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: u.token, body: { rfc: 'GODE561231GR8' } });
    expect(ok.status).toBe(200);
    const [row] = await h.database.db.select().from(collaborators).where(eq(collaborators.id, id));
    expect(row).toMatchObject({ status: 'activo', userId: u.userId, clientId: ok.json.response.client_id, invitationTokenHash: null });
    expect(await collaboratorClientIds(h.database.db, m.clientId)).toContain(ok.json.response.client_id);

    // Used twice: the §8 message, on every invitation endpoint.
    const twice = await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: u.token, body: { rfc: 'GODE561231GR8' } });
    expect(twice).toMatchObject({ status: 404, json: { errors: [MSG.invalidPageToken] } });
    expect(await h.call('GET', `/api/v3/invitations/${token}.json`)).toMatchObject({ status: 404, json: { errors: [MSG.invalidPageToken] } });
  });

  it('an expired link is refused; resending issues a new one and the old one stops working', async () => {
    const { id, token } = await invite('karla@example.com');
    h.advance(INVITATION_TTL_DAYS * DAY + 1_000);
    try {
      expect(await h.call('GET', `/api/v3/invitations/${token}.json`)).toMatchObject({ status: 404, json: { errors: [MSG.invalidPageToken] } });
      const u = await h.signUp('exp');
      await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Karla', last_name: 'Ruiz' } } });
      expect(await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: u.token, body: { rfc: 'GODE561231GR8' } })).toMatchObject({
        status: 404,
        json: { errors: [MSG.invalidPageToken] },
      });
      // The manager's session of two weeks ago is over: sign in again.
      const login = await h.call('POST', '/api/v2/login', { body: { user: { login: m.username, password: m.password } } });
      const before = smtp.received.length;
      const resent = await h.call('PUT', `/api/v3/clients/${m.clientId}/collaborators/${id}.json`, { token: login.json.response.token, body: { resend: true, email_text: 'Otra vez.' } });
      expect(resent.status).toBe(200);
      expect(smtp.received.length).toBe(before + 1);
      const fresh = tokenFromText(decodedText(smtp.received[smtp.received.length - 1]!.raw));
      expect(fresh).not.toBe(token);
      expect((await h.call('GET', `/api/v3/invitations/${fresh}.json`)).status).toBe(200);
      expect((await h.call('GET', `/api/v3/invitations/${token}.json`)).status).toBe(404);
    } finally {
      h.advance(-(INVITATION_TTL_DAYS * DAY + 1_000));
    }
  });

  it('a new user signs up from the link: account with the invited e-mail, tax client, accepted, signed in', async () => {
    const { id, token } = await invite('luis@example.com');
    const username = uniqueName('luis');
    const client = { rfc: 'LUMA850505AB3', first_name: 'Luis', last_name: 'Martínez' };
    // Registration's own checks apply (here: a short password), and nothing is created.
    const weak = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body: { user: { username, password: '123' }, client } });
    expect(weak.status).toBe(400);
    // Bad tax data: the user just created is removed again and the link still works.
    const badRfc = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body: { user: { username, password: 'contraseña-segura-1' }, client: { ...client, rfc: 'NOPE' } } });
    expect(badRfc).toMatchObject({ status: 400, json: { errors: [MSG.rfcInvalid] } });
    expect(await h.database.db.select().from(users).where(eq(users.username, username))).toEqual([]);

    const r = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body: { user: { username, password: 'contraseña-segura-1' }, client } });
    expect(r.status).toBe(200);
    expect(r.json.response).toMatchObject({ email: 'luis@example.com', username });
    const accounts = await h.call('GET', '/user_clients', { token: r.json.response.token });
    expect(accounts.json.response.map((a: { rfc: string }) => a.rfc)).toEqual(['LUMA850505AB3']);
    const [row] = await h.database.db.select().from(collaborators).where(eq(collaborators.id, id));
    expect(row).toMatchObject({ status: 'activo', userId: r.json.response.user_id, clientId: accounts.json.response[0].diverza_client_id });

    const again = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body: { user: { username: uniqueName('otro'), password: 'contraseña-segura-1' }, client } });
    expect(again).toMatchObject({ status: 404, json: { errors: [MSG.invalidPageToken] } });
  });

  it('when the e-mail cannot be delivered, no collaborator is left behind', async () => {
    smtp.refuse.add('nadie@example.com');
    const r = await h.call('POST', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token, body: collaboratorBody(area, { email: 'nadie@example.com' }) });
    expect(r).toMatchObject({ status: 502, json: { errors: [MSG.invitationMailFailed] } });
    expect(await h.database.db.select().from(collaborators).where(eq(collaborators.email, 'nadie@example.com'))).toEqual([]);
  });
});
