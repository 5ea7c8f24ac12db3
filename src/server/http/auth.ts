// Who is calling: the session token from any of its four places (DESIGN §3), resolved once per request.
import type { Context, MiddlewareHandler } from 'hono';
import { MSG } from '../../domain/messages';
import type { AppEnv, AuthUser, Services } from '../context';
import { fail } from './errors';

function tokenIn(obj: unknown): string | undefined {
  if (!obj || typeof obj !== 'object') return undefined;
  for (const k of ['user', 'usuario'] as const) {
    const holder = (obj as Record<string, unknown>)[k];
    if (holder && typeof holder === 'object') {
      const t = (holder as Record<string, unknown>).token;
      if (typeof t === 'string' && t) return t;
    }
  }
  return undefined;
}

/** X-Access-Token, token header, access_token query, then user.token / usuario.token (JSON body or bracketed query). */
export function extractToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('x-access-token') || c.req.header('token');
  if (header) return header.trim();
  const q = c.req.query('access_token');
  if (q) return q;
  const fromBody = tokenIn(c.get('body'));
  if (fromBody) return fromBody;
  return c.req.query('user[token]') || c.req.query('usuario[token]') || undefined;
}

export async function authOf(c: Context<AppEnv>, s: Services): Promise<AuthUser | null> {
  const known = c.get('auth');
  if (known !== undefined) return known;
  // The resolver comes from where the app is assembled (app.ts): this layer knows no feature.
  const auth = await s.authenticate(c, extractToken(c));
  c.set('auth', auth);
  return auth;
}

export function requireAuth(s: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!(await authOf(c, s))) throw fail(401, MSG.unauthorized);
    return next();
  };
}

/** The caller inside a handler behind requireAuth. */
export function caller(c: Context<AppEnv>): AuthUser {
  const a = c.get('auth');
  if (!a) throw fail(401, MSG.unauthorized);
  return a;
}
