// RFC verification by e.firma: a challenge for one of the caller's accounts, then the proof (the FIEL's
// .cer with the challenge's signature, or the .cer, .key and password for the server to sign). Refused for
// another RFC's FIEL, a CSD, an expired FIEL, a bad signature or password, an expired or foreign challenge.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { rfcVerificationPaths } from '../../../src/domain/rfc-verification';
import { checkFiel, fielTrustFromEnv, ProofError } from '../../../src/server/cfdi/efirma-proof';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { FIEL_PASSWORD, FIELS, proofForm, signChallenge } from './efirma-fixtures';

const PERSONA = 'XIQB891116QE4';

describe.each(DRIVERS)('RFC verification by e.firma (%s)', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  const account = async (rfc = PERSONA) => {
    const u = await h.signUp('rfcv');
    const client = rfc.length === 13 ? { rfc, first_name: 'BERENICE', last_name: 'XIMO QUEZADA' } : { rfc, name: 'ACCEM SERVICIOS EMPRESARIALES' };
    const made = await h.call('POST', '/new_client', { token: u.token, body: { client } });
    if (made.status !== 200) throw new Error(made.text);
    return { ...u, clientId: made.json.response.diverza_client_id as number };
  };
  const challenge = async (u: { token: string; clientId: number }) => {
    const r = await h.call('GET', rfcVerificationPaths.challenge(u.clientId), { token: u.token });
    expect(r.status, r.text).toBe(200);
    return r.json.response.challenge as string;
  };
  const prove = async (u: { token: string; clientId: number }, form: FormData) => {
    const res = await h.app.request(rfcVerificationPaths.efirma(u.clientId), { method: 'PUT', headers: { 'x-access-token': u.token }, body: form });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
  };
  const verifiedState = async (u: { token: string; clientId: number }) => {
    const list = await h.call('GET', '/user_clients', { token: u.token });
    const a = (list.json.response as { diverza_client_id: number; rfc_verified: boolean; rfc_verified_by: string | null }[]).find((x) => x.diverza_client_id === u.clientId);
    return { rfc_verified: a?.rfc_verified, rfc_verified_by: a?.rfc_verified_by };
  };

  it('a new account is unverified; a challenge signed with the FIEL of its RFC verifies it (efirma)', async () => {
    const u = await account();
    expect(await verifiedState(u)).toEqual({ rfc_verified: false, rfc_verified_by: null });
    const text = await challenge(u);
    expect(text).toMatch(/^cuentasclaras:verificar-rfc:v1:/);
    const r = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: text, signature: signChallenge(FIELS.persona.key, text) }));
    expect(r.status, r.text).toBe(200);
    expect(r.json.response).toMatchObject({ diverza_client_id: u.clientId, rfc: PERSONA, rfc_verified: true, rfc_verified_by: 'efirma' });
    expect(await verifiedState(u)).toEqual({ rfc_verified: true, rfc_verified_by: 'efirma' });
  });

  it('with the .key and its password the server signs and checks; the password never comes back', async () => {
    const u = await account();
    const r = await prove(u, proofForm({ cer: FIELS.persona.cer, key: FIELS.persona.key, password: FIEL_PASSWORD }));
    expect(r.status, r.text).toBe(200);
    expect(r.json.response).toMatchObject({ rfc_verified: true, rfc_verified_by: 'efirma' });
    expect(r.text).not.toContain(FIEL_PASSWORD);
  });

  it("refuses another RFC's FIEL, a CSD, a bad signature and a wrong password: 422 with the message, still unverified", async () => {
    const u = await account();
    const text = await challenge(u);
    const otherRfc = await prove(u, proofForm({ cer: FIELS.otherRfc.cer, challenge: text, signature: signChallenge(FIELS.otherRfc.key, text) }));
    expect([otherRfc.status, otherRfc.json]).toEqual([422, { errors: [MSG.efirmaWrongRfc] }]);
    const csd = await prove(u, proofForm({ cer: FIELS.csd.cer, challenge: text, signature: signChallenge(FIELS.csd.key, text) }));
    expect([csd.status, csd.json]).toEqual([422, { errors: [MSG.efirmaNotFiel] }]);
    // The right certificate, signed with another key.
    const badSignature = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: text, signature: signChallenge(FIELS.otherRfc.key, text) }));
    expect([badSignature.status, badSignature.json]).toEqual([422, { errors: [MSG.rfcSignatureInvalid] }]);
    // A signature of another text.
    const otherText = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: text, signature: signChallenge(FIELS.persona.key, `${text}x`) }));
    expect([otherText.status, otherText.json]).toEqual([422, { errors: [MSG.rfcSignatureInvalid] }]);
    const wrongPassword = await prove(u, proofForm({ cer: FIELS.persona.cer, key: FIELS.persona.key, password: 'otra-clave' }));
    expect([wrongPassword.status, wrongPassword.json]).toEqual([422, { errors: [MSG.efirmaInvalid] }]);
    // A .key of another FIEL does not belong to the certificate.
    const wrongKey = await prove(u, proofForm({ cer: FIELS.persona.cer, key: FIELS.otherRfc.key, password: FIEL_PASSWORD }));
    expect([wrongKey.status, wrongKey.json]).toEqual([422, { errors: [MSG.efirmaInvalid] }]);
    const missing = await prove(u, proofForm({ cer: FIELS.persona.cer }));
    expect([missing.status, missing.json]).toEqual([400, { errors: [MSG.efirmaMissing] }]);
    expect(await verifiedState(u)).toEqual({ rfc_verified: false, rfc_verified_by: null });
  });

  it('refuses an expired FIEL (422)', async () => {
    const u = await account('AAA010101AAA');
    const r = await prove(u, proofForm({ cer: FIELS.expired.cer, key: FIELS.expired.key, password: FIEL_PASSWORD }));
    expect([r.status, r.json]).toEqual([422, { errors: [MSG.efirmaExpired] }]);
    expect(await verifiedState(u)).toEqual({ rfc_verified: false, rfc_verified_by: null });
  });

  it("refuses an expired challenge, and one made for another account or user", async () => {
    const u = await account();
    const text = await challenge(u);
    const other = await account();
    const foreign = await challenge(other);
    const signedForeign = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: foreign, signature: signChallenge(FIELS.persona.key, foreign) }));
    expect([signedForeign.status, signedForeign.json]).toEqual([422, { errors: [MSG.rfcChallengeExpired] }]);
    const forged = text.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    const signedForged = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: forged, signature: signChallenge(FIELS.persona.key, forged) }));
    expect([signedForged.status, signedForged.json]).toEqual([422, { errors: [MSG.rfcChallengeExpired] }]);
    h.advance(10 * 60_000 + 1_000);
    try {
      const late = await prove(u, proofForm({ cer: FIELS.persona.cer, challenge: text, signature: signChallenge(FIELS.persona.key, text) }));
      expect([late.status, late.json]).toEqual([422, { errors: [MSG.rfcChallengeExpired] }]);
    } finally {
      h.advance(-(10 * 60_000 + 1_000));
    }
    expect(await verifiedState(u)).toEqual({ rfc_verified: false, rfc_verified_by: null });
  });

  it("another user's account is a 404; without a session 401", async () => {
    const u = await account();
    const other = await account();
    expect((await h.call('GET', rfcVerificationPaths.challenge(other.clientId), { token: u.token })).status).toBe(404);
    const r = await prove({ token: u.token, clientId: other.clientId }, proofForm({ cer: FIELS.persona.cer, key: FIELS.persona.key, password: FIEL_PASSWORD }));
    expect(r.status).toBe(404);
    expect(await verifiedState(other)).toEqual({ rfc_verified: false, rfc_verified_by: null });
    expect((await h.call('GET', rfcVerificationPaths.challenge(u.clientId))).status).toBe(401);
  });

  it('changing the RFC of a verified account makes it unverified again', async () => {
    const u = await account();
    expect((await prove(u, proofForm({ cer: FIELS.persona.cer, key: FIELS.persona.key, password: FIEL_PASSWORD }))).status).toBe(200);
    const same = await h.call('PUT', '/update_client', { token: u.token, body: { client: { diverza_client_id: u.clientId, rfc: PERSONA, first_name: 'BERE', last_name: 'XIMO QUEZADA' } } });
    expect(same.json.response).toMatchObject({ rfc_verified: true });
    const other = await h.call('PUT', '/update_client', { token: u.token, body: { client: { diverza_client_id: u.clientId, rfc: 'GODE561231GR8', first_name: 'ANA', last_name: 'GÓMEZ' } } });
    expect(other.status, other.text).toBe(200);
    expect(other.json.response).toMatchObject({ rfc: 'GODE561231GR8', rfc_verified: false, rfc_verified_by: null });
  });
});

