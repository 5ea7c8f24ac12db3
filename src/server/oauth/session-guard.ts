// An app's OAuth access token is never a session: session endpoints answer 403 when one is presented,
// whether as `Authorization: Bearer` or in any of the four session-token places (DESIGN §3).
// Called from the session resolver app.ts gives http/auth.ts's authOf, so every requireAuth route and every
// optional-auth lookup refuses it.
import type { Context } from 'hono';
import { MSG } from '../../domain/messages';
import type { AppEnv } from '../context';
import { fail } from '../http/errors';
import { ACCESS_TOKEN_LENGTH, ACCESS_TOKEN_PREFIX } from './secrets';

/** The bearer credential of an `Authorization: Bearer …` header, if any. */
export function bearerToken(c: Context<AppEnv>): string | undefined {
  const h = c.req.header('authorization');
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

/** Prefix plus 43 characters: a 43-character session token can never be mistaken for one. */
export const isAccessToken = (t: string | undefined): boolean => !!t && t.length === ACCESS_TOKEN_LENGTH && t.startsWith(ACCESS_TOKEN_PREFIX);

/** Throws 403 when the request carries an app's access token where a session token is expected. */
export function refuseAppToken(c: Context<AppEnv>, sessionToken: string | undefined): void {
  if (isAccessToken(bearerToken(c)) || isAccessToken(sessionToken)) throw fail(403, MSG.oauthTokenForbidden);
}
