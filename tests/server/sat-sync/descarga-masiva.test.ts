// The Descarga Masiva adapter making its real HTTP calls (@nodecfdi/sat-ws-descarga-masiva over fetch)
// to a local fake of SAT's web service that answers with the fixtures' SOAP samples: signed requests
// with the e.firma, the day's period, Vigente for received XML, waiting while SAT works, the packages
// downloaded as zips — and a whole sync job through it into the import pipeline as zip uploads.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { DescargaMasivaPortal } from '../../../src/server/sat-sync/descarga-masiva';
import { handleSatSyncJob } from '../../../src/server/sat-sync/jobs';
import { SatPortalError, type SatCredentials } from '../../../src/server/sat-sync/port';
import { provideSatSync } from '../../../src/server/sat-sync/runtime';
import { portalFromEnv } from '../../../src/server/sat-sync/select';
import { SimulatedSatPortal } from '../../../src/server/sat-sync/simulated-portal';
import { processUploads } from '../../../src/server/imports/process';
import { demoMerchants } from '../../../src/server/wiring';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { PACKAGE_ZIP, startFakeSatWs, type FakeSatWs } from './fake-sat-ws';
import { EFIRMA, efirmaForm, FIEL_PASSWORD, PERSONA, personWithPlan, putForm } from './helpers';

const cred: SatCredentials = { method: 'efirma', rfc: PERSONA, cer: EFIRMA.persona.cer, key: EFIRMA.persona.key, password: FIEL_PASSWORD };
const REQUEST_ID = 'd49af78d-1c80-4221-a48d-345ace91626b';

