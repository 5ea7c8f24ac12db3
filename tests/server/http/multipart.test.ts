// Multipart bodies read as they arrive (http/multipart.ts): the same parts whatever the chunking, the
// limits enforced while reading, and a spooled body that reads back byte for byte.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, readMultipart, spoolMultipart, type PartHead } from '../../../src/server/http/multipart';

async function encode(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

function streamOf(bytes: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

async function partsOf(stream: ReadableStream<Uint8Array>, type: string, limits = { maxBytes: 1e9, maxParts: 100 }) {
  const out: { head: PartHead; data: Buffer }[] = [];
  let chunks: Buffer[] = [];
  let head: PartHead | null = null;
  await readMultipart(stream, boundaryOf(type)!, {
    part: (h) => {
      head = h;
      chunks = [];
    },
    data: (c) => void chunks.push(Buffer.from(c)),
    end: () => void out.push({ head: head!, data: Buffer.concat(chunks) }),
  }, limits);
  return out;
}

describe('multipart reading', () => {
  const file = new Uint8Array(30_000).map((_, i) => (i * 7) % 256);
  const form = new FormData();
  form.append('file', new Blob([file]), 'factura ñ.pdf');
  form.append('file', new Blob([new Uint8Array(0)]), 'vacío.xml');
  form.append('rfc', 'URE180429TM6');

  it.each([1, 7, 70, 4096, 1 << 20])('finds the same parts in chunks of %i bytes', async (chunk) => {
    const { bytes, type } = await encode(form);
    const parts = await partsOf(streamOf(bytes, chunk), type);
    expect(parts.map((p) => [p.head.name, p.head.filename, p.data.length])).toEqual([
      ['file', 'factura ñ.pdf', file.length],
      ['file', 'vacío.xml', 0],
      ['rfc', null, 12],
    ]);
    expect(parts[0]!.data.equals(Buffer.from(file))).toBe(true);
    expect(parts[2]!.data.toString()).toBe('URE180429TM6');
  });

  it('stops at the byte limit, at the part limit, and on a body that is not multipart', async () => {
    const { bytes, type } = await encode(form);
    await expect(partsOf(streamOf(bytes, 4096), type, { maxBytes: 10_000, maxParts: 100 })).rejects.toEqual(new MultipartError('too-large'));
    await expect(partsOf(streamOf(bytes, 4096), type, { maxBytes: 1e9, maxParts: 2 })).rejects.toEqual(new MultipartError('too-many-parts'));
    await expect(partsOf(streamOf(bytes.subarray(0, bytes.length - 10), 4096), type)).rejects.toEqual(new MultipartError('malformed'));
    await expect(partsOf(streamOf(new Uint8Array(100_000).fill(0x28), 4096), type)).rejects.toEqual(new MultipartError('malformed'));
  });

  it('spools a body to disk and reads it back whole, fingerprinting its parts the same for any boundary', async () => {
    const a = await encode(form);
    const b = await encode(form);
    expect(a.type).not.toBe(b.type);
    const hashes: string[] = [];
    for (const { bytes, type } of [a, b]) {
      const hash = createHash('sha256');
      const spooled = await spoolMultipart(streamOf(bytes, 5000), type, 1e9, 2 * 1024 * 1024 + 1, hash);
      hashes.push(hash.digest('hex'));
      const back = new Uint8Array(await new Response(spooled.stream()).arrayBuffer());
      expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
      await spooled.dispose();
    }
    expect(hashes[0]).toBe(hashes[1]);
    // The same fingerprint as when the whole form was parsed in memory (keys stored before still match).
    const before = createHash('sha256');
    for (const [name, value] of form) {
      const part = typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
      const label = typeof value === 'string' ? '' : value.name;
      before.update(`${name.length}:${name}|${typeof value === 'string' ? 's' : 'f'}${label.length}:${label}|${part.byteLength}:`);
      before.update(part);
    }
    expect(hashes[0]).toBe(before.digest('hex'));
  });
});
