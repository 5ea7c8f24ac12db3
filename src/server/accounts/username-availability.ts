// GET /api/v2/username_available: whether a user name (spec §5's rule applied) is free, so the sign-up
// wizard can say so on its first step instead of after the captcha. Public, so it is limited per address
// twice — a short burst for typing and a small hourly budget — which makes walking a list of names slow.
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { normalizeUsername, USERNAME_INPUT_MAX, usernameLengthProblem } from '../../domain/username';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { fail } from '../http/errors';
import type { RateLimits } from '../lib/ip-limiter';

export const USERNAME_CHECKS_PER_MINUTE = { limit: 10, windowMs: 60_000 } as const;
export const USERNAME_CHECKS_PER_HOUR = { limit: 60, windowMs: 3_600_000 } as const;

export const UsernameQuery = v.object({
  username: v.pipe(v.string(MSG.accountEmpty), v.maxLength(USERNAME_INPUT_MAX, MSG.usernameLong)),
});

export const UsernameAvailability = v.object({ username: v.string(), available: v.boolean() });
export type UsernameAvailability = v.InferOutput<typeof UsernameAvailability>;

/** Both windows for one address; a call refused by the first is not counted against the second. */
export class UsernameCheckLimits {
  private readonly minute;
  private readonly hour;
  constructor(limits: RateLimits) {
    this.minute = limits('username-checks-minute', USERNAME_CHECKS_PER_MINUTE.limit, USERNAME_CHECKS_PER_MINUTE.windowMs);
    this.hour = limits('username-checks-hour', USERNAME_CHECKS_PER_HOUR.limit, USERNAME_CHECKS_PER_HOUR.windowMs);
  }

  /** Throws the 429 with Retry-After when `ip` is over either budget. */
  async take(ip: string, now: number): Promise<void> {
    if (!(await this.minute.take(ip, now))) throw fail(429, MSG.usernameChecksTooMany, { 'Retry-After': String(this.minute.retryAfter(ip, now)) });
    if (!(await this.hour.take(ip, now))) throw fail(429, MSG.usernameChecksTooMany, { 'Retry-After': String(this.hour.retryAfter(ip, now)) });
  }
}

export async function usernameAvailability(db: Db, raw: string): Promise<UsernameAvailability> {
  if (!raw.trim()) throw fail(400, MSG.accountEmpty);
  const username = normalizeUsername(raw);
  const length = usernameLengthProblem(username);
  if (length) throw fail(400, length === 'short' ? MSG.usernameShort : MSG.usernameLong);
  const taken = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return { username, available: taken.length === 0 };
}