describe('the FIEL issuer check', () => {
  const now = new Date();
  const trust = [new X509Certificate(FIELS.testCa)];
  const refusal = (fn: () => unknown) => {
    try {
      fn();
      return null;
    } catch (err) {
      return err instanceof ProofError ? err.message : String(err);
    }
  };

  it('with trusted CAs, accepts a FIEL they issued and refuses a self-made one', () => {
    expect(checkFiel(FIELS.caIssued.cer, PERSONA, now, trust).rfc()).toBe(PERSONA);
    expect(refusal(() => checkFiel(FIELS.persona.cer, PERSONA, now, trust))).toBe(MSG.rfcIssuerUnknown);
  });

  it("with no trusted CA (production without SAT_FIEL_CA) refuses every e.firma, saying to use the SAT connection", () => {
    expect(refusal(() => checkFiel(FIELS.caIssued.cer, PERSONA, now, 'none'))).toBe(MSG.rfcEfirmaUnavailable);
  });

  it('trusts any issuer only in the embedded demo: any other setup without SAT_FIEL_CA trusts none', () => {
    expect(fielTrustFromEnv(true, {})).toBe('any');
    expect(fielTrustFromEnv(false, {})).toBe('none');
    expect(fielTrustFromEnv(false, { DATABASE_URL: 'postgres://x' })).toBe('none');
  });
});
