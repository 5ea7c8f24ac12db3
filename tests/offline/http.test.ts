// The one HTTP client: the envelope, the token, the page's 401 handler, and a deadline on every request.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createHttp, deadlineFor, REQUEST_TIMEOUT_MS, unwrap } from '../../src/offline/http';
import { MSG } from '../../src/domain/messages';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('response envelope', () => {
  it('unwraps {response}', () => {
    expect(unwrap(200, { response: { id: 1 } }, false)).toEqual({ id: 1 });
  });

  it('passes through a bare JSON body (plans.json)', () => {
    expect(unwrap(200, [{ id: 1 }], true)).toEqual([{ id: 1 }]);
  });

  it('throws the first Spanish server error with its status', () => {
    const err = (() => {
      try {
        unwrap(422, { errors: ['Por favor ingresa un RFC válido.', 'otro'] }, true);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: MSG.rfcInvalid, status: 422, offline: false });
  });

  it('500 and bodies without errors become the generic message', () => {
    expect(() => unwrap(500, { errors: ['stack trace'] }, false)).toThrow(MSG.generic);
    expect(() => unwrap(502, null, false)).toThrow(MSG.generic);
  });

  it('401 on a signed-in call ends the session; on a signed-out call (login) it is just the error', () => {
    const handler = vi.fn();
    expect(() => unwrap(401, { errors: ['x'] }, true, handler)).toThrow(MSG.unauthorized);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(() => unwrap(401, { errors: [MSG.loginFailed] }, false, handler)).toThrow(MSG.loginFailed);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('the page client', () => {
  it('delete and putForm send their method and the multipart form, and unwrap the answer', async () => {
    const { api } = await import('../../src/app/api/client');
    const seen: { method: string; type: string | null; body: string }[] = [];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      seen.push({ method: req.method, type: req.headers.get('content-type'), body: await req.text() });
      return json({ response: { ok: true } });
    }));
    const form = new FormData();
    form.append('password', 'secreta');
    expect(await api.delete('http://localhost/api/x.json')).toEqual({ ok: true });
    expect(await api.putForm('http://localhost/api/y', form)).toEqual({ ok: true });
    expect(seen.map((s) => s.method)).toEqual(['DELETE', 'PUT']);
    expect(seen[1]!.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1]!.body).toContain('secreta');
  });

  it('a 401 to a signed-in call runs the handler main.tsx set', async () => {
    const session = await import('../../src/offline/session');
    const { api, setUnauthorizedHandler } = await import('../../src/app/api/client');
    vi.spyOn(session, 'getSession').mockReturnValue({ token: 'tok', user_id: 1, email: 'a@b.mx', username: 'ana' });
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const tokens: (string | null)[] = [];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      tokens.push(req.headers.get('X-Access-Token'));
      return json({ errors: ['x'] }, 401);
    }));
    await expect(api.get('http://localhost/user_clients')).rejects.toMatchObject({ status: 401, message: MSG.unauthorized });
    expect(tokens).toEqual(['tok']);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('createHttp', () => {
  const baseUrl = 'http://api.test';

  it('adds the token, resolves paths against the base URL and reads the whole answer of any status', async () => {
    const seen: Request[] = [];
    const http = createHttp({ getToken: () => 't0k', baseUrl, fetch: async (req) => (seen.push(req), json({ errors: ['Ya existe.'] }, 409)) });
    const answer = await http.answer(new Request(`${baseUrl}/api/v2/update_ticket`, { method: 'PUT', body: '{}' }), 1_000);
    expect(answer).toMatchObject({ status: 409, error: 'Ya existe.' });
    await expect(http.get('/meta_tags.json')).rejects.toMatchObject({ status: 409, message: 'Ya existe.' });
    expect(seen.map((r) => [r.method, r.url, r.headers.get('X-Access-Token')])).toEqual([
      ['PUT', `${baseUrl}/api/v2/update_ticket`, 't0k'],
      ['GET', `${baseUrl}/meta_tags.json`, 't0k'],
    ]);
  });

  it('a request with no answer by its deadline fails as offline instead of waiting forever', async () => {
    const http = createHttp({ getToken: () => 't', baseUrl, fetch: () => new Promise<Response>(() => undefined), offlineMessage: 'Sin conexión' });
    const started = Date.now();
    await expect(http.answer(new Request(`${baseUrl}/x`, { method: 'POST', body: 'a' }), 50)).rejects.toMatchObject({ status: 0, offline: true, message: 'Sin conexión' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a network failure is an offline ApiError with the generic message by default', async () => {
    const http = createHttp({ getToken: () => null, baseUrl, fetch: async () => { throw new TypeError('Failed to fetch'); } });
    await expect(http.post('/x', { a: 1 })).rejects.toMatchObject({ status: 0, offline: true, message: MSG.generic });
  });

  it('a public page\'s request (anonymous) carries no session token', async () => {
    const seen: Request[] = [];
    const http = createHttp({ getToken: () => 'secreto', baseUrl, fetch: async (r) => (seen.push(r), new Response('<x/>', { status: 404 })) });
    const res = await http.raw('/api/v3/tickets/ABC?format=json', { headers: { Accept: 'application/xml' }, anonymous: true });
    expect(res.status).toBe(404);
    expect(seen[0]!.headers.get('X-Access-Token')).toBeNull();
    expect(seen[0]!.headers.get('Accept')).toBe('application/xml');
  });

  it('a bigger body gets a longer deadline (a slow line moves ~50 kB/s)', () => {
    expect(deadlineFor(0)).toBe(REQUEST_TIMEOUT_MS);
    expect(deadlineFor(2_000_000)).toBe(REQUEST_TIMEOUT_MS + 40_000);
  });
});
