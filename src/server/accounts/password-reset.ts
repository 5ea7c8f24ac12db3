// Password reset by e-mailed link: a one-hour, single-use token stored hashed; using it revokes every
// session and every other link of the user. Mails are limited per account and per client address.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { checkNewPassword, newPasswordProblem } from '../../domain/new-password';
import type { Db } from '../db/client';
import { passwordResets, users } from '../db/schema';
import { fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { passwordResetMail } from '../mail/templates';
import type { SessionCache } from './sessions';
import { revokeUserSessions } from './sessions';
import { clearBucket, releaseAttempt, reserveAttempt, type Bucket } from './login-limits';
import { hashPassword } from '../lib/passwords';
import { hashToken, looksLikeToken, newToken } from '../lib/tokens';
import { findUserByLogin } from './users';

export const RESET_TTL_MS = 60 * 60_000;

const HOUR_MS = 60 * 60_000;
/** Reset mails one account may receive per hour: a few for a slow inbox, not a mail bomb. */
export const RESET_MAILS_PER_ACCOUNT = 3;
/** Reset requests one address may make per hour, whether the account exists or not. */
export const RESET_REQUESTS_PER_IP = 10;

const resetIpBucket = (ip: string): Bucket => ({ key: `reset-ip:${ip}`, limit: RESET_REQUESTS_PER_IP, windowMs: HOUR_MS });
const resetUserBucket = (userId: number): Bucket => ({ key: `reset-user:${userId}`, limit: RESET_MAILS_PER_ACCOUNT, windowMs: HOUR_MS });

/**
 * Mails a reset link. Past the per-address limit the caller gets a 429: that limit counts every request,
 * so it says nothing about whether the account exists. Past the per-account limit the answer stays the
 * neutral one and no mail goes out, since a distinct answer there would confirm that the account exists.
 * An older link stays valid after a newer one is requested (mails may arrive out of order); using any
 * one of them ends all the others.
 */
export async function requestReset(db: Db, mailer: Mailer, login: string, origin: string, now: Date, ip: string): Promise<void> {
  const byIp = await reserveAttempt(db, [resetIpBucket(ip)], now);
  if (!('ids' in byIp)) throw fail(429, MSG.resetRateLimited, { 'Retry-After': String(byIp.wait) });
  const user = await findUserByLogin(db, login);
  if (!user) return;
  const byUser = await reserveAttempt(db, [resetUserBucket(user.id)], now);
  if (!('ids' in byUser)) return;
  const token = newToken();
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TTL_MS),
  });
  const link = `${origin.replace(/\/+$/, '')}/#/reset-password?token=${encodeURIComponent(token)}`;
  try {
    await mailer.send(passwordResetMail(user.email, user.username, link));
  } catch (err) {
    await releaseAttempt(db, byUser.ids); // nothing reached the inbox
    throw err;
  }
}

export async function confirmReset(db: Db, cache: SessionCache, token: string, password: string, now: Date): Promise<void> {
  if (!looksLikeToken(token)) throw fail(400, MSG.resetInvalid);
  const short = checkNewPassword(password);
  if (short) throw fail(400, short);
  const live = and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now));
  // Strength is judged before the link is spent, so a refused password leaves the link usable.
  const [pending] = await db
    .select({ username: users.username, email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(live)
    .limit(1);
  if (!pending) throw fail(400, MSG.resetInvalid);
  const problem = await newPasswordProblem(password, [pending.username, pending.email]);
  if (problem) throw fail(400, problem);
  const passwordHash = await hashPassword(password);
  // Claiming the token and using it is one statement, so two clicks cannot both succeed.
  const [used] = await db.update(passwordResets).set({ usedAt: now }).where(live).returning({ userId: passwordResets.userId });
  if (!used) throw fail(400, MSG.resetInvalid);
  await db.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
  // Every other link of the user dies with this one: a mailbox read later must not set it again.
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
  await revokeUserSessions(db, cache, used.userId, now);
  // Whoever read the mailbox is the owner: failed sign-ins by others no longer hold the account.
  await clearBucket(db, `user:${used.userId}`);
}
