// OAuth HTTP (src/domain/oauth.ts): the app's server-to-server token endpoints (client credentials, per-IP
// limits), the authorisation screen's GET/POST, the Bearer-only profile read, and the user's grants.
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { markSecretResponse } from '../http/idempotency';
import { IpLimiter } from '../lib/ip-limiter';
import { authenticateApplication, type OAuthAppRow } from './applications';
import { authorizeRequest, createRequestToken, exchangeForAccessToken, listGrants, pendingApplication, profileFor, revokeGrant } from './flow';
import { bearerToken } from './session-guard';

const Text = (max: number) => v.pipe(v.string(MSG.oauthBadRequest), v.minLength(1, MSG.oauthBadRequest), v.maxLength(max, MSG.oauthBadRequest));
const Credentials = { client_id: Text(100), client_secret: Text(200) };

export const RequestTokenBody = v.object({ ...Credentials, callback_url: Text(2_000) }, MSG.oauthBadRequest);
export const AuthorizeBody = v.object({ oauth_token: Text(200), rfc: Text(13) }, MSG.oauthBadRequest);
export const AccessTokenBody = v.object({ ...Credentials, oauth_token: Text(200), oauth_verifier: Text(200) }, MSG.oauthBadRequest);

/** An app's backend makes a handful of these per user sign-in; a script guessing secrets makes many. */
export const TOKEN_CALLS_PER_IP = { limit: 30, windowMs: 60_000 };

export function oauthRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const limiter = new IpLimiter(TOKEN_CALLS_PER_IP.limit, TOKEN_CALLS_PER_IP.windowMs);

  const limit = (c: Context<AppEnv>) => {
    const now = s.clock().getTime();
    if (!limiter.take(c.get('ip'), now)) throw fail(429, MSG.oauthTooMany, { 'Retry-After': String(limiter.retryAfter(c.get('ip'), now)) });
  };
  const appOf = async (body: { client_id: string; client_secret: string }): Promise<OAuthAppRow> => {
    const found = await authenticateApplication(s.db, body.client_id, body.client_secret);
    if (!found) throw fail(401, MSG.oauthBadClient);
    return found;
  };

  app.post('/oauth/request_token.json', async (c) => {
    limit(c);
    const body = parseWith(RequestTokenBody, c.get('body'));
    const found = await appOf(body);
    // Exact match only: no prefix, no normalisation (an open redirect otherwise).
    if (body.callback_url !== found.callbackUrl) throw fail(400, MSG.oauthCallbackMismatch);
    const requestToken = await createRequestToken(s.db, found, s.clock());
    markSecretResponse(c);
    return ok(c, { oauth_token: requestToken });
  });

  app.get('/oauth/authorize.json', async (c) => {
    const view = await pendingApplication(s.db, c.req.query('oauth_token'), s.clock());
    if (!view) throw fail(404, MSG.invalidPageToken);
    return ok(c, view);
  });

  app.post('/oauth/authorize.json', auth, async (c) => {
    const body = parseWith(AuthorizeBody, c.get('body'));
    const r = await authorizeRequest(s.db, caller(c).userId, body.oauth_token, body.rfc, s.clock());
    if (r.kind === 'invalid-token') throw fail(404, MSG.invalidPageToken);
    if (r.kind === 'not-your-rfc') throw fail(404, MSG.oauthRfcNotYours);
    markSecretResponse(c); // the URL carries the verifier
    return ok(c, { redirect_url: r.redirectUrl });
  });

  app.post('/oauth/access_token.json', async (c) => {
    limit(c);
    const body = parseWith(AccessTokenBody, c.get('body'));
    const found = await appOf(body);
    const access = await exchangeForAccessToken(s.db, found, body.oauth_token, body.oauth_verifier, s.clock());
    if (!access) throw fail(400, MSG.invalidPageToken);
    markSecretResponse(c);
    return ok(c, { access_token: access });
  });

  app.get('/api/v3/oauth/profile.json', async (c) => {
    const profile = await profileFor(s.db, bearerToken(c));
    if (!profile) throw fail(401, MSG.oauthInvalidAccessToken, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    return ok(c, profile);
  });

  const ownUser = (c: Context<AppEnv>): number => {
    const userId = caller(c).userId;
    if (c.req.param('id') !== String(userId)) throw fail(404, MSG.notFound);
    return userId;
  };

  app.get('/api/v3/users/:id/oauth_grants.json', auth, async (c) => ok(c, await listGrants(s.db, ownUser(c))));

  app.delete('/api/v3/users/:id/oauth_grants/:grant{[0-9]{1,9}\\.json}', auth, async (c) => {
    const userId = ownUser(c);
    const grantId = Number(c.req.param('grant').replace(/\.json$/, ''));
    if (!(await revokeGrant(s.db, userId, grantId, s.clock()))) throw fail(404, MSG.notFound);
    return ok(c, { id: grantId, revoked: true });
  });

  return app;
}
