// What the server writes to its log about a failed request: never a secret from a query string. The
// path alone holds none, but an error's message or stack may quote a whole URL (a library that failed
// on it), and `access_token` stays accepted in the query for other API clients (DESIGN §3).
import { inspect } from 'node:util';
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { errorSummary, isDatabaseError } from '../lib/error-summary';

/** Query parameters whose values are secrets: session tokens, signed file links, OAuth secrets. */
const SECRET_PARAM = /([?&;](?:access_token|token|sig|link|(?:user|usuario)(?:\[|%5B)token(?:\]|%5D)|oauth_token|oauth_verifier|client_secret|password)=)[^&#\s"'<>]*/gi;

/** The text with the value of every secret query parameter replaced by '[oculto]'. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_PARAM, '$1[oculto]');
}

/**
 * The log line of an unexpected (500) error: method, path and the error with its stack, redacted. A
 * database error is only summarised (class, SQLSTATE, constraint, frames): its message, detail and
 * parameters quote the request's values.
 */
export function logUnexpected(method: string, path: string, err: unknown, log: (...parts: string[]) => void = console.error): void {
  const text = isDatabaseError(err) ? errorSummary(err) : inspect(err, { depth: 4, breakLength: Infinity });
  log('[api]', method, redactSecrets(path), redactSecrets(text));
}

/** The route a request matched, as registered ('/api/v3/invitations/:token/sign_up.json'): a path's ids, RFCs and tokens stay out of the log. */
export function routePattern(c: Context): string {
  const handlers = matchedRoutes(c).filter((r) => r.method !== 'ALL');
  return handlers.at(-1)?.path ?? c.req.routePath;
}
