// The Finkok adapter against a local fake of Finkok's SOAP services (finkok-fake.ts): a real stamp,
// Finkok's refusals as PacError with its codes, the timbre previo and a lost answer recovered through
// `stamped` without a second timbre, cancellations (motive 01 with its FolioSustitucion, 02), where a
// cancellation stands through get_sat_status, and SAT's acuse kept — fetched with get_receipt when the
// cancel answer that carried it was lost.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCfdi, IVA_16, type CfdiInput } from '../../../src/server/cfdi/build';
import { cadenaOriginal } from '../../../src/server/cfdi/cadena';
import { FINKOK_DEMO_URL, readPacEnv } from '../../../src/server/config';
import { memoryFinkokLedger } from '../../../src/server/cfdi/finkok-ledger';
import { FinkokPac } from '../../../src/server/cfdi/finkok-pac';
import { PacError } from '../../../src/server/cfdi/pac';
import { checkTimbre, openTestCsd, sealCfdi, type TestCsdName } from '../../../src/server/cfdi/seal';
import { sampleInput } from './sat-tools';
import { startFakeFinkok, type FakeFinkok } from './finkok-fake';

const ACCOUNT = { username: 'cuentas@example.com', password: 'Finkok-demo-1' };
const EMISOR = 'EKU9003173C9';
const HOUR = 3_600_000;
/** sampleInput's Fecha 2026-05-01T12:00:00 in Hidalgo (42501) is 18:00 UTC: the fake's clock starts a minute later. */
const START = new Date('2026-05-01T18:01:00Z');
const big: Partial<CfdiInput> = {
  conceptos: [{ claveProdServ: '50202306', cantidad: '1', claveUnidad: 'H87', descripcion: 'Equipo', valorUnitario: '2000.00', objetoImp: '02', traslados: [IVA_16] }],
};

let fake: FakeFinkok;
let pac: FinkokPac;

function adapter(over: Partial<ConstructorParameters<typeof FinkokPac>[0]> = {}) {
  return new FinkokPac({
    ...ACCOUNT, url: fake.url, timeoutMs: 2_000, recoveryPauseMs: 10, now: () => fake.now(),
    csdOf: async (rfc) => openTestCsd(rfc as TestCsdName), ...over,
  });
}

const folio = () => `F${Math.random().toString(36).slice(2, 10)}`;
function sealed(over: Partial<CfdiInput> = {}, csd: TestCsdName = 'EKU9003173C9') {
  return sealCfdi(sampleInput({ folio: folio(), ...over }), openTestCsd(csd));
}

const receiptCalls = () => fake.calls.filter((c) => c === 'get_receipt').length;

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PacError);
  return (err as PacError).code;
}

beforeAll(async () => {
  fake = await startFakeFinkok(ACCOUNT, START);
  pac = adapter();
});
afterAll(async () => {
  await fake?.close();
});

