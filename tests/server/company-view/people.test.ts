// People in the company tier by name: the company view's tickets carry the collaborator's name as the
// company invited them (user_name, beside the username), and a collaborator can ask which companies they
// work for (GET /api/v3/collaborations.json) — only their own, only while active.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collaborators } from '../../../src/server/db/schema-company';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { addDepartment, companyManager, type Manager } from '../company/helpers';
import { activeCollaborator, insertTicket, personRfc, type Member } from './helpers';

const COMPANY_RFC = 'PEO010101AB1';
const COMPANY_NAME = 'Ferretería <b>La Económica</b> SA';
const list = `/tickets/colaborators?usuario[rfc_owner]=${COMPANY_RFC}&date[year]=2026&date[month]=4`;

describe.each(DRIVERS)('company people by name on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let ana: Member;
  let nameless: Member;

  beforeAll(async () => {
    h = await createHarness(driver);
    m = await companyManager(h, 4, COMPANY_RFC, COMPANY_NAME);
    const area = await addDepartment(h, m, 'Compras');
    ana = await activeCollaborator(h, m.clientId, area, personRfc());
    nameless = await activeCollaborator(h, m.clientId, null, personRfc());
    const db = h.database.db;
    await db.update(collaborators).set({ firstName: 'Ana María', lastName: 'Pérez <script>' }).where(eq(collaborators.id, ana.collaboratorId));
    // A blank name (rows from before names were required) falls back to the username.
    await db.update(collaborators).set({ firstName: ' ', lastName: '', authorizerId: ana.collaboratorId }).where(eq(collaborators.id, nameless.collaboratorId));
    await insertTicket(h, ana, { amount: '100.00', receivedAt: '2026-04-10T12:00:00-06:00' });
    await insertTicket(h, nameless, { amount: '50.00', receivedAt: '2026-04-11T12:00:00-06:00' });
  });
  afterAll(() => h?.close());

  it('lists each ticket with the collaborator’s name, keeping the username', async () => {
    const r = await h.call('GET', list, { token: m.token });
    expect(r.status, r.text).toBe(200);
    const rows = (r.json.response.tickets as { username: string; user_name: string; amount: string }[]).map((t) => [t.amount, t.user_name, t.username]);
    expect(rows).toEqual([
      ['50.00', nameless.username, nameless.username],
      ['100.00', 'Ana María Pérez <script>', ana.username],
    ]);
  });

  it('tells a collaborator which company they belong to, their department and who authorizes', async () => {
    const mine = await h.call('GET', '/api/v3/collaborations.json', { token: nameless.token });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.response.collaborations).toEqual([
      { company_name: COMPANY_NAME, company_rfc: COMPANY_RFC, rfc: nameless.rfc, area: '', authorizer: 'Ana María Pérez <script>', since: expect.any(String) },
    ]);
    const hers = await h.call('GET', '/api/v3/collaborations.json', { token: ana.token });
    expect(hers.json.response.collaborations).toMatchObject([{ company_name: COMPANY_NAME, rfc: ana.rfc, area: 'Compras', authorizer: '' }]);
  });

  it('answers an empty list to the manager and to a removed collaborator, and 401 without a session', async () => {
    const boss = await h.call('GET', '/api/v3/collaborations.json', { token: m.token });
    expect(boss.json.response).toEqual({ collaborations: [] });
    await h.database.db.update(collaborators).set({ status: 'inactivo' }).where(eq(collaborators.id, ana.collaboratorId));
    const gone = await h.call('GET', '/api/v3/collaborations.json', { token: ana.token });
    expect(gone.json.response).toEqual({ collaborations: [] });
    expect((await h.call('GET', '/api/v3/collaborations.json')).status).toBe(401);
  });
});
