// The success envelope of DESIGN §3: {"response": …}.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function ok<T>(c: Context, response: T, status: ContentfulStatusCode = 200): Response {
  return c.json({ response }, status);
}

/** The same envelope around a response already serialised (a body kept as JSON text): byte for byte what ok() writes. */
export function okJsonText(c: Context, responseJson: string): Response {
  return c.body(`{"response":${responseJson}}`, 200, { 'Content-Type': 'application/json' });
}
