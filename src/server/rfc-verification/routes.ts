// RFC verification over HTTP: a challenge for one of the caller's accounts, and the proof by e.firma
// (multipart: the .cer with the challenge's signature, or the .cer with the .key and its password, which
// are used in memory for this request only: never stored, never logged). Success answers the Account, now
// with rfc_verified. Another user's account is a 404 like any other of their data.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { EFIRMA_FILE_MAX_BYTES } from '../../domain/sat-sync';
import { MSG } from '../../domain/messages';
import { RFC_PROOF_PARTS } from '../../domain/rfc-verification';
import { toAccount, withPaymentHistory } from '../lib/account-view';
import type { AppEnv, Services } from '../context';
import { clients } from '../db/schema';
import { caller, requireAuth } from '../http/auth';
import { readLimited } from '../http/body';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { serverSecret } from '../lib/secret-box';
import { challengeKey, checkChallenge, issueChallenge } from './challenge';
import { checkFiel, fielTrustFromEnv, ProofError, signatureMatches, signWithKey, type FielTrust } from '../cfdi/efirma-proof';
import { markRfcVerified } from '../lib/rfc-verified';
import * as v from 'valibot';
import { Account } from '../openapi/responses';
import { defineRoute } from '../http/route';

// The OpenAPI descriptions of its answers.
const Tag = 'Verificación del RFC';
const client = { client_id: '*diverza_client_id de una cuenta fiscal propia' };

/** Proofs per user: a person retries a password a few times, a script guessing it may not. */
export const RFC_PROOF_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
const PROOF_REQUEST_LIMIT = 2 * EFIRMA_FILE_MAX_BYTES + 16 * 1024;
const SIGNATURE_MAX_CHARS = 2048;

type ClientRow = typeof clients.$inferSelect;

export function rfcVerificationRoutes(s: Services, trust: FielTrust = fielTrustFromEnv(s.config.devTools)): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const tries = s.limits('rfc-proof', RFC_PROOF_LIMIT.limit, RFC_PROOF_LIMIT.windowMs);
  const key = async () => challengeKey(await serverSecret(s.db));

  const ownClient = async (c: Context<AppEnv>): Promise<ClientRow> => {
    const raw = c.req.param('client_id') ?? '';
    const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw fail(404, MSG.notFound);
    const [row] = await s.db.select().from(clients).where(and(eq(clients.id, id), eq(clients.userId, caller(c).userId))).limit(1);
    if (!row) throw fail(404, MSG.notFound);
    return row;
  };

  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/rfc_verification/challenge.json', tag: Tag, auth: true, errors: [404], params: client,
    summary: 'Un texto de verificación para firmar con la e.firma (FIEL) del RFC de la cuenta: válido 10 minutos, solo para quien lo pidió y esa cuenta',
    response: v.object({ challenge: v.string(), expires_at: v.pipe(v.string(), v.description('ISO 8601')) }),
  }, auth, async (c) => {
    const client = await ownClient(c);
    c.header('Cache-Control', 'no-store');
    return ok(c, issueChallenge(await key(), { userId: client.userId, clientId: client.id, rfc: client.rfc }, s.clock()));
  });

  defineRoute(app, {
    method: 'put', path: '/api/v3/clients/{client_id}/rfc_verification/efirma', tag: Tag, auth: true, files: ['cer', 'challenge', 'signature', 'key', 'password'], errors: [404, 413, 422, 429], params: client,
    summary: 'Verificar el RFC con la e.firma: `cer` y, o bien `challenge` con `signature` (base64 de la firma SHA-256 con RSA del texto), o bien `key` y `password` (se usan solo en memoria para firmar aquí; nunca se guardan). 422 si no es una e.firma vigente del RFC de la cuenta, si la firma no corresponde o si el texto caducó; 10 intentos por usuario cada 15 minutos. Responde la cuenta con rfc_verified=true',
    response: Account,
  }, auth, async (c) => {
    const client = await ownClient(c);
    const form = await readForm(c);
    const part = (name: string) => form.get(name);
    const cer = part(RFC_PROOF_PARTS.cer);
    const keyFile = part(RFC_PROOF_PARTS.key);
    const password = part(RFC_PROOF_PARTS.password);
    const challenge = part(RFC_PROOF_PARTS.challenge);
    const signature = part(RFC_PROOF_PARTS.signature);
    if (!cer || typeof cer === 'string') throw fail(400, MSG.efirmaMissing);
    const byKey = keyFile !== null && typeof keyFile !== 'string';
    if (byKey ? typeof password !== 'string' || !password : typeof challenge !== 'string' || typeof signature !== 'string' || !signature) {
      throw fail(400, MSG.efirmaMissing);
    }
    if (cer.size > EFIRMA_FILE_MAX_BYTES || (byKey && keyFile.size > EFIRMA_FILE_MAX_BYTES)) throw fail(422, MSG.efirmaFileTooBig);

    const now = s.clock();
    const userKey = `user:${client.userId}`;
    if (!(await tries.take(userKey, now.getTime()))) throw fail(429, MSG.rfcTooManyTries, { 'Retry-After': String(tries.retryAfter(userKey, now.getTime())) });
    const subject = { userId: client.userId, clientId: client.id, rfc: client.rfc };
    const secretKey = await key();
    // With the key, the server signs a challenge of its own unless one came with the form.
    const text = typeof challenge === 'string' && challenge ? challenge : issueChallenge(secretKey, subject, now).challenge;
    const state = checkChallenge(secretKey, text, subject, now);
    if (state !== 'ok') throw fail(422, MSG.rfcChallengeExpired);
    try {
      const cerBytes = new Uint8Array(await cer.arrayBuffer());
      const cert = checkFiel(cerBytes, client.rfc, now, trust);
      const signed = byKey
        ? signWithKey(cerBytes, new Uint8Array(await keyFile.arrayBuffer()), password as string, text)
        : decodeSignature(signature as string);
      if (!signatureMatches(cert, text, signed)) throw new ProofError(MSG.rfcSignatureInvalid);
    } catch (err) {
      if (err instanceof ProofError) throw fail(422, err.message);
      throw err;
    }
    await markRfcVerified(s.db, client.id, client.rfc, 'efirma', now);
    const [row] = await s.db.select().from(clients).where(eq(clients.id, client.id));
    if (!row) throw fail(404, MSG.notFound);
    const [account] = await withPaymentHistory(s.db, [toAccount(row)]);
    return ok(c, account);
  });

  return app;
}

/** The multipart body, read with a cap (a .cer and a .key are a few KB). */
async function readForm(c: Context<AppEnv>): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) throw fail(400, MSG.efirmaMissing);
  if (Number(c.req.header('content-length') ?? '0') > PROOF_REQUEST_LIMIT) throw fail(413, MSG.efirmaFileTooBig);
  const raw = c.req.raw.body ? await readLimited(c.req.raw.body, PROOF_REQUEST_LIMIT) : new Uint8Array(0);
  if (!raw) throw fail(413, MSG.efirmaFileTooBig);
  try {
    return await new Response(raw, { headers: { 'content-type': type } }).formData();
  } catch {
    throw fail(400, MSG.efirmaMissing);
  }
}

function decodeSignature(b64: string): Uint8Array {
  const clean = b64.replace(/\s+/g, '');
  if (clean.length > SIGNATURE_MAX_CHARS || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(clean)) throw new ProofError(MSG.rfcSignatureInvalid);
  return Buffer.from(clean, 'base64');
}
