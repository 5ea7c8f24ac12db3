// Reads a mutating request's JSON body once, with a size cap (413) and a Spanish 400 for malformed JSON
// or for text holding control characters (domain/text-input.ts).
import type { MiddlewareHandler } from 'hono';
import { MSG } from '../../domain/messages';
import { controlCharsAt, controlCharsMessage } from '../../domain/text-input';
import type { AppEnv } from '../context';
import { fail } from './errors';

export const JSON_BODY_LIMIT = 1024 * 1024;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isMutating = (method: string) => MUTATING.has(method);

/** Reads a body up to `limit` bytes; null as soon as it passes it, whatever Content-Length claimed. */
export async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) {
    out.set(ch, at);
    at += ch.byteLength;
  }
  return out;
}

export function jsonBody(limit = JSON_BODY_LIMIT): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('body', {});
    c.set('rawBody', '');
    const type = c.req.header('content-type') ?? '';
    // Multipart uploads read their own bodies with their own limits (tickets/images.ts).
    if (!isMutating(c.req.method) || type.startsWith('multipart/')) return next();
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > limit) throw fail(413, MSG.bodyTooLarge);
    const stream = c.req.raw.body;
    if (stream) {
      const bytes = await readLimited(stream, limit);
      if (!bytes) throw fail(413, MSG.bodyTooLarge);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      c.set('rawBody', text);
      if (text.trim()) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw fail(400, MSG.badJson);
        }
        // Raw control characters are already invalid JSON; only escapes (\u0000, \b…) can bring them.
        const at = text.includes('\\') ? controlCharsAt(body) : null;
        if (at !== null) throw fail(400, controlCharsMessage(at));
        c.set('body', body);
      }
    }
    return next();
  };
}
