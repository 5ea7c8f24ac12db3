// A multipart/form-data body read as it arrives (RFC 7578), for uploads that must not be held whole in
// memory: each part's head is parsed, then its bytes are handed over in pieces, so the caller keeps
// only what it wants (a file of at most 2 MB, a short text field). One pass, no regular expressions:
// the boundary is found with Buffer.indexOf, and only a boundary's length of bytes is ever carried over.
import { randomUUID, type Hash } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PartHead {
  /** The form field's name. */
  name: string;
  /** The file name, for a file part; null for a plain field. */
  filename: string | null;
  type: string;
}

export interface PartHandler {
  /** A part begins. */
  part(head: PartHead): void | Promise<void>;
  /** Some of the current part's bytes: a view, valid only during the call (copy what you keep). */
  data(chunk: Uint8Array): void | Promise<void>;
  /** The current part is complete. */
  end(): void | Promise<void>;
}

export interface MultipartLimits {
  /** The whole body, in bytes. */
  maxBytes: number;
  /** Parts of any kind. */
  maxParts: number;
  /** One part's head. */
  maxHeadBytes?: number;
}

export class MultipartError extends Error {
  constructor(readonly kind: 'too-large' | 'too-many-parts' | 'malformed') {
    super(`multipart: ${kind}`);
  }
}

/** The boundary of a multipart/form-data Content-Type, or null. */
export function boundaryOf(contentType: string): string | null {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters.
    return value.length >= 1 && value.length <= 70 ? value : null;
  }
  return null;
}

/** One header's parameters (`form-data; name="file"; filename="a.xml"`), read left to right. */
function params(value: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = value.indexOf(';');
  while (i >= 0 && i < value.length) {
    i++;
    while (value[i] === ' ' || value[i] === '\t') i++;
    const eq = value.indexOf('=', i);
    if (eq < 0) break;
    const key = value.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    let v = '';
    if (value[j] === '"') {
      j++;
      while (j < value.length && value[j] !== '"') {
        if (value[j] === '\\' && j + 1 < value.length) j++;
        v += value[j];
        j++;
      }
      j++;
    } else {
      while (j < value.length && value[j] !== ';') v += value[j++];
      v = v.trim();
    }
    if (!out.has(key)) out.set(key, v);
    i = value.indexOf(';', j);
  }
  return out;
}

function parseHead(text: string): PartHead | null {
  let disposition: string | null = null;
  let type = '';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') type = value;
  }
  if (!disposition || !disposition.toLowerCase().startsWith('form-data')) return null;
  const p = params(disposition);
  const name = p.get('name');
  if (name === undefined) return null;
  // Browsers send UTF-8 file names as raw bytes, read here as latin1: decode them back.
  const filename = p.has('filename') ? Buffer.from(p.get('filename')!, 'latin1').toString('utf8') : null;
  return { name: Buffer.from(name, 'latin1').toString('utf8'), filename, type };
}

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Reads `body` as multipart/form-data with `boundary`, calling `handler` as parts arrive (awaiting each
 * call: a slow consumer slows the reading). Throws MultipartError past a limit or on a malformed body,
 * after cancelling the stream.
 */
export async function readMultipart(body: ReadableStream<Uint8Array>, boundary: string, handler: PartHandler, limits: MultipartLimits): Promise<void> {
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const maxHead = limits.maxHeadBytes ?? 16 * 1024;
  const reader = body.getReader();
  let state: 'preamble' | 'head' | 'body' | 'after' | 'done' = 'preamble';
  let buf: Buffer = Buffer.alloc(0);
  let total = 0;
  let parts = 0;
  const fail = (kind: MultipartError['kind']): never => {
    throw new MultipartError(kind);
  };
  try {
    await consume();
  } catch (err) {
    // Whatever stopped the reading (a limit, a malformed body, the handler): the rest is not wanted.
    await reader.cancel().catch(() => undefined);
    throw err;
  }

  async function consume(): Promise<void> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxBytes) fail('too-large');
      if (state === 'done') continue; // the epilogue is read (for the limit) and ignored
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      // Consume as much of buf as the state machine can.
      for (;;) {
        if (state === 'preamble') {
          const at = buf.indexOf(first);
          if (at < 0) {
            if (buf.length > maxHead) fail('malformed');
            break;
          }
          buf = buf.subarray(at + first.length);
          state = 'after';
        } else if (state === 'after') {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) {
            state = 'done';
            buf = Buffer.alloc(0);
            break;
          }
          // Transport padding (spaces) may sit before the line break.
          let i = 0;
          while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
          if (i + 2 > buf.length) break;
          if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) fail('malformed');
          buf = buf.subarray(i + 2);
          state = 'head';
        } else if (state === 'head') {
          const at = buf.indexOf(CRLF2);
          if (at < 0) {
            if (buf.length > maxHead) fail('malformed');
            break;
          }
          if (at > maxHead) fail('malformed');
          const head = parseHead(buf.subarray(0, at).toString('latin1'));
          if (!head) fail('malformed');
          if (++parts > limits.maxParts) fail('too-many-parts');
          buf = buf.subarray(at + 4);
          state = 'body';
          await handler.part(head!);
        } else if (state === 'body') {
          const at = buf.indexOf(delimiter);
          if (at < 0) {
            // All but what could be the start of a delimiter.
            const safe = buf.length - (delimiter.length - 1);
            if (safe > 0) {
              await handler.data(buf.subarray(0, safe));
              buf = Buffer.from(buf.subarray(safe)); // a copy: the chunk it viewed can go
            }
            break;
          }
          if (at > 0) await handler.data(buf.subarray(0, at));
          await handler.end();
          buf = buf.subarray(at + delimiter.length);
          state = 'after';
        } else break;
      }
    }
    if (state !== 'done') throw new MultipartError('malformed');
  }
}

