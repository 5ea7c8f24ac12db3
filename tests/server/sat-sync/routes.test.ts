// The SAT sync API: authenticate, save the CIEC, connect an e.firma, the status and
// disconnecting — with every refusal (wrong CIEC, another user's id or RFC, no plan, company RFC, bad
// e.firma) and the secrets never coming back and stored sealed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, satConnections } from '../../../src/server/db/schema';
import { openSecret, serverSecret } from '../../../src/server/lib/secret-box';
import { DescargaMasivaPortal } from '../../../src/server/sat-sync/descarga-masiva';
import { provideSatSync } from '../../../src/server/sat-sync/runtime';
import { ciecContext, efirmaPasswordContext } from '../../../src/server/sat-sync/store';
import { DEMO_SAT_CIECS, SimulatedSatPortal, seedSatPortal } from '../../../src/server/sat-sync/simulated-portal';
import type { SatSyncJob } from '../../../src/server/sat-sync/sync';
import { demoMerchants } from '../../../src/server/wiring';
import { createHarness, DRIVERS, socketEnv, type Harness } from '../helpers/harness';
import { EFIRMA, efirmaForm, FIEL_PASSWORD, PERSONA, personWithPlan, putForm } from './helpers';

const CIEC = DEMO_SAT_CIECS[PERSONA]!;

