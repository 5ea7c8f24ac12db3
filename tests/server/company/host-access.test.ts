// What a company may read of its collaborators (spec §6): the manager reads an active
// collaborator's profile and accepted RFC's tax data, and downloads their received invoices; outsiders,
// other companies, invited-only collaborators, the collaborator themselves and app tokens may not.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { TICKET_TYPE } from '../../../src/domain/ticket';
import { clients } from '../../../src/server/db/schema';
import { collaborators } from '../../../src/server/db/schema-company';
import { registerApplication } from '../../../src/server/oauth/applications';
import { activeCollaborator, insertTicket, personRfc, type Member } from '../company-view/helpers';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { attachReceipt, tinyPdf } from '../receipts/receipt-fixtures';
import { addDepartment, companyManager, type Manager } from './helpers';

const UUID_EXPENSE = '11111111-2222-4333-8444-000000000001';
const UUID_INCOME = '11111111-2222-4333-8444-000000000002';
const UUID_OTHER = '11111111-2222-4333-8444-000000000003';
const CALLBACK = 'https://app.example.mx/callback';

describe.each(DRIVERS)('host access to collaborators on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let other: Manager;
  let ana: Member;
  let otherMember: Member;
  let invitedId: number;
  const receipt = {} as Record<'expense' | 'income' | 'other', string>;

  beforeAll(async () => {
    h = await createHarness(driver);
    m = await companyManager(h);
    other = await companyManager(h, 4, 'XYZ020202XY2', 'Otra Empresa SA');
    const area = await addDepartment(h, m, 'ventas');
    ana = await activeCollaborator(h, m.clientId, area, personRfc());
    // Ana has a second RFC the company must never see.
    const second = await h.call('POST', '/new_client', { token: ana.token, body: { client: { rfc: 'LOPA900101AB1', first_name: 'Ana', last_name: 'López' } } });
    expect(second.status, second.text).toBe(200);
    otherMember = await activeCollaborator(h, other.clientId, null, personRfc());
    const [invited] = await h.database.db
      .insert(collaborators)
      .values({ companyClientId: m.clientId, email: 'pendiente@example.com', firstName: 'Pepe', lastName: 'Pérez', status: 'invitado', userId: otherMember.userId, clientId: otherMember.clientId })
      .returning({ id: collaborators.id });
    invitedId = invited!.id;

    const spent = await insertTicket(h, ana, { amount: '1160.00', receivedAt: '2026-07-07T18:00:00Z' });
    const earned = await insertTicket(h, ana, { amount: '500.00', receivedAt: '2026-07-08T18:00:00Z', type: TICKET_TYPE.income });
    const elsewhere = await insertTicket(h, otherMember, { amount: '90.00', receivedAt: '2026-07-09T18:00:00Z' });
    receipt.expense = await attachReceipt(h, ana, spent, { uuid: UUID_EXPENSE });
    receipt.income = await attachReceipt(h, ana, earned, { uuid: UUID_INCOME });
    receipt.other = await attachReceipt(h, otherMember, elsewhere, { uuid: UUID_OTHER });
  });
  afterAll(async () => h?.close());

  const profilePath = (companyId: number, collaboratorId: number) => `/api/v3/clients/${companyId}/collaborators/${collaboratorId}/profile.json`;
  const file = (kind: 'pdf' | 'xml', id: string, token: string) => h.app.request(`/receipt_${kind}?receipt_id=${id}`, { headers: { 'x-access-token': token } });

  it("answers the manager the collaborator's profile and accepted RFC's tax data, as the OAuth profile", async () => {
    const r = await h.call('GET', profilePath(m.clientId, ana.collaboratorId), { token: m.token });
    expect(r.status, r.text).toBe(200);
    const p = r.json.response;
    expect(p.user).toEqual({ username: ana.username, email: `${ana.username}@example.com` });
    expect(p.account).toMatchObject({ rfc: ana.rfc, first_name: 'Ana', last_name: 'López' });
    expect(Object.keys(p).sort()).toEqual(['account', 'user']);
    expect(Object.keys(p.account).sort()).toEqual(['address', 'first_name', 'last_name', 'name', 'num_reg_id_trib', 'regimen_fiscal', 'residencia_fiscal', 'rfc']);
    // Never passwords, hashes, the SAT password, nor the collaborator's other RFC.
    expect(r.text).not.toMatch(/password|hash|ciec|token/i);
    expect(r.text).not.toContain('LOPA900101AB1');
  });

  it("lets the manager download the collaborator's received invoice (PDF and XML)", async () => {
    const pdf = await file('pdf', receipt.expense, m.token);
    expect(pdf.status).toBe(200);
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(tinyPdf(UUID_EXPENSE));
    const xml = await file('xml', receipt.expense, m.token);
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain('cfdi:Comprobante');
    // As the 'Gastos' view links it: the token in the query.
    expect((await h.app.request(`/receipt_pdf?receipt_id=${receipt.expense}&access_token=${encodeURIComponent(m.token)}`)).status).toBe(200);
    // The owner still reads their own.
    expect((await file('pdf', receipt.expense, ana.token)).status).toBe(200);
  });

  it('refuses the receipts of non-received tickets and of other companies (404)', async () => {
    expect((await file('pdf', receipt.income, m.token)).status).toBe(404);
    expect((await file('xml', receipt.other, m.token)).status).toBe(404);
    expect((await file('pdf', receipt.expense, other.token)).status).toBe(404);
  });

  it('answers an outsider 404 on the profile and the receipts', async () => {
    const outsider = await h.signUp('fuera');
    const r = await h.call('GET', profilePath(m.clientId, ana.collaboratorId), { token: outsider.token });
    expect(r.status).toBe(404);
    expect(r.json.message ?? r.text).toContain(MSG.notFound);
    expect((await file('pdf', receipt.expense, outsider.token)).status).toBe(404);
    expect((await file('xml', receipt.expense, outsider.token)).status).toBe(404);
  });

  it("answers 404 for another company's collaborator, an invited-only one and an unknown id", async () => {
    expect((await h.call('GET', profilePath(m.clientId, otherMember.collaboratorId), { token: m.token })).status).toBe(404);
    expect((await h.call('GET', profilePath(other.clientId, ana.collaboratorId), { token: other.token })).status).toBe(404);
    expect((await h.call('GET', profilePath(m.clientId, invitedId), { token: m.token })).status).toBe(404);
    expect((await h.call('GET', profilePath(m.clientId, 2_147_483_000), { token: m.token })).status).toBe(404);
    // The invited-only collaborator's receipts stay closed too.
    expect((await file('pdf', receipt.other, m.token)).status).toBe(404);
  });

  it('answers the collaborator themselves 403 on the manager endpoint', async () => {
    const r = await h.call('GET', profilePath(m.clientId, ana.collaboratorId), { token: ana.token });
    expect(r.status).toBe(403);
  });

  it('refuses an app token on the receipts (403)', async () => {
    const app = await registerApplication(h.database.db, { name: 'Contabilízate', callbackUrl: CALLBACK });
    const req = await h.call('POST', '/oauth/request_token.json', { body: { client_id: app.clientId, client_secret: app.secret, callback_url: CALLBACK } });
    expect(req.status, req.text).toBe(200);
    const [company] = await h.database.db.select({ rfc: clients.rfc }).from(clients).where(eq(clients.id, m.clientId));
    const auth = await h.call('POST', '/oauth/authorize.json', { token: m.token, body: { oauth_token: req.json.response.oauth_token, rfc: company!.rfc } });
    expect(auth.status, auth.text).toBe(200);
    const u = new URL(auth.json.response.redirect_url as string);
    const x = await h.call('POST', '/oauth/access_token.json', {
      body: { client_id: app.clientId, client_secret: app.secret, oauth_token: u.searchParams.get('oauth_token'), oauth_verifier: u.searchParams.get('oauth_verifier') },
    });
    expect(x.status, x.text).toBe(200);
    const access = x.json.response.access_token as string;
    const r = await h.app.request(`/receipt_pdf?receipt_id=${receipt.expense}`, { headers: { authorization: `Bearer ${access}` } });
    expect(r.status).toBe(403);
  });

  it('closes the door when the collaborator leaves or the plan lacks the feature', async () => {
    await h.database.db.update(clients).set({ planId: 1 }).where(eq(clients.id, m.clientId));
    expect((await file('pdf', receipt.expense, m.token)).status).toBe(404);
    expect((await h.call('GET', profilePath(m.clientId, ana.collaboratorId), { token: m.token })).status).toBe(403);
    await h.database.db.update(clients).set({ planId: 4 }).where(eq(clients.id, m.clientId));
    expect((await file('pdf', receipt.expense, m.token)).status).toBe(200);
    await h.database.db.update(collaborators).set({ status: 'inactivo' }).where(eq(collaborators.id, ana.collaboratorId));
    expect((await file('pdf', receipt.expense, m.token)).status).toBe(404);
    expect((await h.call('GET', profilePath(m.clientId, ana.collaboratorId), { token: m.token })).status).toBe(404);
  });
});
