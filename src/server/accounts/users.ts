// Sign-up and sign-in (spec §5 registration checks, DESIGN §3 login) with throttled, timing-safe failures.
import { eq, or } from 'drizzle-orm';
import type { CreateUserBody, LoginBody } from '../../domain/auth-schemas';
import { normalizeEmail } from '../../domain/email';
import type { Session } from '../../domain/http';
import { MSG } from '../../domain/messages';
import { checkAccountStep, checkEmailStep } from '../../domain/registration';
import { normalizeUsername } from '../../domain/username';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { fail } from '../http/errors';
import { clearAccount, loginLimitState, recordFailure } from './login-limits';
import { burnVerify, hashPassword, verifyPassword } from './passwords';
import { issueSession } from './sessions';

export interface NewUser {
  user_id: number;
  username: string;
  email: string;
}

/** The field checks of create_user, in the spec's order; null when the fields are fine. */
export function registrationProblem(body: CreateUserBody): string | null {
  const { username, password, email } = body.user;
  return checkAccountStep({ username, password }) ?? checkEmailStep({ email });
}

export async function createUser(db: Db, body: CreateUserBody): Promise<NewUser> {
  const username = normalizeUsername(body.user.username);
  const email = normalizeEmail(body.user.email);
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(eq(users.username, username), eq(users.email, email)));
  if (taken.some((u) => u.username === username)) throw fail(422, MSG.usernameTaken);
  if (taken.length) throw fail(422, MSG.emailTaken);
  const passwordHash = await hashPassword(body.user.password);
  const rows = await db
    .insert(users)
    .values({ username, email, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id, username: users.username, email: users.email });
  const row = rows[0];
  // Lost a race with an identical sign-up: report it as taken.
  if (!row) throw fail(422, MSG.usernameTaken);
  return { user_id: row.id, username: row.username, email: row.email };
}

export async function findUserByLogin(db: Db, login: string) {
  const l = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.username, l), eq(users.email, l)))
    .limit(1);
  return row;
}

export async function login(db: Db, body: LoginBody, ip: string, now: Date): Promise<Session> {
  const loginText = body.user.login.trim().toLowerCase();
  if (!loginText || !body.user.password) throw fail(400, MSG.loginEmpty);
  const user = await findUserByLogin(db, loginText);
  const buckets = { account: user ? `user:${user.id}` : `login:${loginText}`, ip: `ip:${ip}` };
  const limits = await loginLimitState(db, buckets, now);
  if (limits.wait > 0) throw fail(429, MSG.loginRateLimited, { 'Retry-After': String(limits.wait) });
  const good = user ? await verifyPassword(user.passwordHash, body.user.password) : await burnVerify(body.user.password);
  if (!user || !good) {
    await recordFailure(db, buckets, now);
    throw fail(401, MSG.loginFailed);
  }
  if (limits.accountFailures > 0) await clearAccount(db, buckets.account);
  const token = await issueSession(db, user.id, body.user.remember === true, now);
  return { token, user_id: user.id, email: user.email, username: user.username };
}