describe.each(DRIVERS)('SAT sync API (%s)', (driver) => {
  let h: Harness;
  let queued: SatSyncJob[];
  const simulated = () => new SimulatedSatPortal(h.database.db, () => new Date(), demoMerchants);
  beforeAll(async () => {
    h = await createHarness(driver);
    await seedSatPortal(h.database.db);
  });
  beforeEach(() => {
    queued = [];
    provideSatSync(h.database.db, { portal: simulated(), queue: {
        enqueue: async (job) => {
          queued.push(job);
          return null;
        },
      }, });
  });
  afterAll(async () => h?.close());

  const branch = (userId: number, rfc = PERSONA) => `/api/v3/users/${userId}/branches/${rfc}`;

  it('authenticates a CIEC with the portal: 200 valid, 400 with the §8 message, 404 for an RFC not yours, 401 without a session', async () => {
    const u = await personWithPlan(h);
    const good = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: CIEC } });
    expect(good.status).toBe(200);
    expect(good.json).toEqual({ response: { valid: true } });
    const bad = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: 'Otra1234' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual([MSG.satPasswordInvalid]);
    expect(bad.json.error).toBe(MSG.satPasswordInvalid);
    const notMine = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: 'GODE561231GR8', clave_ciec: CIEC } });
    expect(notMine.status).toBe(404);
    expect((await h.call('POST', '/api/v1/AuthenticateSATPortal', { body: { rfc: PERSONA, clave_ciec: CIEC } })).status).toBe(401);
    const short = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: 'abc' } });
    expect(short).toMatchObject({ status: 400, json: { errors: [MSG.satPasswordLength] } });
  });

  it('limits SAT password tries per user (10 in 15 minutes)', async () => {
    const u = await personWithPlan(h);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: `Mala${1000 + i}` } })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('saves the CIEC: sealed at rest, never answered, ciec=true and the first sync queued', async () => {
    const u = await personWithPlan(h);
    const r = await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: CIEC } });
    expect(r.status).toBe(200);
    expect(r.json.response).toMatchObject({ diverza_client_id: u.clientId, rfc: PERSONA, ciec: true });
    expect(r.text).not.toContain(CIEC);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.clientId).toBe(u.clientId);
    expect(queued[0]!.days).toHaveLength(3);

    const [row] = await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, u.clientId));
    expect(row!.method).toBe('ciec');
    expect(JSON.stringify(row)).not.toContain(CIEC);
    expect(openSecret(await serverSecret(h.database.db), row!.ciecEnc!, ciecContext(u.clientId))).toBe(CIEC);

    const status = await h.call('GET', `${branch(u.userId)}/sync`, { token: u.token });
    expect(status.status).toBe(200);
    expect(status.json.response).toEqual({
      rfc: PERSONA, method: 'ciec', methods: ['ciec', 'efirma'], efirma: null, synchronized_at: null, last_imported: null, last_error: null, running: false,
    });
    expect(status.text).not.toContain(CIEC);
    const list = await h.call('GET', '/user_clients', { token: u.token });
    expect(list.text).not.toContain(CIEC);

    // Saving again is not a first connection: only yesterday.
    await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: CIEC } });
    expect(queued[1]!.days).toHaveLength(1);
  });

  it('refuses a wrong CIEC (400, nothing stored) and bad lengths', async () => {
    const u = await personWithPlan(h);
    const wrong = await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: 'Otra12345' } });
    expect(wrong).toMatchObject({ status: 400, json: { errors: [MSG.satPasswordInvalid] } });
    expect(await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, u.clientId))).toHaveLength(0);
    const [client] = await h.database.db.select().from(clients).where(eq(clients.id, u.clientId));
    expect(client!.ciec).toBe(false);
    expect((await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: '' } })).json.errors).toEqual([MSG.satPasswordEmpty]);
    expect((await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: 'corta' } })).json.errors).toEqual([MSG.satPasswordLength]);
    expect((await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: 'x'.repeat(65) } })).json.errors).toEqual([MSG.satPasswordLength]);
    expect(queued).toHaveLength(0);
  });

  it("answers 404 for another user's id or an RFC that is not the caller's, 403 without the plan, 422 for a company RFC", async () => {
    const u = await personWithPlan(h);
    const other = await personWithPlan(h);
    const body = { sat_password: CIEC };
    expect((await h.call('PUT', `${branch(other.userId)}.json`, { token: u.token, body })).status).toBe(404);
    expect((await h.call('GET', `${branch(other.userId)}/sync`, { token: u.token })).status).toBe(404);
    expect((await h.call('DELETE', `${branch(other.userId)}.json`, { token: u.token })).status).toBe(404);
    expect((await h.call('PUT', `${branch(u.userId, 'GODE561231GR8')}.json`, { token: u.token, body })).status).toBe(404);
    expect((await h.call('PUT', `${branch(u.userId)}.json`, { body })).status).toBe(401);

    const free = await personWithPlan(h, 1);
    const locked = await h.call('PUT', `${branch(free.userId)}.json`, { token: free.token, body });
    expect(locked).toMatchObject({ status: 403, json: { errors: [MSG.featureLocked] } });
    expect((await h.call('GET', `${branch(free.userId)}/sync`, { token: free.token })).status).toBe(403);

    const company = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' } } });
    await h.database.db.update(clients).set({ planId: 4 }).where(eq(clients.id, company.json.response.diverza_client_id));
    const onlyPeople = await h.call('PUT', `${branch(u.userId, 'EKU9003173C9')}.json`, { token: u.token, body: { sat_password: DEMO_SAT_CIECS.EKU9003173C9 } });
    expect(onlyPeople).toMatchObject({ status: 422, json: { errors: [MSG.satCompanyOnly] } });
    const onlyPeopleEfirma = await putForm(h, `${branch(u.userId, 'EKU9003173C9')}/efirma`, u.token, efirmaForm(EFIRMA.otherRfc, FIEL_PASSWORD));
    expect(onlyPeopleEfirma.status).toBe(422);
    expect(queued).toHaveLength(0);
  });

  it('connects an e.firma: a FIEL of the RFC, its password sealed; the status shows its serial and validity', async () => {
    const u = await personWithPlan(h);
    const r = await putForm(h, `${branch(u.userId)}/efirma`, u.token, efirmaForm(EFIRMA.persona, FIEL_PASSWORD));
    expect(r.status).toBe(200);
    expect(r.json.response).toMatchObject({ rfc: PERSONA, ciec: false });
    expect(r.text).not.toContain(FIEL_PASSWORD);
    expect(queued.map((j) => j.clientId)).toEqual([u.clientId]);
    const [row] = await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, u.clientId));
    expect(row!.method).toBe('efirma');
    expect(row!.efirmaPasswordEnc).not.toContain(FIEL_PASSWORD);
    expect(openSecret(await serverSecret(h.database.db), row!.efirmaPasswordEnc!, efirmaPasswordContext(u.clientId))).toBe(FIEL_PASSWORD);
    const status = await h.call('GET', `${branch(u.userId)}/sync`, { token: u.token });
    expect(status.json.response.method).toBe('efirma');
    expect(status.json.response.efirma).toEqual({ serial: '30001000000900000001', valid_until: expect.stringMatching(/^20\d\d-/) });
    expect(status.text).not.toContain(FIEL_PASSWORD);
    expect(status.text).not.toContain(row!.efirmaKey!.slice(0, 40));
  });

  it('refuses a CSD, a wrong password, another RFC\u2019s e.firma and missing parts', async () => {
    const u = await personWithPlan(h);
    const path = `${branch(u.userId)}/efirma`;
    expect(await putForm(h, path, u.token, efirmaForm(EFIRMA.csd, FIEL_PASSWORD))).toMatchObject({ status: 422, json: { errors: [MSG.efirmaNotFiel] } });
    expect(await putForm(h, path, u.token, efirmaForm(EFIRMA.persona, 'otra-clave'))).toMatchObject({ status: 422, json: { errors: [MSG.efirmaInvalid] } });
    expect(await putForm(h, path, u.token, efirmaForm(EFIRMA.otherRfc, FIEL_PASSWORD))).toMatchObject({ status: 422, json: { errors: [MSG.efirmaWrongRfc] } });
    const missing = new FormData();
    missing.set('password', FIEL_PASSWORD);
    expect(await putForm(h, path, u.token, missing)).toMatchObject({ status: 400, json: { errors: [MSG.efirmaMissing] } });
    const mixed = efirmaForm({ cer: EFIRMA.persona.cer, key: EFIRMA.csd.key }, FIEL_PASSWORD);
    expect(await putForm(h, path, u.token, mixed)).toMatchObject({ status: 422, json: { errors: [MSG.efirmaInvalid] } });
    expect(await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, u.clientId))).toHaveLength(0);
  });

  it('disconnects: secrets erased, ciec false, status "Sin conexión"', async () => {
    const u = await personWithPlan(h);
    await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: CIEC } });
    await putForm(h, `${branch(u.userId)}/efirma`, u.token, efirmaForm(EFIRMA.persona, FIEL_PASSWORD));
    const r = await h.call('DELETE', `${branch(u.userId)}.json`, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.json.response).toMatchObject({ rfc: PERSONA, ciec: false });
    expect(await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, u.clientId))).toHaveLength(0);
    const status = await h.call('GET', `${branch(u.userId)}/sync`, { token: u.token });
    expect(status.json.response).toMatchObject({ method: null, efirma: null, running: false });
  });

  it('answers 422 to a CIEC when the server connects through Descarga Masiva (e.firma only)', async () => {
    provideSatSync(h.database.db, { portal: new DescargaMasivaPortal({ baseUrl: 'http://127.0.0.1:9', clock: () => new Date() }) });
    const u = await personWithPlan(h);
    const auth = await h.call('POST', '/api/v1/AuthenticateSATPortal', { token: u.token, body: { rfc: PERSONA, clave_ciec: CIEC } });
    expect(auth).toMatchObject({ status: 422, json: { errors: [MSG.satMethodUnavailable] } });
    const save = await h.call('PUT', `${branch(u.userId)}.json`, { token: u.token, body: { sat_password: CIEC } });
    expect(save).toMatchObject({ status: 422, json: { errors: [MSG.satMethodUnavailable] } });
    const status = await h.call('GET', `${branch(u.userId)}/sync`, { token: u.token });
    expect(status.json.response.methods).toEqual(['efirma']);
  });

  it('serves the simulated portal page and opens a portal account from its form', async () => {
    const page = await h.call('GET', '/dev/sat-portal', { direct: true });
    expect(page.status).toBe(200);
    expect(page.text).toContain(PERSONA);
    expect(page.text).toContain(CIEC);
    const form = new FormData();
    form.set('rfc', 'GODE561231GR8');
    form.set('ciec', 'Gode2026x');
    const res = await h.app.request('/dev/sat-portal', { method: 'POST', body: form }, socketEnv());
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('Gode2026x');
    expect(await simulated().authenticate('GODE561231GR8', 'Gode2026x')).toBe(true);
    expect(await simulated().authenticate('GODE561231GR8', 'Gode2026y')).toBe(false);
  });
});
