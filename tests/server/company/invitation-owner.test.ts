// Only the invited address may accept an invitation (a forwarded link is refused), and the session that
// sign-up from an invitation returns is never kept in, nor replayed from, the idempotency table.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, idempotencyKeys, mailMessages, users } from '../../../src/server/db/schema';
import { collaborators } from '../../../src/server/db/schema-company';
import { createHarness, DRIVERS, uniqueName, type Harness } from '../helpers/harness';
import { addDepartment, collaboratorBody, companyManager, tokenFromText, type Manager } from './helpers';

describe.each(DRIVERS)('who may use an invitation on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let area: number;
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://cc.example' });
    m = await companyManager(h);
    // Sending invitations needs a verified company RFC; how it gets verified is tested elsewhere.
    await h.database.db.update(clients).set({ rfcVerifiedAt: new Date(), rfcVerifiedBy: 'efirma' }).where(eq(clients.id, m.clientId));
    area = await addDepartment(h, m, 'ventas');
  });
  afterAll(async () => h?.close());

  async function invite(email: string): Promise<{ id: number; token: string }> {
    const r = await h.call('POST', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token, body: collaboratorBody(area, { email }) });
    expect(r.status).toBe(201);
    const mails = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, email.toLowerCase()));
    const newest = mails.sort((a, b) => b.id - a.id)[0]!;
    return { id: r.json.response.id, token: tokenFromText(newest.text) };
  }

  /** A signed-up user whose e-mail is `email`, with one tax account. */
  async function userWith(email: string, rfc: string) {
    const u = await h.signUp('inv');
    await h.database.db.update(users).set({ email }).where(eq(users.id, u.userId));
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc, first_name: 'Ana', last_name: 'Ruiz' } } });
    expect(made.status).toBe(200);
    return u;
  }

  it('refuses a forwarded link with 403 and changes nothing; the invited address accepts, in any case', async () => {
    const { id, token } = await invite('Invitada@Example.com');
    const stranger = await userWith('otra-persona@example.com', 'RUAA800101AB1');
    const refused = await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: stranger.token, body: { rfc: 'RUAA800101AB1' } });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ errors: [MSG.invitationOtherEmail] });
    const [row] = await h.database.db.select().from(collaborators).where(eq(collaborators.id, id));
    expect(row).toMatchObject({ status: 'invitado', userId: null });

    const invited = await userWith('INVITADA@example.COM', 'RUAA800101AB2');
    const ok = await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: invited.token, body: { rfc: 'RUAA800101AB2' } });
    expect(ok.status).toBe(200);
    const [after] = await h.database.db.select().from(collaborators).where(eq(collaborators.id, id));
    expect(after).toMatchObject({ status: 'activo', userId: invited.userId });
  });

  it('sign-up from the link uses the invited e-mail; its session is never stored for replay under Idempotency-Key', async () => {
    const { token } = await invite('nuevo.colaborador@example.com');
    const username = uniqueName('nuevo');
    const key = crypto.randomUUID();
    const body = { user: { username, password: 'Clave-Del-Nuevo-2026' }, client: { rfc: 'NUCO850505AB3', first_name: 'Nuevo', last_name: 'Colaborador' } };
    const first = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(first.json.response.email).toBe('nuevo.colaborador@example.com');
    const session = first.json.response.token as string;
    expect((await h.call('GET', '/user_clients', { token: session })).status).toBe(200);

    const rows = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'secret', responseBody: null });
    expect(JSON.stringify(rows)).not.toContain(session);

    const again = await h.call('PUT', `/api/v3/invitations/${token}/sign_up.json`, { body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ errors: [MSG.idempotencySecret] });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.text).not.toContain(session);
  });
});
