// HTTP client for the contract of DESIGN §3: same origin, token header, {response}/{errors} envelope.
import ky, { type Options } from 'ky';
import { isErrorEnvelope } from '../../domain/http';
import { MSG } from '../../domain/messages';
import { getSession } from '../../offline/session';
import { TXT } from '../strings';
import { ApiError } from './api-error';

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** main.tsx wires this to "clear the session, toast, go to login" (kept out of here to avoid a cycle with the router). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

const http = ky.create({
  prefixUrl: '',
  timeout: 30_000,
  retry: { limit: 1, methods: ['get'], statusCodes: [408, 502, 503, 504] },
  throwHttpErrors: false,
  hooks: {
    beforeRequest: [
      (request) => {
        const s = getSession();
        if (s && !request.headers.has('X-Access-Token')) request.headers.set('X-Access-Token', s.token);
      },
    ],
  },
});

/** Turns a response into its `response` value or a Spanish ApiError (exported for tests). */
export function unwrap<T>(status: number, body: unknown, signedIn: boolean): T {
  if (status === 401 && signedIn) {
    onUnauthorized();
    throw new ApiError(MSG.unauthorized, 401);
  }
  if (isErrorEnvelope(body)) {
    const first = body.errors.find((e) => typeof e === 'string' && e.trim().length > 0);
    throw new ApiError(status >= 500 || !first ? MSG.generic : first, status);
  }
  if (status < 200 || status >= 300) throw new ApiError(MSG.generic, status);
  if (body && typeof body === 'object' && 'response' in body) return (body as { response: T }).response;
  return body as T;
}

async function send(method: 'get' | 'post' | 'put' | 'delete', path: string, options: Options): Promise<Response> {
  try {
    return await http(path, { ...options, method });
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') throw err;
    throw new ApiError(TXT.offline, 0, true);
  }
}

async function request<T>(method: 'get' | 'post' | 'put' | 'delete', path: string, options: Options): Promise<T> {
  const signedIn = getSession() !== null;
  const res = await send(method, path, options);
  let body: unknown = null;
  if (res.status !== 204) {
    const text = await res.text().catch(() => '');
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
  }
  return unwrap<T>(res.status, body, signedIn);
}

export const api = {
  get: <T>(path: string, searchParams?: Record<string, string | number>, signal?: AbortSignal) =>
    request<T>('get', path, { ...(searchParams ? { searchParams } : {}), ...(signal ? { signal } : {}) }),
  post: <T>(path: string, json?: unknown) => request<T>('post', path, json === undefined ? {} : { json }),
  put: <T>(path: string, json: unknown) => request<T>('put', path, { json }),
  delete: <T>(path: string) => request<T>('delete', path, {}),
  /** multipart/form-data (files): the browser sets the boundary. */
  putForm: <T>(path: string, body: FormData) => request<T>('put', path, { body }),
  /** A file (zip, PDF…): its bytes on 2xx, else the envelope's Spanish error. No time-out: big archives take a while. */
  blob: async (path: string, searchParams: URLSearchParams): Promise<Blob> => {
    const res = await send('get', path, { searchParams, timeout: false, retry: 0 });
    if (res.ok) return res.blob();
    const text = await res.text().catch(() => '');
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not an envelope: unwrap gives the generic message
    }
    return unwrap<never>(res.status, body, getSession() !== null);
  },
};