/** A request body kept in a temporary file, to be read again as a stream; dispose() removes it. */
export interface SpooledBody {
  stream(): ReadableStream<Uint8Array>;
  dispose(): Promise<void>;
}

/**
 * Writes `body` to a temporary file while fingerprinting its parts into `hash` (names, file names and
 * bytes: not the raw text, whose boundary a retry draws anew), so a big upload is never held in memory.
 * A part is hashed as `<name length>:<name>|<s|f><file name length>:<file name>|<byte length>:<bytes>`,
 * holding at most `partCap` bytes of it; a bigger one as `…|big:<bytes>|<byte length>`. Throws
 * MultipartError('too-large') past `limit`.
 */
export async function spoolMultipart(body: ReadableStream<Uint8Array>, contentType: string, limit: number, partCap: number, hash: Hash): Promise<SpooledBody> {
  const path = join(tmpdir(), `cc-body-${randomUUID()}.tmp`);
  const file = await open(path, 'wx', 0o600);
  let closed = false;
  /** Readers of the spooled file still open (a route that stops reading early leaves one). */
  const readers = new Set<FileHandle>();
  const dispose = async () => {
    if (!closed) {
      closed = true;
      await file.close().catch(() => undefined);
    }
    for (const r of readers) await r.close().catch(() => undefined);
    readers.clear();
    await rm(path, { force: true });
  };
  try {
    let size = 0;
    const tee = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, out) {
          size += chunk.byteLength;
          if (size > limit) throw new MultipartError('too-large');
          for (let at = 0; at < chunk.byteLength; ) at += (await file.write(chunk, at, chunk.byteLength - at)).bytesWritten;
          out.enqueue(chunk);
        },
      }),
    );
    const boundary = boundaryOf(contentType);
    let label = '';
    /** The current part's bytes while it is at most partCap; null once it is hashed as it comes. */
    let held: Uint8Array[] | null = [];
    let length = 0;
    try {
      if (!boundary) throw new MultipartError('malformed');
      await readMultipart(
        tee,
        boundary,
        {
          part(head) {
            const named = head.filename ?? '';
            label = `${head.name.length}:${head.name}|${head.filename !== null ? 'f' : 's'}${named.length}:${named}|`;
            held = [];
            length = 0;
          },
          data(chunk) {
            length += chunk.byteLength;
            if (held && length <= partCap) {
              held.push(new Uint8Array(chunk));
              return;
            }
            if (held) {
              hash.update(`${label}big:`);
              for (const h of held) hash.update(h);
              held = null;
            }
            hash.update(chunk);
          },
          end() {
            if (held) {
              // Lengths first, so that no two different forms concatenate to the same stream.
              hash.update(`${label}${length}:`);
              for (const h of held) hash.update(h);
            } else hash.update(`|${length}`);
            held = [];
          },
        },
        { maxBytes: limit, maxParts: 10_000 },
      );
    } catch (err) {
      if (!(err instanceof MultipartError) || err.kind === 'too-large') throw err;
      // Not multipart as it says (the route answers 400 from what was kept): the same fingerprint for any
      // such body, so that a retry is answered with that same 400.
      hash.update('multipart ilegible');
    }
    await file.close();
    closed = true;
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    stream: () => {
      let handle: FileHandle | null = null;
      const done = async () => {
        if (!handle) return;
        readers.delete(handle);
        await handle.close().catch(() => undefined);
        handle = null;
      };
      // highWaterMark 0: the file is opened on the first read, not when the stream is made.
      return new ReadableStream<Uint8Array>(
        {
          async pull(out) {
            if (!handle) {
              handle = await open(path, 'r');
              readers.add(handle);
            }
            const chunk = new Uint8Array(64 * 1024);
            const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
            if (bytesRead === 0) {
              await done();
              out.close();
            } else out.enqueue(chunk.subarray(0, bytesRead));
          },
          cancel: done,
        },
        { highWaterMark: 0 },
      );
    },
    dispose,
  };
}
