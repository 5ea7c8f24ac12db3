// Sign-up and sign-in (spec §5 registration checks, DESIGN §3 login) with throttled, timing-safe failures.
import { eq, or } from 'drizzle-orm';
import type { CreateUserBody, LoginBody } from '../../domain/auth-schemas';
import { normalizeEmail } from '../../domain/email';
import type { Session } from '../../domain/http';
import { MSG } from '../../domain/messages';
import { weakPasswordProblem } from '../../domain/password-strength';
import { checkAccountStep, checkEmailStep } from '../../domain/registration';
import { normalizeUsername } from '../../domain/username';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { fail } from '../http/errors';
import { issueDeviceToken, readDeviceToken } from './device-tokens';
import { accountBucket, clearBucket, deviceBucket, ipBucket, releaseAttempt, reserveAttempt, type Bucket } from './login-limits';
import { burnVerify, hashPassword, verifyPassword } from '../lib/passwords';
import { issueSession } from './sessions';

export interface NewUser {
  user_id: number;
  username: string;
  email: string;
}

/** The field checks of create_user, in the spec's order, then the strength meter's verdict; null when fine. */
export async function registrationProblem(body: CreateUserBody): Promise<string | null> {
  const { username, password, email } = body.user;
  return checkAccountStep({ username, password }) ?? checkEmailStep({ email }) ?? (await weakPasswordProblem(password, [username, email]));
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

/**
 * The user a sign-in names: by e-mail, by user name as typed, or by the name the sign-up rule made of it
 * ('Lupita Gómez' finds lupita.gomez, as the wizard showed it). An exact match wins over the rule's.
 */
export async function findUserByLogin(db: Db, login: string) {
  const l = login.trim().toLowerCase();
  const ruled = l.includes('@') ? l : normalizeUsername(l);
  const rows = await db
    .select()
    .from(users)
    .where(or(eq(users.username, l), eq(users.email, l), eq(users.username, ruled)))
    .limit(3);
  return rows.find((r) => r.username === l || r.email === l) ?? rows[0];
}

/** A session plus the known-device token the client keeps and sends with its next sign-in. */
export interface LoginSession extends Session {
  device_token: string;
}

/**
 * One attempt is reserved before the password is checked (login-limits.ts), so parallel guesses cannot
 * all slip past the count. A valid known-device token of this user swaps the account and address buckets
 * for the token's own, which is how the owner still gets in while strangers are locked out.
 */
export async function login(db: Db, body: LoginBody, ip: string, now: Date, deviceKey: string): Promise<LoginSession> {
  const loginText = body.user.login.trim().toLowerCase();
  if (!loginText || !body.user.password) throw fail(400, MSG.loginEmpty);
  const user = await findUserByLogin(db, loginText);
  const device = user ? readDeviceToken(deviceKey, body.device_token, user.id, now) : null;
  const account = user ? `user:${user.id}` : `login:${loginText}`;
  const buckets: Bucket[] = device ? [deviceBucket(device)] : [accountBucket(account), ipBucket(ip)];
  const reserved = await reserveAttempt(db, buckets, now);
  if (!('ids' in reserved)) throw fail(429, MSG.loginRateLimited, { 'Retry-After': String(reserved.wait) });
  const good = user ? await verifyPassword(user.passwordHash, body.user.password) : await burnVerify(body.user.password);
  // A wrong password keeps its reservation: that row is the recorded failure.
  if (!user || !good) throw fail(401, MSG.loginFailed);
  await releaseAttempt(db, reserved.ids);
  await clearBucket(db, device ? `device:${device}` : account);
  const token = await issueSession(db, user.id, body.user.remember === true, now);
  return { token, user_id: user.id, email: user.email, username: user.username, device_token: issueDeviceToken(deviceKey, user.id, now) };
}
