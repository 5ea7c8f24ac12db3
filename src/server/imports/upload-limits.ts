// What one user's uploads may take of the server (perf-security §9): uploads in flight per user and per
// process (429 with Retry-After past either), and a storage quota per user (the sizes of their uploads
// that were kept). The in-flight counts are this process's own: they bound its memory, disk and CPU,
// which is what they are for; several processes each hold their own.
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { MSG } from '../../domain/messages';
import { processEnv } from '../config';
import type { AppEnv, Services } from '../context';
import type { Db } from '../db/client';
import { uploadStorage } from '../db/schema';
import { authOf } from '../http/auth';
import { fail } from '../http/errors';

export interface UploadLimits {
  /** Upload requests of one user at once. */
  perUser: number;
  /** Upload requests of everyone at once, in this process. */
  perProcess: number;
  /** Bytes of kept uploads per user. */
  quotaBytes: number;
}

/** Seconds a refused client is told to wait: an upload of 100 files takes a few. */
export const UPLOAD_RETRY_AFTER_S = 5;

const positive = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
};

/** UPLOAD_CONCURRENCY_PER_USER (3), UPLOAD_CONCURRENCY (8), UPLOAD_QUOTA_MB (1024); read at each request. */
export function uploadLimits(env: NodeJS.ProcessEnv = processEnv()): UploadLimits {
  return {
    perUser: Math.floor(positive(env.UPLOAD_CONCURRENCY_PER_USER, 3)),
    perProcess: Math.floor(positive(env.UPLOAD_CONCURRENCY, 8)),
    quotaBytes: Math.floor(positive(env.UPLOAD_QUOTA_MB, 1024) * 1024 * 1024),
  };
}

let inFlight = 0;
const perUser = new Map<number, number>();

/** A slot for one upload of `userId`, or why there is none; release() exactly once when done. */
export function takeUploadSlot(userId: number, limits: UploadLimits): { release: () => void } | { busy: 'user' | 'server' } {
  const mine = perUser.get(userId) ?? 0;
  if (mine >= limits.perUser) return { busy: 'user' };
  if (inFlight >= limits.perProcess) return { busy: 'server' };
  inFlight++;
  perUser.set(userId, mine + 1);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      inFlight--;
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
    },
  };
}

/** Bytes the user's kept uploads take: top-level files not refused (a zip's entries are inside it). */
export async function storageUsed(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ bytes: uploadStorage.bytes }).from(uploadStorage).where(eq(uploadStorage.userId, userId));
  return row?.bytes ?? 0;
}

export class QuotaExceeded extends Error {
  constructor() {
    super(MSG.importQuotaExceeded);
  }
}

/**
 * Around the upload route, before anything reads the body (the Idempotency-Key layer spools it): a slot
 * or a 429, and a 413 at once for a user already at the quota. The route checks the quota again, exactly,
 * when it stores the files.
 */
export function uploadGate(s: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const auth = await authOf(c, s);
    if (!auth || c.req.param('id') !== String(auth.userId)) return next(); // the route answers 401 / 404
    const limits = uploadLimits();
    const slot = takeUploadSlot(auth.userId, limits);
    if ('busy' in slot) {
      throw fail(429, slot.busy === 'user' ? MSG.importBusyUser : MSG.importBusyServer, { 'Retry-After': String(UPLOAD_RETRY_AFTER_S) });
    }
    try {
      const used = await storageUsed(s.db, auth.userId);
      if (used >= limits.quotaBytes) throw fail(413, MSG.importQuotaExceeded);
      await next();
    } finally {
      slot.release();
    }
  };
}
