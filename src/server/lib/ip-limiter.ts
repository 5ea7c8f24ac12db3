// Sliding-window rate limits (verify ticket, RFC check, OAuth, plans, chat, shares…): per address, user or
// ticket. In memory for one process (PGlite); in the rate_limit_hits table when several API processes share
// a PostgreSQL database (main.ts), so the budget is the same whichever process answers.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

/** One limit: `limit` calls per `windowMs` for each key. */
export interface RateLimit {
  /** Counts the call and answers true, or answers false (not counted) when `key` used its budget. */
  take(key: string, now: number): Promise<boolean>;
  /** Seconds until the key's oldest call leaves the window, as the last `take` for it saw it. */
  retryAfter(key: string, now: number): number;
}

/** Makes a limit; `bucket` names it in the shared store, so it must be unique and stable. */
export type RateLimits = (bucket: string, limit: number, windowMs: number) => RateLimit;

export class IpLimiter {
  private readonly hits = new Map<string, number[]>();
  private sweeps = 0;
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** false when `ip` already made `limit` calls in the window. */
  take(ip: string, now: number): boolean {
    if (++this.sweeps % 1000 === 0) this.sweep(now);
    const recent = (this.hits.get(ip) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(ip, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(ip, recent);
    return true;
  }

  /** Seconds until the oldest call leaves the window. */
  retryAfter(ip: string, now: number): number {
    const oldest = this.hits.get(ip)?.[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [ip, times] of this.hits) if (times.every((t) => now - t >= this.windowMs)) this.hits.delete(ip);
  }
}

/** This process only: right for one server process. */
export const memoryLimits: RateLimits = (_bucket, limit, windowMs) => {
  const m = new IpLimiter(limit, windowMs);
  return { take: async (key, now) => m.take(key, now), retryAfter: (key, now) => m.retryAfter(key, now) };
};

/** Rows whose calls all left the window are deleted every this many calls of a limit. */
const SWEEP_EVERY = 500;
/** Remembered "oldest call" answers per limit, for retryAfter (the newest wins; bounded). */
const OLDEST_MAX = 1000;

/**
 * Shared by every process on the database: one upsert per call. The row lock the upsert takes makes
 * concurrent calls for a key wait for each other, so the budget is exact across processes.
 */
export function dbLimits(db: Db): RateLimits {
  return (bucket, limit, windowMs) => {
    const oldest = new Map<string, number>();
    let calls = 0;
    return {
      async take(key, now) {
        if (++calls % SWEEP_EVERY === 0) void sweep(db, bucket, now - windowMs);
        const recent = sql`(SELECT coalesce(array_agg(t ORDER BY t), '{}'::bigint[]) FROM unnest(r.hits) t WHERE t > ${now - windowMs}::bigint)`;
        const [row] = await queryRows<{ allowed: boolean; oldest: string }>(
          db,
          sql`INSERT INTO rate_limit_hits AS r (bucket, key, hits, allowed) VALUES (${bucket}, ${key}, ARRAY[${now}::bigint], true)
              ON CONFLICT (bucket, key) DO UPDATE SET
                allowed = cardinality(${recent}) < ${limit}::int,
                hits = CASE WHEN cardinality(${recent}) < ${limit}::int THEN ${recent} || ${now}::bigint ELSE ${recent} END
              RETURNING allowed, hits[1] AS oldest`,
        );
        if (!row) throw new Error('rate_limit_hits: sin respuesta');
        if (oldest.size >= OLDEST_MAX) oldest.clear();
        oldest.set(key, Number(row.oldest));
        return row.allowed;
      },
      retryAfter(key, now) {
        const first = oldest.get(key);
        return first === undefined ? 0 : Math.max(1, Math.ceil((first + windowMs - now) / 1000));
      },
    };
  };
}

async function sweep(db: Db, bucket: string, before: number): Promise<void> {
  await db
    .execute(sql`DELETE FROM rate_limit_hits WHERE bucket = ${bucket} AND hits[cardinality(hits)] <= ${before}::bigint`)
    .catch((err: unknown) => console.error('[limits] limpieza:', (err as Error).message));
}
