// OAuth for third-party apps: every step of the flow and every refusal — callback
// mismatch, wrong secret, expired/used request token, replayed verifier, another user's RFC, revoked grant —
// and the app's access token refused (403) by session endpoints in all four token places.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { OAUTH_REQUEST_TTL_MINUTES } from '../../../src/domain/oauth';
import { oauthApplications, oauthGrants, oauthRequests } from '../../../src/server/db/schema-company';
import { idempotencyKeys } from '../../../src/server/db/schema';
import { cleanupExpired } from '../../../src/server/jobs/boss';
import { registerApplication } from '../../../src/server/oauth/applications';
import { TOKEN_CALLS_PER_IP } from '../../../src/server/oauth/routes';
import { sha256Hex } from '../../../src/server/oauth/secrets';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const CALLBACK = 'https://app.example.mx/cc/callback?source=cc';
const PERSON = { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez Díaz', name: null };
const COMPANY = { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE' };

describe.each(DRIVERS)('OAuth API on %s', (driver) => {
  let h: Harness;
  let app: { clientId: string; secret: string };
  beforeAll(async () => {
    h = await createHarness(driver);
    app = await registerApplication(h.database.db, {
      name: 'Contabilízate',
      description: 'Tu contabilidad en automático.',
      icon: 'https://app.example.mx/icon.png',
      website: 'https://app.example.mx',
      callbackUrl: CALLBACK,
    });
  });
  afterAll(async () => h?.close());

  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  async function userWith(...accounts: object[]) {
    const u = await h.signUp('oauth');
    for (const client of accounts) {
      const made = await h.call('POST', '/new_client', { token: u.token, body: { client } });
      expect(made.status, made.text).toBe(200);
    }
    return u;
  }
  const requestToken = async (body: Record<string, unknown> = {}) =>
    h.call('POST', '/oauth/request_token.json', {
      body: { client_id: app.clientId, client_secret: app.secret, callback_url: CALLBACK, ...body },
    });
  async function newRequestToken(): Promise<string> {
    const r = await requestToken();
    expect(r.status, r.text).toBe(200);
    return r.json.response.oauth_token as string;
  }
  async function authorize(token: string, oauthToken: string, rfc: string) {
    return h.call('POST', '/oauth/authorize.json', { token, body: { oauth_token: oauthToken, rfc } });
  }
  /** The callback URL's params, as the app's server would receive them. */
  function paramsOf(redirectUrl: string) {
    const u = new URL(redirectUrl);
    return { oauth_token: u.searchParams.get('oauth_token') ?? '', oauth_verifier: u.searchParams.get('oauth_verifier') ?? '' };
  }
  const exchange = (p: { oauth_token: string; oauth_verifier: string }, secret = app.secret) =>
    h.call('POST', '/oauth/access_token.json', { body: { client_id: app.clientId, client_secret: secret, ...p } });
  async function fullFlow(u: { token: string }, rfc: string): Promise<string> {
    const t = await newRequestToken();
    const a = await authorize(u.token, t, rfc);
    expect(a.status, a.text).toBe(200);
    const x = await exchange(paramsOf(a.json.response.redirect_url));
    expect(x.status, x.text).toBe(200);
    return x.json.response.access_token as string;
  }

  it('runs the whole flow: request token, the app view, authorise one RFC, exchange, read that profile', async () => {
    const u = await userWith(PERSON, COMPANY);
    const t = await newRequestToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const [stored] = await h.database.db.select().from(oauthRequests).where(eq(oauthRequests.tokenHash, sha256Hex(t)));
    expect(stored?.usedAt).toBeNull();
    const appRows = await h.database.db.select().from(oauthApplications).where(eq(oauthApplications.clientId, app.clientId));
    expect(appRows[0]?.secretHash).toBe(sha256Hex(app.secret));
    expect(JSON.stringify(appRows)).not.toContain(app.secret);

    const view = await h.call('GET', `/oauth/authorize.json?oauth_token=${t}`);
    expect(view.status).toBe(200);
    expect(view.json.response).toEqual({
      name: 'Contabilízate',
      description: 'Tu contabilidad en automático.',
      icon: 'https://app.example.mx/icon.png',
      website: 'https://app.example.mx',
      callback_url: CALLBACK,
    });

    const a = await authorize(u.token, t, COMPANY.rfc);
    expect(a.status, a.text).toBe(200);
    const redirect = new URL(a.json.response.redirect_url);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://app.example.mx/cc/callback');
    expect(redirect.searchParams.get('source')).toBe('cc'); // the registered URL's own query is kept
    const params = paramsOf(redirect.toString());
    expect(params.oauth_token).toBe(t);
    expect(params.oauth_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [authorised] = await h.database.db.select().from(oauthRequests).where(eq(oauthRequests.tokenHash, sha256Hex(t)));
    expect(authorised?.verifierHash).toBe(sha256Hex(params.oauth_verifier));

    const x = await exchange(params);
    expect(x.status, x.text).toBe(200);
    const access = x.json.response.access_token as string;
    expect(access).toMatch(/^cco_[A-Za-z0-9_-]{43}$/); // never the shape of a 43-character session token
    const [grant] = await h.database.db.select().from(oauthGrants).where(eq(oauthGrants.tokenHash, sha256Hex(access)));
    expect(grant?.userId).toBe(u.userId);

    const p = await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(access) });
    expect(p.status, p.text).toBe(200);
    expect(p.json.response.user).toEqual({ username: u.username, email: u.email });
    expect(p.json.response.account).toMatchObject({ rfc: COMPANY.rfc, name: COMPANY.name });
    expect(Object.keys(p.json.response.account).sort()).toEqual(
      ['address', 'first_name', 'last_name', 'name', 'num_reg_id_trib', 'regimen_fiscal', 'residencia_fiscal', 'rfc'].sort(),
    );
    // Never passwords, payment data, the other RFC or anything invoice-shaped.
    expect(p.text).not.toMatch(/password|payment|card_|ciec|ticket/i);
    expect(p.text).not.toContain(PERSON.rfc);
  });

  it('refuses a callback URL that is not exactly the registered one (400) and wrong app credentials (401)', async () => {
    for (const callback_url of [`${CALLBACK}&x=1`, 'https://app.example.mx/cc/callback', 'https://evil.example/cc/callback?source=cc', `${CALLBACK}#x`]) {
      const r = await requestToken({ callback_url });
      expect(r.status, callback_url).toBe(400);
      expect(r.json.errors).toEqual([MSG.oauthCallbackMismatch]);
    }
    const wrong = await requestToken({ client_secret: `${app.secret.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json.errors).toEqual([MSG.oauthBadClient]);
    expect((await requestToken({ client_id: 'ccapp_nadie' })).status).toBe(401);
    const missing = await h.call('POST', '/oauth/request_token.json', { body: { client_id: app.clientId } });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([MSG.oauthBadRequest]);
  });

  it('shows the §8 message for an unknown, expired or already used request token', async () => {
    const unknown = await h.call('GET', '/oauth/authorize.json?oauth_token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors).toEqual([MSG.invalidPageToken]);
    expect((await h.call('GET', '/oauth/authorize.json')).json.errors).toEqual([MSG.invalidPageToken]);

    const u = await userWith(PERSON);
    // Expired: the request lives OAUTH_REQUEST_TTL_MINUTES.
    const old = await newRequestToken();
    h.advance(OAUTH_REQUEST_TTL_MINUTES * 60_000 + 1_000);
    try {
      expect((await h.call('GET', `/oauth/authorize.json?oauth_token=${old}`)).json.errors).toEqual([MSG.invalidPageToken]);
      const late = await authorize(u.token, old, PERSON.rfc);
      expect(late.status).toBe(404);
      expect(late.json.errors).toEqual([MSG.invalidPageToken]);
    } finally {
      h.advance(-(OAUTH_REQUEST_TTL_MINUTES * 60_000 + 1_000));
    }

    // Used: once authorised, the page's token no longer shows the app nor authorises again.
    const t = await newRequestToken();
    expect((await authorize(u.token, t, PERSON.rfc)).status).toBe(200);
    const again = await h.call('GET', `/oauth/authorize.json?oauth_token=${t}`);
    expect(again.status).toBe(404);
    expect(again.json.errors).toEqual([MSG.invalidPageToken]);
    expect((await authorize(u.token, t, PERSON.rfc)).json.errors).toEqual([MSG.invalidPageToken]);
  });

  it('authorises only with a session and only one of the user’s own RFCs', async () => {
    const u = await userWith(PERSON);
    const other = await userWith(COMPANY);
    const t = await newRequestToken();
    const anon = await h.call('POST', '/oauth/authorize.json', { body: { oauth_token: t, rfc: PERSON.rfc } });
    expect(anon.status).toBe(401);
    const notYours = await authorize(u.token, t, COMPANY.rfc); // other's RFC
    expect(notYours.status).toBe(404);
    expect(notYours.json.errors).toEqual([MSG.oauthRfcNotYours]);
    const byOther = await authorize(other.token, t, PERSON.rfc);
    expect(byOther.status).toBe(404);
    // The refusals left the request pending: the owner can still authorise (lowercase RFC accepted).
    expect((await authorize(u.token, t, PERSON.rfc.toLowerCase())).status).toBe(200);
  });

  it('exchanges a verifier once: a replay, a wrong verifier, another app or a wrong secret are refused', async () => {
    const u = await userWith(PERSON);
    const t = await newRequestToken();
    const params = paramsOf((await authorize(u.token, t, PERSON.rfc)).json.response.redirect_url);

    const badSecret = await exchange(params, `${app.secret.slice(0, -2)}zz`);
    expect(badSecret.status).toBe(401);
    expect(badSecret.json.errors).toEqual([MSG.oauthBadClient]);

    const wrongVerifier = await exchange({ ...params, oauth_verifier: 'B'.repeat(43) });
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.json.errors).toEqual([MSG.invalidPageToken]);

    const otherApp = await registerApplication(h.database.db, { name: 'Otra', callbackUrl: 'https://otra.example/cb' });
    const stolen = await h.call('POST', '/oauth/access_token.json', {
      body: { client_id: otherApp.clientId, client_secret: otherApp.secret, ...params },
    });
    expect(stolen.status).toBe(400);

    expect((await exchange(params)).status).toBe(200);
    const replay = await exchange(params);
    expect(replay.status).toBe(400);
    expect(replay.json.errors).toEqual([MSG.invalidPageToken]);

    // Not yet authorised: nothing to exchange.
    const fresh = await newRequestToken();
    expect((await exchange({ oauth_token: fresh, oauth_verifier: 'C'.repeat(43) })).status).toBe(400);
  });

  it('lists and revokes grants for the own user only; a revoked token reads nothing (401)', async () => {
    const u = await userWith(PERSON, COMPANY);
    const other = await userWith(PERSON);
    const access = await fullFlow(u, PERSON.rfc);
    await fullFlow(u, COMPANY.rfc);

    const list = await h.call('GET', `/api/v3/users/${u.userId}/oauth_grants.json`, { token: u.token });
    expect(list.status).toBe(200);
    expect(list.json.response).toHaveLength(2);
    expect(list.json.response.map((g: { rfc: string }) => g.rfc).sort()).toEqual([COMPANY.rfc, PERSON.rfc].sort());
    expect(list.json.response[0].application).toEqual({ name: 'Contabilízate', icon: 'https://app.example.mx/icon.png', website: 'https://app.example.mx' });
    const personGrant = list.json.response.find((g: { rfc: string }) => g.rfc === PERSON.rfc) as { id: number };

    expect((await h.call('GET', `/api/v3/users/${u.userId}/oauth_grants.json`, { token: other.token })).status).toBe(404);
    expect((await h.call('GET', `/api/v3/users/${u.userId}/oauth_grants.json`)).status).toBe(401);
    const foreign = await h.call('DELETE', `/api/v3/users/${other.userId}/oauth_grants/${personGrant.id}.json`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect((await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(access) })).status).toBe(200);

    const revoked = await h.call('DELETE', `/api/v3/users/${u.userId}/oauth_grants/${personGrant.id}.json`, { token: u.token });
    expect(revoked.status, revoked.text).toBe(200);
    const after = await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(access) });
    expect(after.status).toBe(401);
    expect(after.json.errors).toEqual([MSG.oauthInvalidAccessToken]);
    expect(after.headers.get('www-authenticate')).toContain('invalid_token');
    const left = await h.call('GET', `/api/v3/users/${u.userId}/oauth_grants.json`, { token: u.token });
    expect(left.json.response.map((g: { rfc: string }) => g.rfc)).toEqual([COMPANY.rfc]);
    expect((await h.call('DELETE', `/api/v3/users/${u.userId}/oauth_grants/${personGrant.id}.json`, { token: u.token })).status).toBe(404);
  });

  it('authorising the same app for the same RFC again replaces the earlier grant', async () => {
    const u = await userWith(PERSON);
    const first = await fullFlow(u, PERSON.rfc);
    const second = await fullFlow(u, PERSON.rfc);
    const list = await h.call('GET', `/api/v3/users/${u.userId}/oauth_grants.json`, { token: u.token });
    expect(list.json.response).toHaveLength(1);
    expect((await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(first) })).status).toBe(401);
    expect((await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(second) })).status).toBe(200);
  });

  it('the hourly clean-up drops request tokens a day after they expired, and keeps the rest', async () => {
    const fresh = await newRequestToken();
    const stale = await newRequestToken();
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await h.database.db.update(oauthRequests).set({ expiresAt: longAgo }).where(eq(oauthRequests.tokenHash, sha256Hex(stale)));
    await cleanupExpired(h.database);
    const left = await h.database.db.select({ hash: oauthRequests.tokenHash }).from(oauthRequests);
    expect(left.map((r) => r.hash)).toContain(sha256Hex(fresh));
    expect(left.map((r) => r.hash)).not.toContain(sha256Hex(stale));
  });

  it('never takes an app token as a session (403 in every token place) nor a session as an app token (401)', async () => {
    const u = await userWith(PERSON);
    const access = await fullFlow(u, PERSON.rfc);
    const month = `usuario[rfc_owner]=${PERSON.rfc}&date[year]=2026&date[month]=11`;
    const sessionEndpoints: [string, string][] = [
      ['GET', `/api/v2/tickets?${month}`],
      ['GET', '/user_clients'],
      ['GET', '/receipt_xml?receipt_id=1'],
      ['GET', '/receipt_pdf?receipt_id=1'],
      ['GET', '/api/v3/receipts/archive?ids=1'],
      ['GET', '/api/v2/ticket_image?ticket_id=1'],
      ['GET', `/api/v3/users/${u.userId}/oauth_grants.json`],
      ['PUT', '/api/v2/update_ticket'],
      ['POST', '/api/v2/logout'],
    ];
    for (const [method, path] of sessionEndpoints) {
      const viaBearer = await h.call(method, path, { headers: bearer(access), body: method === 'GET' ? undefined : {} });
      expect(viaBearer.status, `${method} ${path} (Bearer)`).toBe(403);
      expect(viaBearer.json.errors).toEqual([MSG.oauthTokenForbidden]);
      const viaHeader = await h.call(method, path, { token: access, body: method === 'GET' ? undefined : {} });
      expect(viaHeader.status, `${method} ${path} (X-Access-Token)`).toBe(403);
    }
    const sep = (p: string) => (p.includes('?') ? '&' : '?');
    const tickets = `/api/v2/tickets?${month}`;
    expect((await h.call('GET', `${tickets}${sep(tickets)}access_token=${access}`)).status).toBe(403);
    expect((await h.call('GET', `${tickets}&user[token]=${access}`)).status).toBe(403);
    expect((await h.call('PUT', '/api/v2/update_ticket', { body: { user: { token: access } } })).status).toBe(403);
    expect((await h.call('GET', '/user_clients', { headers: { token: access } })).status).toBe(403);
    // An app token cannot authorise another request either.
    const t = await newRequestToken();
    expect((await h.call('POST', '/oauth/authorize.json', { headers: bearer(access), body: { oauth_token: t, rfc: PERSON.rfc } })).status).toBe(403);

    // The session itself is unaffected, and is not an app token.
    expect((await h.call('GET', '/user_clients', { token: u.token })).status).toBe(200);
    const sessionAsApp = await h.call('GET', '/api/v3/oauth/profile.json', { headers: bearer(u.token) });
    expect(sessionAsApp.status).toBe(401);
    expect((await h.call('GET', '/api/v3/oauth/profile.json', { token: access })).status).toBe(401); // Bearer only
  });

  it('refuses an app token (403) on every documented session endpoint', async () => {
    const u = await userWith(PERSON);
    const access = await fullFlow(u, PERSON.rfc);
    const doc = (await h.call('GET', '/api/openapi.json')).json;
    const session = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>).flatMap(([path, ops]) =>
      Object.entries(ops).filter(([, op]) => op.security).map(([method]) => ({ method, path })),
    );
    expect(session.length).toBeGreaterThan(20);
    for (const e of session) {
      const path = e.path.replace(/\{id\}/g, String(u.userId)).replace(/\{[a-z_]+\}/g, '1');
      const r = await h.call(e.method.toUpperCase(), path, { headers: bearer(access), body: e.method === 'get' ? undefined : {} });
      expect(r.status, `${e.method} ${e.path}`).toBe(403);
    }
  });

  it('lets only one of two racing exchanges of the same verifier through', async () => {
    const u = await userWith(PERSON);
    const t = await newRequestToken();
    const params = paramsOf((await authorize(u.token, t, PERSON.rfc)).json.response.redirect_url);
    const results = await Promise.all([exchange(params), exchange(params), exchange(params)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const grants = await h.database.db.select().from(oauthGrants).where(eq(oauthGrants.userId, u.userId));
    expect(grants).toHaveLength(1);
  });

  it('registers apps only with a name and an absolute http(s) callback without fragment', async () => {
    for (const callbackUrl of ['/cb', 'ftp://x.example/cb', 'https://x.example/cb#frag', 'https://user:pw@x.example/cb', 'no es url']) {
      await expect(registerApplication(h.database.db, { name: 'X', callbackUrl }), callbackUrl).rejects.toThrow();
    }
    await expect(registerApplication(h.database.db, { name: '  ', callbackUrl: 'https://x.example/cb' })).rejects.toThrow();
    const ok = await registerApplication(h.database.db, { name: ' Y ', callbackUrl: 'http://127.0.0.1:9/cb' });
    expect(ok.clientId).toMatch(/^ccapp_/);
    expect(ok.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('limits the token endpoints per IP with 429 and Retry-After', async () => {
    const ip = '192.0.2.77';
    let last = await h.call('POST', '/oauth/access_token.json', { ip, body: {} });
    for (let i = 1; i < TOKEN_CALLS_PER_IP.limit; i++) last = await h.call('POST', '/oauth/request_token.json', { ip, body: {} });
    expect(last.status).toBe(400);
    const limited = await h.call('POST', '/oauth/request_token.json', { ip, body: {} });
    expect(limited.status).toBe(429);
    expect(limited.json.errors).toEqual([MSG.oauthTooMany]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await h.call('POST', '/oauth/request_token.json', { ip: '192.0.2.78', body: {} })).status).toBe(400);
  });

  it('never keeps the access token in the idempotency table, nor replays it for the same key', async () => {
    const u = await userWith(PERSON);
    const t = await newRequestToken();
    const a = await authorize(u.token, t, PERSON.rfc);
    const key = crypto.randomUUID();
    const body = { client_id: app.clientId, client_secret: app.secret, ...paramsOf(a.json.response.redirect_url) };
    const first = await h.call('POST', '/oauth/access_token.json', { body, headers: { 'Idempotency-Key': key } });
    expect(first.status, first.text).toBe(200);
    const access = first.json.response.access_token as string;
    const rows = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'secret', responseBody: null });
    expect(JSON.stringify(rows)).not.toContain(access);
    const again = await h.call('POST', '/oauth/access_token.json', { body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ errors: [MSG.idempotencySecret] });
    expect(again.text).not.toContain(access);
  });
});
