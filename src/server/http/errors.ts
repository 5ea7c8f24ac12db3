// API failures as values: handlers throw ApiError and the app's error handler writes the envelope.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { validate } from '../../domain/validation';

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly messages: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages[0] ?? MSG.generic);
  }
}

export const fail = (status: ContentfulStatusCode, message: string, headers?: Record<string, string>) =>
  new ApiError(status, [message], headers);

export function errorResponse(c: Context, status: ContentfulStatusCode, messages: string[]): Response {
  return c.json({ errors: messages }, status);
}

/** Validates with a domain schema; the first issue's Spanish message (never valibot's English) becomes a 400. */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, status: ContentfulStatusCode = 400): v.InferOutput<S> {
  const r = validate(schema, input ?? {});
  if (r.success) return r.output;
  throw fail(status, r.message);
}
