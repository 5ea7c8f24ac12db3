// ALTCHA proof of work (altcha-lib/v1, SHA-256): challenges signed with an HMAC key, solutions accepted once.
import { randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Challenge, Payload } from 'altcha-lib/v1/types';
import type { Db } from '../db/client';
import { captchaUsed, settings } from '../db/schema';
import type { Clock } from '../context';

export const CAPTCHA_TTL_MS = 10 * 60_000;
const KEY_SETTING = 'altcha_hmac_key';

/** The configured key, else one generated on first use and shared through the settings table. */
export function hmacKeySource(db: Db, configured?: string): () => Promise<string> {
  let pending: Promise<string> | undefined;
  return () =>
    (pending ??= (async () => {
      if (configured) return configured;
      await db
        .insert(settings)
        .values({ key: KEY_SETTING, value: randomBytes(32).toString('hex') })
        .onConflictDoNothing();
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY_SETTING));
      if (!row || typeof row.value !== 'string') throw new Error('ALTCHA key missing');
      return row.value;
    })().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}

export async function newChallenge(hmacKey: string, maxnumber: number, now: Date): Promise<Challenge> {
  return createChallenge({
    algorithm: 'SHA-256',
    hmacKey,
    maxnumber,
    expires: new Date(now.getTime() + CAPTCHA_TTL_MS),
  });
}

function decode(payload: string): Payload | null {
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Partial<Payload>;
    if (typeof p.signature !== 'string' || typeof p.salt !== 'string' || typeof p.challenge !== 'string') return null;
    if (typeof p.number !== 'number' || p.algorithm !== 'SHA-256') return null;
    return p as Payload;
  } catch {
    return null;
  }
}

/** True when the payload solves one of our unexpired challenges that nobody used before; it is then spent. */
export async function spendSolution(db: Db, hmacKey: string, payload: string, clock: Clock): Promise<boolean> {
  if (payload.length > 2000) return false;
  const p = decode(payload);
  if (!p) return false;
  const now = clock();
  const expires = Number(extractParams(p).expires);
  if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) return false;
  // Expiry is checked above against our clock; the library would read the wall clock.
  if (!(await verifySolution(p, hmacKey, false))) return false;
  await db.delete(captchaUsed).where(lt(captchaUsed.expiresAt, now));
  const fresh = await db
    .insert(captchaUsed)
    .values({ signature: p.signature, expiresAt: new Date(expires * 1000) })
    .onConflictDoNothing()
    .returning({ signature: captchaUsed.signature });
  return fresh.length === 1;
}
