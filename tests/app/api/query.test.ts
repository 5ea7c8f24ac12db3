// The query layer's defaults (src/app/api/query.ts): which failures are tried again, and that a read's
// request is cancelled through TanStack's signal when nobody needs it any more.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createHttp } from '../../../src/offline/http';
import { createQueryClient, MAX_RETRIES, shouldRetry, STALE_MS } from '../../../src/app/api/query';

afterEach(() => vi.unstubAllGlobals());

describe('shouldRetry', () => {
  it('tries again a 5xx and a lost answer, at most MAX_RETRIES times', () => {
    for (const err of [new ApiError('Algo salió mal.', 500), new ApiError('Algo salió mal.', 503), new ApiError('Sin conexión', 0, true)]) {
      expect(shouldRetry(0, err)).toBe(true);
      expect(shouldRetry(MAX_RETRIES - 1, err)).toBe(true);
      expect(shouldRetry(MAX_RETRIES, err)).toBe(false);
    }
  });

  it('never tries again a 4xx, nor an error that is not the API’s', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(shouldRetry(0, new ApiError('No.', status))).toBe(false);
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
    expect(shouldRetry(0, new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('offline, leaves the lost answer for the reconnect instead of spending tries', () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(shouldRetry(0, new ApiError('Sin conexión', 0, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('Algo salió mal.', 502))).toBe(true);
  });
});

describe('createQueryClient', () => {
  it('has the defaults of a phone on a bad line', () => {
    const q = createQueryClient().getDefaultOptions().queries!;
    expect(q.retry).toBe(shouldRetry);
    expect(q.staleTime).toBe(STALE_MS);
    expect(q.networkMode).toBe('always');
    expect(q.refetchOnReconnect).toBe(true);
  });

  it('does not retry a 404 and retries a 503 through the client', async () => {
    const client = createQueryClient();
    client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retryDelay: 0 } });
    let calls = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['gone'],
        queryFn: () => {
          calls++;
          throw new ApiError('No encontrado', 404);
        },
      }),
    ).rejects.toThrow('No encontrado');
    expect(calls).toBe(1);
    calls = 0;
    const value = await client.fetchQuery({
      queryKey: ['flaky'],
      queryFn: () => {
        calls++;
        if (calls < 3) throw new ApiError('Algo salió mal.', 503);
        return 'ok';
      },
    });
    expect(value).toBe('ok');
    expect(calls).toBe(3);
  });

  it('hands its signal to api.get: cancelling the read aborts the request', async () => {
    let seen: AbortSignal | undefined;
    const http = createHttp({
      getToken: () => 'tok',
      baseUrl: 'http://api.test',
      fetch: (request) => {
        seen = request.signal;
        return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      },
    });
    const client = createQueryClient();
    const read = client.fetchQuery({ queryKey: ['slow'], queryFn: ({ signal }) => http.get('/api/v3/slow', undefined, signal) });
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen!.aborted).toBe(false);
    await client.cancelQueries({ queryKey: ['slow'] });
    await expect(read).rejects.toBeDefined();
    expect(seen!.aborted).toBe(true);
  });
});
