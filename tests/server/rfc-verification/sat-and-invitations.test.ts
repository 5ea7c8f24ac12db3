// The other ways an RFC is proved (SAT accepting its CIEC or e.firma, in the portal check, the saved
// connection and the sync job) and the company-invitation gate: an unproved company RFC cannot invite.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { provideSatSync } from '../../../src/server/sat-sync/runtime';
import { DEMO_SAT_CIECS, SimulatedSatPortal, seedSatPortal } from '../../../src/server/sat-sync/simulated-portal';
import { saveCiec } from '../../../src/server/sat-sync/store';
import { runSatSync } from '../../../src/server/sat-sync/sync';
import { processUploads } from '../../../src/server/imports/process';
import { demoMerchants } from '../../../src/server/wiring';
import { addDepartment, collaboratorBody, companyManager } from '../company/helpers';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { markRfcVerifiedForTest } from '../helpers/rfc-verified';
import { EFIRMA, efirmaForm, FIEL_PASSWORD, PERSONA, personWithPlan, putForm } from '../sat-sync/helpers';

const CIEC = DEMO_SAT_CIECS[PERSONA]!;

describe.each(DRIVERS)('RFC proved by a SAT connection, and the invitation gate (%s)', (driver) => {
  let h: Harness;
  const portal = () => new SimulatedSatPortal(h.database.db, () => new Date(), demoMerchants);
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://cc.example' });
    await seedSatPortal(h.database.db);
  });
  beforeEach(() => provideSatSync(h.database.db, { portal: portal(), queue: { enqueue: async () => null } }));
  afterAll(async () => h?.close());

  const proof = async (clientId: number) => {
    const [row] = await h.database.db.select({ at: clients.rfcVerifiedAt, by: clients.rfcVerifiedBy }).from(clients).where(eq(clients.id, clientId));
    return row?.at ? row.by : null;
  };
  const branch = (userId: number) => `/api/v3/users/${userId}/branches/${PERSONA}`;

  it('a CIEC the portal accepts (AuthenticateSATPortal) proves the RFC; a wrong one does not', async () => {
    const u = await personWithPlan(h);
    const wrong = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: 'Otra1234' } });
    expect(wrong.status).toBe(400);
    expect(await proof(u.clientId)).toBeNull();
    const good = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: CIEC } });
    expect(good.status).toBe(200);
    expect(await proof(u.clientId)).toBe('sat');
    const list = await h.call('GET', '/user_clients', { token: u.token });
    expect(list.json.response).toEqual([expect.objectContaining({ diverza_client_id: u.clientId, rfc_verified: true, rfc_verified_by: 'sat' })]);
  });

  it('saving the CIEC for the sync proves it (sat); connecting the e.firma proves it (efirma)', async () => {
    const a = await personWithPlan(h);
    const saved = await h.call('PUT', `${branch(a.userId)}.json`, { token: a.token, body: { sat_password: CIEC } });
    expect(saved.json.response).toMatchObject({ rfc_verified: true, rfc_verified_by: 'sat' });
    const b = await personWithPlan(h);
    const refused = await putForm(h, `${branch(b.userId)}/efirma`, b.token, efirmaForm(EFIRMA.persona, 'otra-clave'));
    expect(refused.status).toBe(422);
    expect(await proof(b.clientId)).toBeNull();
    const connected = await putForm(h, `${branch(b.userId)}/efirma`, b.token, efirmaForm(EFIRMA.persona, FIEL_PASSWORD));
    expect(connected.status).toBe(200);
    expect(connected.json.response).toMatchObject({ rfc_verified: true, rfc_verified_by: 'efirma' });
  });

  it('a sync SAT accepts proves the RFC (sat)', async () => {
    const u = await personWithPlan(h);
    await saveCiec(h.database.db, u.clientId, CIEC, new Date());
    expect(await proof(u.clientId)).toBeNull();
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const out = await runSatSync({ db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), clock: () => new Date(), portal: portal(), processUploads }, { clientId: u.clientId, days: [day] });
    expect(out.state).toBe('done');
    expect(await proof(u.clientId)).toBe('sat');
  }, 60_000);

  it('an unproved company RFC cannot send invitations (403, saying how to verify); once proved it can', async () => {
    const m = await companyManager(h, 4, 'ABC010101AB1', 'Abarrotes Del Centro SA', { verified: false });
    const area = await addDepartment(h, m, 'ventas');
    const url = `/api/v3/clients/${m.clientId}/collaborators.json`;
    const refused = await h.call('POST', url, { token: m.token, body: collaboratorBody(area) });
    expect([refused.status, refused.json]).toEqual([403, { errors: [MSG.rfcNotVerifiedInvite] }]);
    expect((await h.call('GET', url, { token: m.token })).json.response).toEqual([]);

    await markRfcVerifiedForTest(h.database.db, m.clientId);
    const sent = await h.call('POST', url, { token: m.token, body: collaboratorBody(area) });
    expect(sent.status, sent.text).toBe(201);
    const id = sent.json.response.id as number;

    // Resending is sending again: refused if the RFC is no longer proved (the account changed its RFC).
    await h.database.db.update(clients).set({ rfcVerifiedAt: null, rfcVerifiedBy: null }).where(eq(clients.id, m.clientId));
    const resend = await h.call('PUT', `/api/v3/clients/${m.clientId}/collaborators/${id}.json`, { token: m.token, body: { resend: true, email_text: 'Otra vez.' } });
    expect([resend.status, resend.json]).toEqual([403, { errors: [MSG.rfcNotVerifiedInvite] }]);
  });
});
