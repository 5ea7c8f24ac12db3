// Session tokens: issued at login, resolved on every request (one indexed query, then a 5 s in-process
// cache), revoked at logout and on password reset.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Bus } from '../db/bus';
import { sessions } from '../db/schema';
import type { AuthUser, Clock } from '../context';
import { hashToken, looksLikeToken, newToken } from '../lib/tokens';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SESSION_TTL = { plain: DAY, rememberIdle: 30 * DAY, rememberAbsolute: 180 * DAY };
/** A remembered session's last_seen_at is written at most this often. */
const TOUCH_EVERY = HOUR;
const CACHE_MAX = 10_000;
/** Bus channel on which a revocation reaches the caches of the other API processes. */
export const SESSIONS_REVOKED = 'cc_sessions_revoked';

interface Cached {
  auth: AuthUser;
  remember: boolean;
  lastSeenAt: number;
  expiresAt: number;
  cachedUntil: number;
}

export class SessionCache {
  private readonly map = new Map<string, Cached>();
  private bus: Bus | null = null;
  constructor(private readonly ttlMs: number) {}

  /** Hears the revocations made by the other processes (and tells them ours: `announce`). */
  attach(bus: Bus): void {
    this.bus = bus;
    bus.subscribe(SESSIONS_REVOKED, (payload) => {
      if (payload.startsWith('u:')) this.deleteUser(Number(payload.slice(2)));
      else this.delete(payload.slice(2));
    });
    // Revocations sent while the bus was down are unknown: forget everything.
    bus.onGap(() => this.map.clear());
  }

  /** After the revocation is written, so no process can re-read the row before it and cache it again. */
  announce(revoked: { hash: string } | { userId: number }): void {
    this.bus?.publish(SESSIONS_REVOKED, 'hash' in revoked ? `t:${revoked.hash}` : `u:${revoked.userId}`);
  }

  get(hash: string, now: number): Cached | undefined {
    const e = this.map.get(hash);
    if (!e) return undefined;
    if (e.cachedUntil <= now) {
      this.map.delete(hash);
      return undefined;
    }
    return e;
  }

  set(hash: string, e: Omit<Cached, 'cachedUntil'>, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.map.size >= CACHE_MAX) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(hash, { ...e, cachedUntil: now + this.ttlMs });
  }

  delete(hash: string): void {
    this.map.delete(hash);
  }

  deleteUser(userId: number): void {
    for (const [k, e] of this.map) if (e.auth.userId === userId) this.map.delete(k);
  }
}

export async function issueSession(db: Db, userId: number, remember: boolean, now: Date): Promise<string> {
  const token = newToken();
  const ttl = remember ? SESSION_TTL.rememberAbsolute : SESSION_TTL.plain;
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    remember,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ttl),
  });
  return token;
}

function alive(e: { remember: boolean; lastSeenAt: number; expiresAt: number }, now: number): boolean {
  if (now >= e.expiresAt) return false;
  return !e.remember || now < e.lastSeenAt + SESSION_TTL.rememberIdle;
}

export async function resolveSession(db: Db, cache: SessionCache, token: string, clock: Clock): Promise<AuthUser | null> {
  if (!looksLikeToken(token)) return null;
  const hash = hashToken(token);
  const now = clock().getTime();
  const hit = cache.get(hash, now);
  if (hit) return alive(hit, now) ? hit.auth : null;
  const [row] = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      remember: sessions.remember,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hash), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) return null;
  const entry = {
    auth: { userId: row.userId, sessionId: row.id },
    remember: row.remember,
    lastSeenAt: row.lastSeenAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
  if (!alive(entry, now)) return null;
  if (entry.remember && now - entry.lastSeenAt > TOUCH_EVERY) {
    await db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.id, row.id));
    entry.lastSeenAt = now;
  }
  cache.set(hash, entry, now);
  return entry.auth;
}

export async function revokeSession(db: Db, cache: SessionCache, token: string, now: Date): Promise<void> {
  const hash = hashToken(token);
  cache.delete(hash);
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hash), isNull(sessions.revokedAt)));
  cache.announce({ hash });
}

export async function revokeUserSessions(db: Db, cache: SessionCache, userId: number, now: Date): Promise<void> {
  cache.deleteUser(userId);
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  cache.announce({ userId });
}
