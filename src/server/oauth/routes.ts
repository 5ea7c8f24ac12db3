// OAuth HTTP (src/domain/oauth.ts): the app's server-to-server token endpoints (client credentials, per-IP
// limits), the authorisation screen's GET/POST, the Bearer-only profile read, and the user's grants.
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { markSecretResponse } from '../http/idempotency';
import { authenticateApplication, type OAuthAppRow } from './applications';
import { authorizeRequest, createRequestToken, exchangeForAccessToken, listGrants, pendingApplication, profileFor, revokeGrant } from './flow';
import { bearerToken } from './session-guard';
import { defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const Str = v.string();
const AppView = v.object({ name: Str, description: Str, icon: Str, website: Str, callback_url: Str });
const Address = v.object({
  street: Str, external_number: Str, internal_number: Str, neighborhood: Str, city: Str, state: Str, country: Str, zip_code: Str,
});
const Profile = v.object({
  user: v.object({ username: Str, email: Str }),
  account: v.object({
    rfc: Str,
    name: v.nullable(Str),
    first_name: v.nullable(Str),
    last_name: v.nullable(Str),
    regimen_fiscal: Str,
    address: v.array(Address),
    residencia_fiscal: v.nullable(Str),
    num_reg_id_trib: v.nullable(Str),
  }),
});
const Grant = v.object({ id: v.number(), application: v.object({ name: Str, icon: Str, website: Str }), rfc: Str, created_at: Str });
const TAG = 'OAuth';

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
  const limiter = s.limits('oauth-token', TOKEN_CALLS_PER_IP.limit, TOKEN_CALLS_PER_IP.windowMs);

  const limit = async (c: Context<AppEnv>) => {
    const now = s.clock().getTime();
    if (!(await limiter.take(c.get('ip'), now))) throw fail(429, MSG.oauthTooMany, { 'Retry-After': String(limiter.retryAfter(c.get('ip'), now)) });
  };
  const appOf = async (body: { client_id: string; client_secret: string }): Promise<OAuthAppRow> => {
    const found = await authenticateApplication(s.db, body.client_id, body.client_secret);
    if (!found) throw fail(401, MSG.oauthBadClient);
    return found;
  };

  defineRoute(app, {
    method: 'post', path: '/oauth/request_token.json', tag: TAG, auth: false, body: RequestTokenBody, errors: [429], guard: limit,
    summary: 'La aplicación (de servidor a servidor, con client_id y client_secret) pide un oauth_token de un solo uso que vence en 10 minutos. callback_url debe ser exactamente la registrada (400 si no); 401 con credenciales incorrectas. 30 por IP por minuto',
    response: v.object({ oauth_token: Str }),
  }, async (c, { body }) => {
    const found = await appOf(body);
    // Exact match only: no prefix, no normalisation (an open redirect otherwise).
    if (body.callback_url !== found.callbackUrl) throw fail(400, MSG.oauthCallbackMismatch);
    const requestToken = await createRequestToken(s.db, found, s.clock());
    markSecretResponse(c);
    return ok(c, { oauth_token: requestToken });
  });

  defineRoute(app, {
    method: 'get', path: '/oauth/authorize.json', tag: TAG, auth: false, errors: [404],
    params: { oauth_token: '*El oauth_token del paso anterior' },
    summary: 'Lo que muestra la pantalla de autorización: nombre, descripción, ícono, sitio y URL de retorno de la aplicación. 404 con el mensaje de token no válido si no existe, ya se usó o venció',
    response: AppView,
  }, async (c) => {
    const view = await pendingApplication(s.db, c.req.query('oauth_token'), s.clock());
    if (!view) throw fail(404, MSG.invalidPageToken);
    return ok(c, view);
  });

  defineRoute(app, {
    method: 'post', path: '/oauth/authorize.json', tag: TAG, auth: true, body: AuthorizeBody, errors: [404],
    summary: 'El usuario con sesión autoriza a la aplicación a leer su perfil y los datos fiscales de uno de sus RFC (404 si el RFC no es suyo o el token no es válido). Responde la URL de retorno con oauth_token y oauth_verifier',
    response: v.object({ redirect_url: Str }),
  }, auth, async (c, { body }) => {
    const r = await authorizeRequest(s.db, caller(c).userId, body.oauth_token, body.rfc, s.clock());
    if (r.kind === 'invalid-token') throw fail(404, MSG.invalidPageToken);
    if (r.kind === 'not-your-rfc') throw fail(404, MSG.oauthRfcNotYours);
    markSecretResponse(c); // the URL carries the verifier
    return ok(c, { redirect_url: r.redirectUrl });
  });

  defineRoute(app, {
    method: 'post', path: '/oauth/access_token.json', tag: TAG, auth: false, body: AccessTokenBody, errors: [429], guard: limit,
    summary: 'La aplicación cambia oauth_token y oauth_verifier (un solo uso: repetirlo da 400) por un access_token de solo lectura, limitado a ese usuario y RFC y revocable por el usuario. 401 con credenciales incorrectas. 30 por IP por minuto',
    response: v.object({ access_token: Str }),
  }, async (c, { body }) => {
    const found = await appOf(body);
    const access = await exchangeForAccessToken(s.db, found, body.oauth_token, body.oauth_verifier, s.clock());
    if (!access) throw fail(400, MSG.invalidPageToken);
    markSecretResponse(c);
    return ok(c, { access_token: access });
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/oauth/profile.json', tag: TAG, auth: false,
    summary: 'Con `Authorization: Bearer <access_token>`: el perfil (usuario y correo) y los datos fiscales del RFC autorizado; nunca comprobantes ni contraseñas. 401 si el token no existe o fue revocado. Ese token en cualquier otro endpoint recibe 403',
    response: Profile,
  }, async (c) => {
    const profile = await profileFor(s.db, bearerToken(c));
    if (!profile) throw fail(401, MSG.oauthInvalidAccessToken, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    return ok(c, profile);
  });

  const ownUser = (c: Context<AppEnv>): number => {
    const userId = caller(c).userId;
    if (c.req.param('id') !== String(userId)) throw fail(404, MSG.notFound);
    return userId;
  };

  defineRoute(app, {
    method: 'get', path: '/api/v3/users/{id}/oauth_grants.json', tag: TAG, auth: true, errors: [404],
    params: { id: '*user_id propio' },
    summary: 'Las aplicaciones conectadas del usuario (autorizaciones vigentes), la más reciente primero',
    response: v.array(Grant),
  }, auth, async (c) => ok(c, await listGrants(s.db, ownUser(c))));

  defineRoute(app, {
    method: 'delete', path: '/api/v3/users/{id}/oauth_grants/{grant_id}.json', patterns: { grant_id: '[0-9]{1,9}' }, names: { grant_id: 'grant' }, tag: TAG, auth: true, errors: [404],
    params: { id: '*user_id propio', grant_id: '*id de la autorización' },
    summary: 'Revocar una autorización propia: su access_token deja de servir de inmediato',
    response: v.object({ id: v.number(), revoked: v.boolean() }),
  }, auth, async (c) => {
    const userId = ownUser(c);
    const grantId = Number(pathParam(c, 'grant').replace(/\.json$/, ''));
    if (!(await revokeGrant(s.db, userId, grantId, s.clock()))) throw fail(404, MSG.notFound);
    return ok(c, { id: grantId, revoked: true });
  });

  return app;
}
