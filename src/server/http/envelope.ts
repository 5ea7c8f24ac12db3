// The success envelope of DESIGN §3: {"response": …}.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function ok<T>(c: Context, response: T, status: ContentfulStatusCode = 200): Response {
  return c.json({ response }, status);
}
