// The HTTP side of the offline engine: a bare `fetch` (page, service worker or a test's app.request),
// the token header and the {response}/{errors} envelope. No ky here: the worker bundle stays small.
import { isErrorEnvelope } from '../domain/http';
import { MSG } from '../domain/messages';

export type FetchLike = (request: Request) => Promise<Response>;

export interface ApiDeps {
  fetch: FetchLike;
  /** The session token, or null when signed out. */
  getToken: () => string | null | Promise<string | null>;
  /** Origin of the API; defaults to the page's or worker's own origin. */
  baseUrl?: string;
}

export interface Answer {
  status: number;
  /** Parsed JSON body, or null (204, empty or not JSON). */
  body: unknown;
  /** The server's first Spanish message, when it sent an error envelope. */
  error: string | null;
  /** Retry-After in seconds, when given as a number. */
  retryAfter: number | undefined;
}

export function defaultBaseUrl(): string {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : 'http://localhost';
}

export function apiUrl(path: string, baseUrl: string = defaultBaseUrl()): string {
  return new URL(path, baseUrl).toString();
}

/** Reads an answer fully; never throws on a malformed body. */
export async function readAnswer(res: Response): Promise<Answer> {
  let body: unknown = null;
  if (res.status !== 204) {
    const text = await res.text().catch(() => '');
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
  }
  let error: string | null = null;
  if (isErrorEnvelope(body)) {
    error = body.errors.find((e) => typeof e === 'string' && e.trim().length > 0) ?? null;
  }
  const ra = Number(res.headers.get('retry-after'));
  return { status: res.status, body, error, retryAfter: Number.isFinite(ra) && ra > 0 ? ra : undefined };
}

/** Thrown by the read calls (pull, reference lists); `status` 0 means the request never arrived. */
export class FetchError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'FetchError';
    this.status = status;
  }

  get offline(): boolean {
    return this.status === 0;
  }
}

/** GET a JSON `response` value with the session token. */
export async function getJson<T>(api: ApiDeps, path: string): Promise<T> {
  const token = await api.getToken();
  if (!token) throw new FetchError(MSG.unauthorized, 401);
  let res: Response;
  try {
    res = await api.fetch(new Request(apiUrl(path, api.baseUrl), { headers: { 'X-Access-Token': token } }));
  } catch {
    throw new FetchError(MSG.generic, 0);
  }
  const answer = await readAnswer(res);
  if (answer.status === 401) throw new FetchError(MSG.unauthorized, 401);
  if (answer.status < 200 || answer.status >= 300 || answer.error !== null) {
    throw new FetchError(answer.status >= 500 || !answer.error ? MSG.generic : answer.error, answer.status);
  }
  const body = answer.body;
  return (body && typeof body === 'object' && 'response' in body ? (body as { response: T }).response : body) as T;
}
