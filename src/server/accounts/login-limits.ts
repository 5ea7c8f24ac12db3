// Failed-login throttling kept in the database so every API process agrees (ASVS 2.2.1):
// 10 failures per account and 30 per IP address within 15 minutes.
import { and, eq, gt, inArray, min, count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 30;

export interface Buckets {
  account: string;
  ip: string;
}

export interface LimitState {
  /** Seconds until the caller may try again, or 0 when not limited. */
  wait: number;
  /** Recent failures on the account (a success clears them only when there are some). */
  accountFailures: number;
}

export async function loginLimitState(db: Db, b: Buckets, now: Date): Promise<LimitState> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const rows = await db
    .select({ bucket: loginAttempts.bucket, n: count(), oldest: min(loginAttempts.at) })
    .from(loginAttempts)
    .where(and(inArray(loginAttempts.bucket, [b.account, b.ip]), gt(loginAttempts.at, since)))
    .groupBy(loginAttempts.bucket);
  let wait = 0;
  let accountFailures = 0;
  for (const r of rows) {
    if (r.bucket === b.account) accountFailures = r.n;
    const limit = r.bucket === b.account ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_IP;
    if (r.n >= limit && r.oldest) {
      const oldest = r.oldest instanceof Date ? r.oldest : new Date(r.oldest);
      wait = Math.max(wait, Math.ceil((oldest.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000));
    }
  }
  return { wait: Math.max(wait, 0), accountFailures };
}

export async function recordFailure(db: Db, b: Buckets, now: Date): Promise<void> {
  await db.insert(loginAttempts).values([
    { bucket: b.account, at: now },
    { bucket: b.ip, at: now },
  ]);
}

export async function clearAccount(db: Db, account: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.bucket, account));
}
