// Password reset by e-mailed link: a one-hour, single-use token stored hashed; using it revokes every session.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { checkNewPassword } from '../../domain/new-password';
import type { Db } from '../db/client';
import { passwordResets, users } from '../db/schema';
import { fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { passwordResetMail } from '../mail/templates';
import type { SessionCache } from './sessions';
import { revokeUserSessions } from './sessions';
import { hashPassword } from './passwords';
import { hashToken, looksLikeToken, newToken } from './tokens';
import { findUserByLogin } from './users';

export const RESET_TTL_MS = 60 * 60_000;

export async function requestReset(db: Db, mailer: Mailer, login: string, origin: string, now: Date): Promise<void> {
  const user = await findUserByLogin(db, login);
  if (!user) return;
  const token = newToken();
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TTL_MS),
  });
  const link = `${origin.replace(/\/+$/, '')}/#/reset-password?token=${encodeURIComponent(token)}`;
  await mailer.send(passwordResetMail(user.email, user.username, link));
}

export async function confirmReset(db: Db, cache: SessionCache, token: string, password: string, now: Date): Promise<void> {
  if (!looksLikeToken(token)) throw fail(400, MSG.resetInvalid);
  const problem = checkNewPassword(password);
  if (problem) throw fail(400, problem);
  const passwordHash = await hashPassword(password);
  // Claiming the token and using it is one statement, so two clicks cannot both succeed.
  const [used] = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .returning({ userId: passwordResets.userId });
  if (!used) throw fail(400, MSG.resetInvalid);
  await db.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
  await revokeUserSessions(db, cache, used.userId, now);
}
