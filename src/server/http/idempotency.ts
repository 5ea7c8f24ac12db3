// Idempotency-Key (DESIGN §3, perf-security §11): the first request for (caller, key) claims a row with
// INSERT … ON CONFLICT DO NOTHING; repeats get the stored response, another body 422, still running 409.
import { createHash, type Hash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { idempotencyKeys } from '../db/schema';
import { authOf } from './auth';
import { isMutating } from './body';
import { MultipartError, spoolMultipart, type SpooledBody } from './multipart';
import { fail } from './errors';

export const IDEMPOTENCY_RETENTION_DAYS = 30;
/** A claim older than this whose request never finished (a killed process) may be taken over. */
const STALE_CLAIM_MS = 60_000;
/** Parts up to this size are fingerprinted as before (length first); an upload's file is at most 2 MB. */
const MULTIPART_PART_CAP = 2 * 1024 * 1024 + 1;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** Outcomes that did not run the operation, so a retry must run it afresh. */
const NOT_STORED = new Set([401, 409, 429]);
/** Responses carrying a live secret (a session token) are never stored; logging in twice is harmless anyway. */
const EXEMPT_PATHS = new Set(['/api/v2/login']);
/**
 * Requests whose response holds a live secret (a session from invitation sign-up, an OAuth token). The
 * table keeps only the fact that the operation ran — never the response — and a repeat is refused with
 * 409 rather than replayed: replaying would hand the secret to whoever holds the key, and running again
 * would fail anyway (those secrets come from single-use links and codes).
 */
const secretResponses = new WeakSet<Context<AppEnv>>();
const SECRET_STATE = 'secret';

/** A route calls this before answering with a live secret; see `secretResponses`. */
export function markSecretResponse(c: Context<AppEnv>): void {
  secretResponses.add(c);
}

/**
 * A multipart body (jsonBody leaves it unread) is read here, bounded like the biggest upload route, and
 * put back as the request's body for the route. Its hash covers the parts — names, file names and bytes
 * — not the raw text: a retry rebuilds the form with a new random boundary and must still match. The
 * body goes to a temporary file meanwhile (never whole into memory: 100 files of 2 MB), removed once the
 * request is answered.
 */
async function hashMultipart(c: Context<AppEnv>, type: string, hash: Hash, limit: number): Promise<SpooledBody | null> {
  if (Number(c.req.header('content-length') ?? '0') > limit) throw fail(413, MSG.bodyTooLarge);
  const stream = c.req.raw.body;
  if (!stream) return null;
  let spooled: SpooledBody;
  try {
    spooled = await spoolMultipart(stream, type, limit, MULTIPART_PART_CAP, hash);
  } catch (err) {
    if (err instanceof MultipartError) throw fail(413, MSG.bodyTooLarge);
    throw err;
  }
  const raw = c.req.raw;
  c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: spooled.stream(), signal: raw.signal, duplex: 'half' } as RequestInit);
  return spooled;
}

export interface IdempotencyOptions {
  /** The biggest multipart body a route takes (given by the app: 'Importar CFDIs', 100 files of 2 MB). */
  multipartLimit: number;
}

export function idempotency(s: Services, options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const once = keyedOnce(s, options);
  return async (c, next) => {
    try {
      return await once(c, next);
    } finally {
      await spools.get(c)?.dispose();
    }
  };
}

/** The spooled multipart body of a request, until it is answered. */
const spools = new WeakMap<Context<AppEnv>, SpooledBody>();

function keyedOnce(s: Services, options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || !isMutating(c.req.method) || EXEMPT_PATHS.has(c.req.path)) return next();
    if (!KEY_RE.test(key)) throw fail(400, MSG.badJson);
    const auth = await authOf(c, s);
    // A point of sale is scoped by its key (hashed): two merchants never share keys, and a replay needs the
    // merchant key that made the first request.
    const merchantKey = c.req.header('x-merchant-key');
    const scope = auth
      ? `u:${auth.userId}`
      : merchantKey
        ? `mk:${createHash('sha256').update(merchantKey).digest('hex')}`
        : 'anon';
    const url = new URL(c.req.url);
    const hash = createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n`);
    const type = c.req.header('content-type') ?? '';
    if (type.toLowerCase().startsWith('multipart/')) {
      const spooled = await hashMultipart(c, type, hash, options.multipartLimit);
      if (spooled) spools.set(c, spooled);
    } else hash.update(c.get('rawBody'));
    const requestHash = hash.digest('hex');
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
      if (row.state === SECRET_STATE) throw fail(409, MSG.idempotencySecret);
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
    if (secretResponses.has(c)) {
      await s.db.update(idempotencyKeys).set({ state: SECRET_STATE, responseStatus: status, responseBody: null, responseType: null }).where(where);
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