describe('Finkok adapter: stamping', () => {
  it('stamps: the CFDI comes back with a TimbreFiscalDigital whose SelloSAT verifies, its UUID and FechaTimbrado', async () => {
    const doc = sealed();
    const r = await pac.stamp(doc.xml);
    expect(r.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(r.xml).toContain(`UUID="${r.uuid}"`);
    expect(r.fechaTimbrado).toBe('2026-05-01T12:01:00');
    expect(checkTimbre(r.xml, fake.sandbox.certificate)).toMatchObject({ ok: true });
    expect(fake.stampsOf(doc.sello)).toBe(1);
  });

  it("SAT's CFDI 4.0 rules: CFDI40xxx with Finkok's message", async () => {
    const code = await refusal(pac.stamp(sealed({ receptor: { ...sampleInput().receptor, regimenFiscalReceptor: '601' } }).xml));
    expect(code).toMatch(/^CFDI40\d{3}$/);
  });

  it('301 malformed XML, 302 a seal that does not verify, 303 a seal that is not the emisor\'s', async () => {
    expect(await refusal(pac.stamp('<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4"'))).toBe('301');
    expect(await refusal(pac.stamp(sealed().xml.replace(' Total="', ' Descuento="0.00" Total="')))).toBe('302');
    // EKU as emisor, sealed (validly) with another taxpayer's CSD.
    const other = openTestCsd('XIQB891116QE4');
    const input = sampleInput({ folio: folio() });
    const cert = { noCertificado: other.noCertificado, certificado: other.certificado };
    const forged = buildCfdi(input, cert, other.sign(cadenaOriginal(buildCfdi(input, cert))));
    expect(await refusal(pac.stamp(forged))).toBe('303');
  });

  it('304 an expired certificate, 305 a Fecha outside the CSD\'s validity, 401 a Fecha more than 72 hours old', async () => {
    const expired = sealed({ emisor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimenFiscal: '612' }, receptor: { ...sampleInput().receptor, rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '601' } }, 'XIQB891116QE4');
    expect(await refusal(pac.stamp(expired.xml))).toBe('304');
    expect(await refusal(pac.stamp(sealed({ fecha: '2023-01-02T10:00:00' }).xml))).toBe('305');
    expect(await refusal(pac.stamp(sealed({ fecha: '2026-04-27T10:00:00' }).xml))).toBe('401');
  });

  it('timbre previo (307): the same document sent again gets its first stamp back through `stamped`, never a second one', async () => {
    const doc = sealed();
    const first = await pac.stamp(doc.xml);
    fake.calls.length = 0;
    fake.lagStamped(1); // right after a stamp, Finkok's `stamped` may not see it yet (603): asked again
    const again = await adapter().stamp(doc.xml);
    expect(again).toEqual(first);
    expect(fake.calls).toEqual(['stamp', 'stamped', 'stamped']);
    expect(fake.stampsOf(doc.sello)).toBe(1);
  });

  it('an answer lost after the stamp (time-out): `stamped` is asked first and returns that stamp; nothing stamped twice', async () => {
    const doc = sealed();
    const before = fake.stampCount();
    fake.calls.length = 0;
    fake.failNext('stamp', 'timeout', true);
    const r = await adapter({ timeoutMs: 300 }).stamp(doc.xml);
    expect(fake.calls).toEqual(['stamp', 'stamped']);
    expect(fake.stampCount()).toBe(before + 1);
    expect(r.xml).toContain(`UUID="${r.uuid}"`);
    // The job run again later with the same document: the same stamp.
    expect(await pac.stamp(doc.xml)).toEqual(r);
    expect(fake.stampCount()).toBe(before + 1);
  });

  it('a connection reset before Finkok got the document: `stamped` does not know it, so it is sent again and stamped once', async () => {
    const doc = sealed();
    const before = fake.stampCount();
    fake.calls.length = 0;
    fake.failNext('stamp', 'reset', false);
    const r = await pac.stamp(doc.xml);
    expect(fake.calls).toEqual(['stamp', 'stamped', 'stamp']);
    expect(fake.stampCount()).toBe(before + 1);
    expect(fake.stampsOf(doc.sello)).toBe(1);
    expect(r.uuid).toMatch(/^[0-9A-F-]{36}$/);
  });

  it('no answer at all: a plain error (the job retries later), not a refusal', async () => {
    const silent = adapter({ url: fake.url.replace(/:\d+$/, ':1'), recoveryAttempts: 2 });
    const err = await silent.stamp(sealed().xml).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PacError);
  });
});

