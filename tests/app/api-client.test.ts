import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/app/api/api-error';
import { setUnauthorizedHandler, unwrap } from '../../src/app/api/client';
import { MSG } from '../../src/domain/messages';

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

  it('401 on a signed-in call signs out; on a signed-out call (login) it is just the error', () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    expect(() => unwrap(401, { errors: ['x'] }, true)).toThrow(MSG.unauthorized);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(() => unwrap(401, { errors: [MSG.loginFailed] }, false)).toThrow(MSG.loginFailed);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('verbs', () => {
  it('delete and putForm send their method and the multipart form, and unwrap the answer', async () => {
    const { api } = await import('../../src/app/api/client');
    const seen: { method: string; type: string | null; body: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (req: Request) => {
        seen.push({ method: req.method, type: req.headers.get('content-type'), body: await req.text() });
        return new Response(JSON.stringify({ response: { ok: true } }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const form = new FormData();
    form.append('password', 'secreta');
    expect(await api.delete('http://localhost/api/x.json')).toEqual({ ok: true });
    expect(await api.putForm('http://localhost/api/y', form)).toEqual({ ok: true });
    expect(seen.map((s) => s.method)).toEqual(['DELETE', 'PUT']);
    expect(seen[1]!.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1]!.body).toContain('secreta');
    vi.unstubAllGlobals();
  });
});
