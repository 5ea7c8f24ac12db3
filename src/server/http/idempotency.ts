// Idempotency-Key (DESIGN §3, perf-security §11): the first request for (caller, key) claims a row with
// INSERT … ON CONFLICT DO NOTHING; repeats get the stored response, another body 422, still running 409.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { idempotencyKeys } from '../db/schema';
import { authOf } from './auth';
import { isMutating } from './body';
import { fail } from './errors';

export const IDEMPOTENCY_RETENTION_DAYS = 30;
/** A claim older than this whose request never finished (a killed process) may be taken over. */
const STALE_CLAIM_MS = 60_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** Outcomes that did not run the operation, so a retry must run it afresh. */
const NOT_STORED = new Set([401, 409, 429]);
/** Responses carrying a live secret (a session token) are never stored; logging in twice is harmless anyway. */
const EXEMPT_PATHS = new Set(['/api/v2/login']);

export function idempotency(s: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || !isMutating(c.req.method) || EXEMPT_PATHS.has(c.req.path)) return next();
    if (!KEY_RE.test(key)) throw fail(400, MSG.badJson);
    const auth = await authOf(c, s);
    const scope = auth ? `u:${auth.userId}` : 'anon';
    const url = new URL(c.req.url);
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${url.pathname}${url.search}\n${c.get('rawBody')}`)
      .digest('hex');
    const now = s.clock();
    const where = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

    const claimed = await s.db
      .insert(idempotencyKeys)
      .values({ scope, key, requestHash, state: 'running', createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });

    if (claimed.length === 0) {
      const [row] = await s.db.select().from(idempotencyKeys).where(where).limit(1);
      if (!row) throw fail(409, MSG.idempotencyInFlight);
      if (row.requestHash !== requestHash) throw fail(422, MSG.idempotencyMismatch);
      if (row.state === 'done') {
        const status = row.responseStatus ?? 200;
        const headers = new Headers({ 'Idempotent-Replayed': 'true' });
        if (row.responseType) headers.set('Content-Type', row.responseType);
        const body = status === 204 || status === 304 ? null : (row.responseBody ?? '');
        return new Response(body, { status, headers });
      }
      if (now.getTime() - row.createdAt.getTime() < STALE_CLAIM_MS) throw fail(409, MSG.idempotencyInFlight);
      const taken = await s.db
        .update(idempotencyKeys)
        .set({ createdAt: now })
        .where(and(where, eq(idempotencyKeys.state, 'running'), eq(idempotencyKeys.createdAt, row.createdAt)))
        .returning({ key: idempotencyKeys.key });
      if (taken.length === 0) throw fail(409, MSG.idempotencyInFlight);
    }

    try {
      await next();
    } catch (err) {
      await s.db.delete(idempotencyKeys).where(where);
      throw err;
    }
    const status = c.res.status;
    if (status >= 500 || NOT_STORED.has(status)) {
      await s.db.delete(idempotencyKeys).where(where);
      return;
    }
    const responseBody = await c.res.clone().text();
    await s.db
      .update(idempotencyKeys)
      .set({
        state: 'done',
        responseStatus: status as ContentfulStatusCode,
        responseBody,
        responseType: c.res.headers.get('content-type'),
      })
      .where(where);
  };
}
