// The one HTTP client (ky) of the page, the outbox drain and the service worker (DESIGN §1, §3):
// same origin, the token header, the {response}/{errors} envelope, a deadline on every request,
// and one error type carrying the status and the server's Spanish message.
import ky, { type Options } from 'ky';
import { isErrorEnvelope } from '../domain/http';
import { MSG } from '../domain/messages';

export type FetchLike = (request: Request) => Promise<Response>;

/** What every caller sees from the API: a Spanish message ready to show, plus the status. */
export class ApiError extends Error {
  /** 0 when the request never reached the server (offline, DNS, deadline passed). */
  readonly status: number;
  readonly offline: boolean;
  /** The server's whole error envelope, for the rare caller that reads more than its message (a card's decline code). */
  readonly body: unknown;

  constructor(message: string, status: number, offline = false, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.offline = offline;
    this.body = body;
  }
}

/** A whole answer, read without throwing: what the drain engine classifies. */
export interface Answer {
  status: number;
  /** Parsed JSON body, or null (204, empty or not JSON). */
  body: unknown;
  /** The server's first Spanish message, when it sent an error envelope. */
  error: string | null;
  /** Retry-After in seconds, when given as a number. */
  retryAfter: number | undefined;
}

export interface HttpOptions {
  /** The session token, or null when signed out. */
  getToken: () => string | null | Promise<string | null>;
  /** Defaults to the global fetch, looked up at each call (tests stub it). */
  fetch?: FetchLike;
  /** Origin of the API; defaults to the page's or worker's own origin. */
  baseUrl?: string;
  /** Called on a 401 to a request that carried a token (the session ended). */
  onUnauthorized?: () => void;
  /** The message of the error thrown when the request never got an answer. */
  offlineMessage?: string;
}

type Method = 'get' | 'post' | 'put' | 'delete';

/** Deadline of an ordinary call; bigger bodies get more (see `deadlineFor`). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A slow phone line still moves ~50 kB/s: a body's deadline grows with its size at that rate. */
export function deadlineFor(bodyBytes: number): number {
  return REQUEST_TIMEOUT_MS + Math.ceil(bodyBytes / 50);
}

export function defaultBaseUrl(): string {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : 'http://localhost';
}

export function apiUrl(path: string, baseUrl: string = defaultBaseUrl()): string {
  return new URL(path, baseUrl).toString();
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text().catch(() => '');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Reads an answer fully; never throws on a malformed body. */
export async function readAnswer(res: Response): Promise<Answer> {
  const body = await readBody(res);
  let error: string | null = null;
  if (isErrorEnvelope(body)) error = body.errors.find((e) => typeof e === 'string' && e.trim().length > 0) ?? null;
  const ra = Number(res.headers.get('retry-after'));
  return { status: res.status, body, error, retryAfter: Number.isFinite(ra) && ra > 0 ? ra : undefined };
}

/**
 * A response as its `response` value, or an ApiError with the server's Spanish message (the generic
 * one for a 5xx or a body without one). `onUnauthorized` runs for a 401 to a signed-in request.
 */
export function unwrap<T>(status: number, body: unknown, signedIn: boolean, onUnauthorized?: () => void): T {
  if (status === 401 && signedIn) {
    onUnauthorized?.();
    throw new ApiError(MSG.unauthorized, 401);
  }
  if (isErrorEnvelope(body)) {
    const first = body.errors.find((e) => typeof e === 'string' && e.trim().length > 0);
    throw new ApiError(status >= 500 || !first ? MSG.generic : first, status, false, body);
  }
  if (status < 200 || status >= 300) throw new ApiError(MSG.generic, status);
  if (body && typeof body === 'object' && 'response' in body) return (body as { response: T }).response;
  return body as T;
}

export interface Http {
  get<T>(path: string, searchParams?: Record<string, string | number> | URLSearchParams, signal?: AbortSignal): Promise<T>;
  /** `timeoutMs` when the call may wait longer than an ordinary one (a charge waits on the bank). */
  post<T>(path: string, json?: unknown, timeoutMs?: number): Promise<T>;
  put<T>(path: string, json: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /** multipart/form-data (files): the runtime sets the boundary. */
  putForm<T>(path: string, body: FormData): Promise<T>;
  /** A file (zip, PDF…): its bytes on 2xx, else the envelope's Spanish error. No deadline: big archives take a while. */
  blob(path: string, searchParams: URLSearchParams): Promise<Blob>;
  /** Sends a prepared request and reads the whole answer (any status); throws only when no answer came. */
  answer(request: Request, timeoutMs: number): Promise<Answer>;
  /** The response itself, any status, for bodies read as they come (event streams, XML): throws only when no answer came. */
  raw(path: string, init: RawInit): Promise<Response>;
}

export interface RawInit {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  cache?: RequestCache;
  /** false for a stream that stays open. */
  timeout?: number | false;
  /** Public pages send no session token. */
  anonymous?: boolean;
}

export function createHttp(options: HttpOptions): Http {
  const base = () => options.baseUrl ?? defaultBaseUrl();
  const fetchFn = (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && (!init || Object.keys(init).length === 0) ? input : new Request(input, init);
    return options.fetch ? options.fetch(request) : globalThis.fetch(request);
  };
  const client = ky.create({
    fetch: fetchFn,
    timeout: REQUEST_TIMEOUT_MS,
    retry: { limit: 1, methods: ['get'], statusCodes: [408, 502, 503, 504] },
    throwHttpErrors: false,
  });

  /** ky with the token; a network failure or a passed deadline becomes an offline ApiError. */
  const send = async (input: Request | string, kyOptions: Options, anonymous = false): Promise<{ res: Response; signedIn: boolean }> => {
    const token = anonymous ? null : await options.getToken();
    const headers = new Headers(kyOptions.headers as HeadersInit | undefined);
    if (token && !(input instanceof Request && input.headers.has('X-Access-Token'))) headers.set('X-Access-Token', token);
    try {
      const res = await client(typeof input === 'string' ? apiUrl(input, base()) : input, { ...kyOptions, headers });
      return { res, signedIn: !!token };
    } catch (err) {
      if (err instanceof Error && err.name === 'AbortError') throw err;
      throw new ApiError(options.offlineMessage ?? MSG.generic, 0, true);
    }
  };

  const call = async <T>(method: Method, path: string, kyOptions: Options): Promise<T> => {
    const { res, signedIn } = await send(path, { ...kyOptions, method });
    return unwrap<T>(res.status, await readBody(res), signedIn, options.onUnauthorized);
  };

  return {
    get: (path, searchParams, signal) => call('get', path, { ...(searchParams ? { searchParams } : {}), ...(signal ? { signal } : {}) }),
    post: (path, json, timeoutMs) => call('post', path, { ...(json === undefined ? {} : { json }), ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) }),
    put: (path, json) => call('put', path, { json }),
    delete: (path) => call('delete', path, {}),
    putForm: (path, body) => call('put', path, { body }),
    blob: async (path, searchParams) => {
      const { res, signedIn } = await send(path, { method: 'get', searchParams, timeout: false, retry: 0 });
      if (res.ok) return res.blob();
      return unwrap<never>(res.status, await readBody(res), signedIn, options.onUnauthorized);
    },
    answer: async (request, timeoutMs) => {
      const { res } = await send(request, { timeout: timeoutMs, retry: 0 });
      return readAnswer(res);
    },
    raw: async (path, { anonymous, timeout, ...init }) =>
      (await send(path, { method: 'get', retry: 0, ...(timeout === undefined ? {} : { timeout }), ...init }, anonymous)).res,
  };
}
