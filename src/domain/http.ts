// The HTTP envelope of DESIGN §3, shared by the API and its clients.
export type Envelope<T> = { response: T } | { errors: string[] };

export function isErrorEnvelope(body: unknown): body is { errors: string[] } {
  return !!body && typeof body === 'object' && Array.isArray((body as { errors?: unknown }).errors);
}

export interface Session {
  token: string;
  user_id: number;
  email: string;
  username: string;
}

export const APP_VERSION = '1.21.1';