describe('Descarga Masiva adapter against the local SAT fake', () => {
  let fake: FakeSatWs;
  let portal: DescargaMasivaPortal;
  beforeAll(async () => {
    fake = await startFakeSatWs();
    portal = new DescargaMasivaPortal({ baseUrl: fake.url, clock: () => new Date() });
  });
  afterAll(async () => fake?.close());

  it('is selected by SAT_PORTAL=descarga-masiva and takes only the e.firma', async () => {
    expect(portalFromEnv({} as never, () => new Date(), demoMerchants, { SAT_PORTAL: 'descarga-masiva', SAT_WS_URL: fake.url })).toBeInstanceOf(DescargaMasivaPortal);
    expect(portalFromEnv({} as never, () => new Date(), demoMerchants, {})).toBeInstanceOf(SimulatedSatPortal);
    expect(portal.methods).toEqual(['efirma']);
    expect(await portal.authenticate()).toBe(false);
    await expect(portal.submit({ method: 'ciec', rfc: PERSONA, ciec: 'x' }, '2026-11-19', 'issued')).rejects.toBeInstanceOf(SatPortalError);
  });

  it('asks for a received day: authenticated and signed with the e.firma, only Vigente, the whole day', async () => {
    fake.requests.length = 0;
    expect(await portal.submit(cred, '2026-11-19', 'received')).toBe(REQUEST_ID);
    const [auth, query] = fake.requests;
    expect(auth!.path).toBe('/Autenticacion/Autenticacion.svc');
    expect(auth!.soapAction).toContain('IAutenticacion/Autentica');
    const certificate = Buffer.from(EFIRMA.persona.cer).toString('base64');
    expect(auth!.body).toContain(certificate);
    expect(query!.path).toBe('/SolicitaDescargaService.svc');
    expect(query!.soapAction).toMatch(/SolicitaDescargaRecibidos"?$/);
    expect(query!.authorization).toMatch(/^WRAP access_token="/);
    expect(query!.body).toContain('EstadoComprobante="Vigente"');
    expect(query!.body).toContain('FechaInicial="2026-11-19T00:00:00"');
    expect(query!.body).toContain('FechaFinal="2026-11-19T23:59:59"');
    expect(query!.body).toContain(`RfcReceptor="${PERSONA}"`);
    expect(query!.body).toContain('TipoSolicitud="CFDI"');
    expect(query!.body).toContain('<SignatureValue>');
    expect(query!.body).toContain(certificate);
  });

  it('asks for an issued day with every status (Todos)', async () => {
    fake.requests.length = 0;
    expect(await portal.submit(cred, '2026-11-19', 'issued')).toBe(REQUEST_ID);
    const query = fake.requests.find((r) => r.path === '/SolicitaDescargaService.svc')!;
    expect(query.soapAction).toMatch(/SolicitaDescargaEmitidos"?$/);
    expect(query.body).toContain(`RfcEmisor="${PERSONA}"`);
    expect(query.body).toContain('EstadoComprobante="Todos"');
  });

  it('waits while SAT works, then downloads every package as a zip', async () => {
    fake.inProgress = 1;
    expect(await portal.collect(cred, REQUEST_ID)).toEqual({ state: 'pending' });
    fake.requests.length = 0;
    const ready = await portal.collect(cred, REQUEST_ID);
    expect(ready.state).toBe('ready');
    if (ready.state !== 'ready') return;
    expect(ready.files.map((f) => f.name)).toEqual([`4e80345d-917f-40bb-a98f-4a73939343c5_01.zip`, `4e80345d-917f-40bb-a98f-4a73939343c5_02.zip`]);
    for (const f of ready.files) {
      expect(f.kind).toBe('zip');
      expect(Buffer.from(f.bytes).equals(PACKAGE_ZIP)).toBe(true);
    }
    const downloads = fake.requests.filter((r) => r.path === '/DescargaMasivaService.svc');
    expect(downloads).toHaveLength(2);
    expect(downloads[0]!.body).toContain('IdPaquete="4e80345d-917f-40bb-a98f-4a73939343c5_01"');
  });

  it("takes SAT's 'no information' answer as an empty day, and an HTTP error as a portal failure", async () => {
    fake.empty = true;
    try {
      expect(await portal.collect(cred, REQUEST_ID)).toEqual({ state: 'ready', files: [] });
    } finally {
      fake.empty = false;
    }
    const wrong = new DescargaMasivaPortal({ baseUrl: `${fake.url}/nada`, clock: () => new Date() });
    await expect(wrong.submit(cred, '2026-11-19', 'received')).rejects.toBeInstanceOf(SatPortalError);
  });
});

describe.each(DRIVERS)('a sync job through Descarga Masiva (%s)', (driver) => {
  let h: Harness;
  let fake: FakeSatWs;
  beforeAll(async () => {
    h = await createHarness(driver);
    fake = await startFakeSatWs();
  });
  afterAll(async () => {
    await fake?.close();
    await h?.close();
  });

  it('hands the downloaded packages to the import pipeline as zip uploads', async () => {
    const portal = new DescargaMasivaPortal({ baseUrl: fake.url, clock: () => new Date() });
    provideSatSync(h.database.db, { portal });
    const u = await personWithPlan(h);
    const connected = await putForm(h, `/api/v3/users/${u.userId}/branches/${PERSONA}/efirma`, u.token, efirmaForm(EFIRMA.persona, FIEL_PASSWORD));
    expect(connected.status).toBe(200);
    const deps = { db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), clock: () => new Date(), portal, processUploads };
    await handleSatSyncJob(deps, { clientId: u.clientId, days: ['2026-11-19'] }, async () => undefined);
    const zips = await h.database.db.select().from(uploads).where(eq(uploads.clientId, u.clientId));
    const top = zips.filter((z) => z.parentId === null);
    expect(top).toHaveLength(4); // two packages for each direction
    expect(top.every((z) => z.kind === 'zip' && !['recibido', 'procesando'].includes(z.status))).toBe(true);
    const entries = await h.database.db.select().from(uploads).where(inArray(uploads.parentId, top.map((z) => z.id)));
    expect(entries.length).toBeGreaterThan(0);
    const status = await h.call('GET', `/api/v3/users/${u.userId}/branches/${PERSONA}/sync`, { token: u.token });
    expect(status.json.response).toMatchObject({ method: 'efirma', methods: ['efirma'], last_error: null, running: false });
    expect(status.json.response.synchronized_at).not.toBeNull();
  });
});
