// The doors where outside text comes in, checked with the one rule of domain/text-input.ts: the URL (path
// segments become route params, query strings become bracketed payloads and plain values), the header
// values the server reads as data, and multipart text fields and file names. JSON bodies are checked as
// they are parsed (body.ts). A control character is a Spanish 400 before any handler or query sees it.
import type { MiddlewareHandler } from 'hono';
import { controlCharsMessage, hasControlChars } from '../../domain/text-input';
import type { AppEnv } from '../context';
import { fail } from './errors';

/** A percent-encoded C0 control character other than %09 (tab), %0A (LF) and %0D (CR). */
const ENCODED_CONTROL = /%(?:0[0-8bcef]|1[0-9a-f])/i;

/** Headers whose values reach handlers and the database as data (tokens, keys). */
const VALUE_HEADERS = ['x-access-token', 'token', 'authorization', 'idempotency-key', 'x-merchant-key'];

/** Refuses a request whose path, query string or data headers hold a control character. */
export function refuseControlChars(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A parsed URL holds control characters only percent-encoded; one test of the whole string is
    // exact, and only a hit pays for finding the query field to name.
    const raw = c.req.url;
    if (ENCODED_CONTROL.test(raw) || hasControlChars(raw)) {
      for (const [key, value] of new URL(raw).searchParams) {
        if (hasControlChars(value) && !hasControlChars(key)) throw fail(400, controlCharsMessage(key));
      }
      throw fail(400, controlCharsMessage(null));
    }
    for (const name of VALUE_HEADERS) {
      const value = c.req.header(name);
      if (value && hasControlChars(value)) throw fail(400, controlCharsMessage(null));
    }
    return next();
  };
}

/** Refuses one multipart part whose field name, or text value / file name, holds a control character. */
export function assertCleanPart(name: string, text: string): void {
  if (hasControlChars(name)) throw fail(400, controlCharsMessage(null));
  if (hasControlChars(text)) throw fail(400, controlCharsMessage(name));
}

/** Refuses a multipart form whose field names, text values or file names hold a control character. */
export function assertCleanForm(form: FormData): void {
  for (const [name, value] of form) assertCleanPart(name, typeof value === 'string' ? value : value.name);
}
