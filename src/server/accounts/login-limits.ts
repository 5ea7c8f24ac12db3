// Attempt throttling kept in the database so every API process agrees (ASVS 2.2.1): failed sign-ins
// (10 per account, 30 per IP address within 15 minutes) and password-reset mails.
//
// An attempt is reserved before the password is checked: inside one transaction the buckets' advisory
// locks are taken, their recent rows counted, and — when under every limit — a row inserted for each.
// Counting and inserting under the lock is what makes the limit hold when many requests arrive at once:
// the eleventh of 60 parallel guesses sees ten rows, not the zero that a read-then-verify-then-write saw.
// A reservation whose password turns out right is released again.
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 30;
/** Failures allowed to one known-device token (it replaces the account and IP buckets for its owner). */
export const MAX_FAILURES_PER_DEVICE = 10;

/** First key of the two-key advisory locks, so these never collide with the migration lock. */
const LOCK_SPACE = 7_140_214;

export interface Bucket {
  /** 'user:<id>', 'login:<text>', 'ip:<address>', 'device:<nonce>', 'reset-user:<id>', 'reset-ip:<address>'. */
  key: string;
  limit: number;
  windowMs: number;
}

export const accountBucket = (key: string): Bucket => ({ key, limit: MAX_FAILURES_PER_ACCOUNT, windowMs: LOGIN_WINDOW_MS });
export const ipBucket = (ip: string): Bucket => ({ key: `ip:${ip}`, limit: MAX_FAILURES_PER_IP, windowMs: LOGIN_WINDOW_MS });
export const deviceBucket = (nonce: string): Bucket => ({ key: `device:${nonce}`, limit: MAX_FAILURES_PER_DEVICE, windowMs: LOGIN_WINDOW_MS });

export type Reservation =
  /** Limited: seconds until the caller may try again. */
  | { wait: number }
  /** Under every limit: the rows now counted against the buckets. */
  | { wait: 0; ids: number[] };

/** Counts and reserves one attempt on every bucket atomically; nothing is reserved when one is full. */
export async function reserveAttempt(db: Db, buckets: Bucket[], now: Date): Promise<Reservation> {
  const ordered = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return db.transaction(async (tx) => {
    // Same order everywhere, so two requests sharing two buckets cannot deadlock.
    for (const b of ordered) await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}::int4, hashtext(${b.key}))`);
    const widest = Math.max(...ordered.map((b) => b.windowMs));
    const rows = await tx
      .select({ bucket: loginAttempts.bucket, at: loginAttempts.at })
      .from(loginAttempts)
      .where(and(inArray(loginAttempts.bucket, ordered.map((b) => b.key)), gt(loginAttempts.at, new Date(now.getTime() - widest))));
    let wait = 0;
    for (const b of ordered) {
      const since = now.getTime() - b.windowMs;
      const times = rows
        .filter((r) => r.bucket === b.key)
        .map((r) => (r.at instanceof Date ? r.at : new Date(r.at)).getTime())
        .filter((t) => t > since)
        .sort((x, y) => x - y);
      if (times.length < b.limit) continue;
      // The window slides: a place frees when enough of the oldest rows leave it.
      const freeing = times[times.length - b.limit] as number;
      wait = Math.max(wait, Math.ceil((freeing + b.windowMs - now.getTime()) / 1000), 1);
    }
    if (wait > 0) return { wait };
    const inserted = await tx
      .insert(loginAttempts)
      .values(ordered.map((b) => ({ bucket: b.key, at: now })))
      .returning({ id: loginAttempts.id });
    return { wait: 0 as const, ids: inserted.map((r) => r.id) };
  });
}

/** Gives back a reservation (the password was right). */
export async function releaseAttempt(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
}

/** Forgets a bucket's failures: the owner proved who they are. */
export async function clearBucket(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.bucket, key));
}
