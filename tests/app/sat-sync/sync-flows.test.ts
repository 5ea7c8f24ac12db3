// The connect / upload / disconnect sequences (spec §7 SAT authenticate + Save SAT password, §8 SAT 400
// and the success text) with the HTTP layer faked: the shared client mocked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/offline/http';
import { MSG } from '../../../src/domain/messages';
import { EFIRMA_PARTS } from '../../../src/domain/sat-sync';

type Call = { method: string; path: string; body?: unknown; headers?: Record<string, string> };
const calls: Call[] = [];
/** What each next call answers: a value, or an error to throw. */
const replies: (unknown | ApiError)[] = [];
const next = () => {
  const r = replies.shift();
  if (r instanceof ApiError) throw r;
  return r;
};

vi.mock('../../../src/app/api/client', () => {
  return {
    api: {
      get: async (path: string) => (calls.push({ method: 'get', path }), next()),
      post: async (path: string, body?: unknown) => (calls.push({ method: 'post', path, body }), next()),
      put: async (path: string, body?: unknown) => (calls.push({ method: 'put', path, body }), next()),
      putForm: async (path: string, body: FormData) => (calls.push({ method: 'putForm', path, body }), next()),
      delete: async (path: string) => (calls.push({ method: 'delete', path }), next()),
    },
  };
});
vi.mock('../../../src/offline/session', () => ({ getSession: () => ({ token: 'tok', user_id: 7, email: 'a@b.mx', username: 'ana' }) }));

const { connectCiec, connectEfirma, disconnect } = await import('../../../src/app/sat-sync/sync-model');

const RFC = 'GODE561231GR8';
let reloads = 0;
const ctx = (online = true) => ({ userId: 7, rfc: RFC, online, reload: async () => void reloads++ });

beforeEach(() => {
  calls.length = 0;
  replies.length = 0;
  reloads = 0;
});
afterEach(() => vi.unstubAllGlobals());

describe('CIEC: authenticate, save, reload', () => {
  it('authenticates with {rfc, clave_ciec}, saves {sat_password} on the branch, then reloads the accounts', async () => {
    replies.push({ valid: true }, { diverza_client_id: 1, rfc: RFC, ciec: true });
    expect(await connectCiec(ctx(), 'Secreta12')).toEqual({ kind: 'ok' });
    expect(calls).toEqual([
      { method: 'post', path: '/api/v1/AuthenticateSATPortal', body: { rfc: RFC, clave_ciec: 'Secreta12' } },
      { method: 'put', path: `/api/v3/users/7/branches/${RFC}.json`, body: { sat_password: 'Secreta12' } },
    ]);
    expect(reloads).toBe(1);
  });

  it('400 from SAT authenticate is the inline "Contraseña no válida": nothing saved, nothing reloaded', async () => {
    replies.push(new ApiError(MSG.generic, 400));
    expect(await connectCiec(ctx(), 'Incorrecta1')).toEqual({ kind: 'invalid', message: MSG.satPasswordInvalid });
    expect(MSG.satPasswordInvalid).toBe('Contraseña no válida. Por favor, intenta otra vez.');
    expect(calls.map((c) => c.method)).toEqual(['post']);
    expect(reloads).toBe(0);
  });

  it('422 means this server connects only by e.firma', async () => {
    replies.push(new ApiError(MSG.generic, 422));
    expect(await connectCiec(ctx(), 'Secreta12')).toEqual({ kind: 'unavailable', message: MSG.satMethodUnavailable });
  });

  it('offline: nothing is sent (a password is never queued), and a dropped connection says the same', async () => {
    expect(await connectCiec(ctx(false), 'Secreta12')).toEqual({ kind: 'offline', message: MSG.satOffline });
    expect(calls).toEqual([]);
    replies.push(new ApiError('x', 0, true));
    expect(await connectCiec(ctx(), 'Secreta12')).toEqual({ kind: 'offline', message: MSG.satOffline });
  });

  it("a server failure while saving shows the server's Spanish message", async () => {
    replies.push({ valid: true }, new ApiError(MSG.generic, 500));
    expect(await connectCiec(ctx(), 'Secreta12')).toEqual({ kind: 'error', message: MSG.generic });
    expect(reloads).toBe(0);
  });
});

describe('e.firma upload', () => {
  const files = { cer: new File(['cer'], 'fiel.cer'), key: new File(['key'], 'fiel.key'), password: '12345678a' };

  it('PUTs the three multipart parts, then reloads', async () => {
    replies.push({ diverza_client_id: 1, rfc: RFC, ciec: true });
    expect(await connectEfirma(ctx(), files)).toEqual({ kind: 'ok' });
    const [call] = calls;
    expect(call).toMatchObject({ method: 'putForm', path: `/api/v3/users/7/branches/${RFC}/efirma` });
    const form = call!.body as FormData;
    expect((form.get(EFIRMA_PARTS.cer) as File).name).toBe('fiel.cer');
    expect((form.get(EFIRMA_PARTS.key) as File).name).toBe('fiel.key');
    expect(form.get(EFIRMA_PARTS.password)).toBe('12345678a');
    expect(reloads).toBe(1);
  });

  it("shows the server's e.firma reason inline", async () => {
    replies.push(new ApiError(MSG.efirmaWrongRfc, 422));
    expect(await connectEfirma(ctx(), files)).toEqual({ kind: 'invalid', message: MSG.efirmaWrongRfc });
    replies.push(new ApiError(MSG.generic, 400));
    expect(await connectEfirma(ctx(), files)).toEqual({ kind: 'invalid', message: MSG.efirmaInvalid });
    expect(reloads).toBe(0);
  });

  it('offline: not sent', async () => {
    expect(await connectEfirma(ctx(false), files)).toEqual({ kind: 'offline', message: MSG.satOffline });
    expect(calls).toEqual([]);
    replies.push(new ApiError(MSG.generic, 0, true));
    expect(await connectEfirma(ctx(), files)).toEqual({ kind: 'offline', message: MSG.satOffline });
  });
});

describe('Desconectar', () => {
  it('DELETEs the branch and reloads the accounts', async () => {
    replies.push({ diverza_client_id: 1, rfc: RFC, ciec: false });
    expect(await disconnect(ctx())).toEqual({ kind: 'ok' });
    expect(calls[0]).toMatchObject({ method: 'delete', path: `/api/v3/users/7/branches/${RFC}.json` });
    expect(reloads).toBe(1);
  });

  it('a failure keeps the connection and says why', async () => {
    replies.push(new ApiError('Tu plan no incluye la sincronización con el SAT.', 403));
    expect(await disconnect(ctx())).toEqual({ kind: 'error', message: 'Tu plan no incluye la sincronización con el SAT.' });
    expect(reloads).toBe(0);
  });
});