describe('Finkok adapter: cancelling', () => {
  it('motive 02: cancelled at once (small amount), SAT\'s acuse kept; asked again it answers the same state, without a second request', async () => {
    const { uuid } = await pac.stamp(sealed().xml);
    const r = await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(r).toMatchObject({ uuid, state: 'cancelada', cancelable: 'Cancelable sin aceptación', satStatus: 'Cancelado sin aceptación', code: '201', motive: '02', replacement: null, deadline: null });
    const acuse = await pac.acuse(uuid);
    expect(acuse).toContain('CancelaCFDResponse');
    expect(acuse).toContain(uuid);
    fake.calls.length = 0;
    expect(await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toEqual({ ...r, code: '202' });
    expect(fake.calls).toEqual([]);
    expect(await pac.cancellationStatus(uuid)).toEqual({ ...r, code: '202' });
  });

  it('motive 01 with FolioSustitucion: the replacement must relate the old CFDI (04); then it is cancelled', async () => {
    const old = await pac.stamp(sealed().xml);
    const wrong = await pac.stamp(sealed().xml);
    expect(await refusal(pac.cancel({ uuid: old.uuid, rfcEmisor: EMISOR, motive: '01', replacement: wrong.uuid }))).toBe('212');
    const replacement = await pac.stamp(sealed({ cfdiRelacionados: [{ tipoRelacion: '04', uuids: [old.uuid] }] }).xml);
    const r = await pac.cancel({ uuid: old.uuid, rfcEmisor: EMISOR, motive: '01', replacement: replacement.uuid });
    expect(r).toMatchObject({ state: 'cancelada', motive: '01', replacement: replacement.uuid, code: '201' });
    expect(await pac.acuse(old.uuid)).toContain(old.uuid);
  });

  it("refusals with SAT's codes: 205 unknown UUID, 208 a motive 01 without its folio, 204 no cancelable", async () => {
    expect(await refusal(pac.cancel({ uuid: '11111111-2222-4333-8444-555555555555', rfcEmisor: EMISOR, motive: '02' }))).toBe('205');
    const { uuid } = await pac.stamp(sealed().xml);
    expect(await refusal(pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '01' }))).toBe('208');
    // A payment-like relation: a credit note (01) relating it keeps it from being cancelled while vigente.
    await pac.stamp(sealed({ tipoDeComprobante: 'E', formaPago: '04', cfdiRelacionados: [{ tipoRelacion: '01', uuids: [uuid] }] }).xml);
    expect(await refusal(pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' }))).toBe('204');
  });

  it('over $1,000 after 24 hours: en proceso; get_sat_status follows it until the receptor accepts', async () => {
    const { uuid } = await pac.stamp(sealed(big).xml);
    expect(await pac.cancellationStatus(uuid)).toBeNull();
    fake.later(25 * HOUR);
    const pending = await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(pending).toMatchObject({ state: 'en_proceso', cancelable: 'Cancelable con aceptación', satStatus: 'En proceso', code: '201' });
    expect(new Date(pending.deadline!).getTime() - new Date(pending.requestedAt).getTime()).toBe(72 * HOUR);
    fake.calls.length = 0;
    expect(await pac.cancellationStatus(uuid)).toMatchObject({ state: 'en_proceso', satStatus: 'En proceso' });
    expect(fake.calls).toEqual(['get_sat_status']);
    await fake.sandbox.answerCancellation(uuid, true);
    expect(await pac.cancellationStatus(uuid)).toMatchObject({ uuid, state: 'cancelada', satStatus: 'Cancelado con aceptación', code: '202', deadline: null });
    fake.later(-25 * HOUR);
  });

  it('the key travels encrypted with the account password: a wrong password is refused by Finkok (711)', async () => {
    const { uuid } = await pac.stamp(sealed().xml);
    const otherPassword = new FinkokPac({ ...ACCOUNT, url: fake.url, csdOf: async () => openTestCsd('EKU9003173C9'), now: () => fake.now() });
    // Same account, but the CSD key encrypted for another password: Finkok cannot open it.
    const csd = openTestCsd('EKU9003173C9');
    const broken = Object.create(csd, { encryptedKeyPem: { value: () => csd.encryptedKeyPem('otra') } });
    const refusing = new FinkokPac({ ...ACCOUNT, url: fake.url, csdOf: async () => broken, now: () => fake.now() });
    expect(await refusal(refusing.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' }))).toBe('711');
    expect(await otherPassword.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ state: 'cancelada' });
    expect(new X509Certificate(Buffer.from(csd.certificado, 'base64')).subject).toContain(EMISOR);
  });
});

describe("Finkok adapter: SAT's acuse when the cancel answer is lost", () => {
  it('the answer lost after SAT took the request: the retry is answered 202 without acuse, and the acuse comes from get_receipt', async () => {
    const lossy = adapter({ timeoutMs: 300 });
    const { uuid } = await lossy.stamp(sealed().xml);
    fake.calls.length = 0;
    fake.failNext('cancel', 'timeout', true);
    const lost = await lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' }).then(() => null, (e: unknown) => e);
    expect(lost).toBeInstanceOf(Error);
    expect(lost).not.toBeInstanceOf(PacError);
    expect(fake.acuseOf(uuid)).toContain(uuid); // SAT took it: Finkok keeps its acuse
    expect(await lossy.acuse(uuid)).toBeNull();

    const r = await lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(r).toMatchObject({ uuid, state: 'cancelada', code: '202', motive: '02' });
    expect(fake.calls).toEqual(['cancel', 'cancel', 'get_receipt']);
    expect(await lossy.acuse(uuid)).toBe(fake.acuseOf(uuid));
    // Kept now: asked again, nothing more is fetched.
    expect(await lossy.cancellationStatus(uuid)).toEqual(r);
    expect(await lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toEqual(r);
    expect(receiptCalls()).toBe(1);
  });

  it('get_receipt failing (time-out, reset) leaves the cancellation as SAT answered it and the acuse null; a later call recovers it', async () => {
    const lossy = adapter({ timeoutMs: 300 });
    const { uuid } = await lossy.stamp(sealed().xml);
    fake.failNext('cancel', 'reset', true);
    await expect(lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).rejects.toThrow();
    fake.calls.length = 0;
    fake.failNext('get_receipt', 'timeout', false);
    const r = await lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    expect(r).toMatchObject({ uuid, state: 'cancelada', satStatus: 'Cancelado sin aceptación', code: '202', motive: '02', replacement: null });
    expect(await lossy.acuse(uuid)).toBeNull();
    fake.failNext('get_receipt', 'reset', true);
    expect(await lossy.cancellationStatus(uuid)).toEqual(r);
    expect(await lossy.acuse(uuid)).toBeNull();
    expect(fake.calls).toEqual(['cancel', 'get_receipt', 'get_receipt']); // once per call, never a second cancel

    expect(await lossy.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toEqual(r);
    expect(await lossy.acuse(uuid)).toBe(fake.acuseOf(uuid));
    expect(receiptCalls()).toBe(3);
  });

  it("Finkok without an acuse for the UUID (cancelled elsewhere): its error answer keeps nothing and fails nothing", async () => {
    const { uuid } = await pac.stamp(sealed().xml);
    await fake.sandbox.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' }); // through SAT, not through Finkok
    fake.calls.length = 0;
    expect(await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ uuid, state: 'cancelada', code: '202' });
    expect(fake.calls).toEqual(['cancel', 'get_receipt']);
    expect(fake.acuseOf(uuid)).toBeUndefined();
    expect(await pac.acuse(uuid)).toBeNull();
  });

  it('an acuse the cancel answer carried is never fetched again, also once get_sat_status says Cancelado', async () => {
    const { uuid } = await pac.stamp(sealed().xml);
    fake.calls.length = 0;
    await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    await pac.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' });
    await pac.cancellationStatus(uuid);
    expect(fake.calls).toEqual(['cancel']);
    expect(await pac.acuse(uuid)).toBe(fake.acuseOf(uuid));

    const pending = await pac.stamp(sealed(big).xml);
    fake.later(25 * HOUR);
    await pac.cancel({ uuid: pending.uuid, rfcEmisor: EMISOR, motive: '02' });
    await fake.sandbox.answerCancellation(pending.uuid, true);
    expect(await pac.cancellationStatus(pending.uuid)).toMatchObject({ state: 'cancelada' });
    expect(receiptCalls()).toBe(0);
    expect(await pac.acuse(pending.uuid)).toBe(fake.acuseOf(pending.uuid));
    fake.later(-25 * HOUR);
  });

  it('get_sat_status saying Cancelado for a cancellation kept without acuse: the acuse comes from get_receipt', async () => {
    const ledger = memoryFinkokLedger();
    const withLedger = adapter({ ledger });
    const { uuid } = await withLedger.stamp(sealed(big).xml);
    fake.later(25 * HOUR);
    expect(await withLedger.cancel({ uuid, rfcEmisor: EMISOR, motive: '02' })).toMatchObject({ state: 'en_proceso' });
    // The record as a 201 answer without an Acuse would have left it.
    await ledger.put({ ...(await ledger.get(uuid))!, acuse: null });
    fake.calls.length = 0;
    expect(await withLedger.cancellationStatus(uuid)).toMatchObject({ state: 'en_proceso' });
    expect(await withLedger.acuse(uuid)).toBeNull();
    await fake.sandbox.answerCancellation(uuid, true);
    expect(await withLedger.cancellationStatus(uuid)).toMatchObject({ uuid, state: 'cancelada', code: '202' });
    expect(fake.calls).toEqual(['get_sat_status', 'get_sat_status', 'get_receipt']);
    expect(await withLedger.acuse(uuid)).toBe(fake.acuseOf(uuid));
    fake.later(-25 * HOUR);
  });
});

describe('PAC selection from the environment', () => {
  it('the sandbox unless PAC=finkok; Finkok needs its user and password, and defaults to its demo service', () => {
    expect(readPacEnv({})).toEqual({ pac: 'sandbox' });
    expect(readPacEnv({ PAC: 'sw', FINKOK_USERNAME: 'u' })).toEqual({ pac: 'sandbox' });
    expect(() => readPacEnv({ PAC: 'finkok', FINKOK_USERNAME: 'u' })).toThrow('FINKOK_PASSWORD');
    expect(readPacEnv({ PAC: 'Finkok', FINKOK_USERNAME: ' u ', FINKOK_PASSWORD: 'p' })).toEqual({
      pac: 'finkok', finkok: { username: 'u', password: 'p', url: FINKOK_DEMO_URL, timeoutMs: undefined },
    });
    expect(readPacEnv({ PAC: 'finkok', FINKOK_USERNAME: 'u', FINKOK_PASSWORD: 'p', FINKOK_URL: 'https://facturacion.finkok.com/', FINKOK_TIMEOUT_MS: '5000' }).finkok)
      .toMatchObject({ url: 'https://facturacion.finkok.com', timeoutMs: 5000 });
    expect(() => readPacEnv({ PAC: 'finkok', FINKOK_USERNAME: 'u', FINKOK_PASSWORD: 'p', FINKOK_URL: 'ftp://x' })).toThrow('FINKOK_URL');
  });
});
