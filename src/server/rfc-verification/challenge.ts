// The e.firma challenge: stateless, short-lived and bound to one user, one account and its RFC. An HMAC
// under a key derived from the server secret signs it, so nothing is stored and any process checks it.
// The text is ASCII on purpose: whatever tool signs it (ours, SAT's, openssl) signs the same bytes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RFC_CHALLENGE_TTL_MS, type RfcChallenge } from '../../domain/rfc-verification';

const PREFIX = 'cuentasclaras:verificar-rfc:v1';
const SHAPE = /^cuentasclaras:verificar-rfc:v1:(\d{1,10}):(\d{13}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]{43})$/;

export interface ChallengeSubject {
  userId: number;
  clientId: number;
  rfc: string;
}

/** A key only for challenges, so a MAC made here means nothing to the other users of the server secret. */
export const challengeKey = (serverSecret: Buffer): Buffer => createHmac('sha256', serverSecret).update('rfc-verification-challenge').digest();

const mac = (key: Buffer, s: ChallengeSubject, expires: number, nonce: string) =>
  createHmac('sha256', key).update(`${s.userId}|${s.clientId}|${s.rfc}|${expires}|${nonce}`).digest('base64url');

export function issueChallenge(key: Buffer, s: ChallengeSubject, now: Date): RfcChallenge {
  const expires = now.getTime() + RFC_CHALLENGE_TTL_MS;
  const nonce = randomBytes(16).toString('base64url');
  return { challenge: `${PREFIX}:${s.clientId}:${expires}:${nonce}:${mac(key, s, expires, nonce)}`, expires_at: new Date(expires).toISOString() };
}

/** 'ok' only for a challenge this server made for this user, account and RFC, still within its time. */
export function checkChallenge(key: Buffer, text: string, s: ChallengeSubject, now: Date): 'ok' | 'expired' | 'invalid' {
  const m = SHAPE.exec(text);
  if (!m || Number(m[1]) !== s.clientId) return 'invalid';
  const expires = Number(m[2]);
  const want = Buffer.from(mac(key, s, expires, m[3]!));
  const got = Buffer.from(m[4]!);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
  return now.getTime() > expires ? 'expired' : 'ok';
}
