// The files.upload outbox operation ('Importar CFDIs', DESIGN §4): one transaction writes the batch's
// bytes and the operation; the drain sends it as multipart with its Idempotency-Key, keeps it on a
// network error, and removes it and every blob on a 2xx (announcing the server's ids) or a discard.
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import type { AppDb } from '../../../src/offline/db';
import { drainOutbox, type DrainDeps } from '../../../src/offline/drain';
import { discardOp } from '../../../src/offline/outbox-control';
import { listOutbox } from '../../../src/offline/outbox';
import { queueUpload, uploadLabel } from '../../../src/offline/operations/files-upload';
import { onUploadAck, uploadedFiles, type UploadAck } from '../../../src/offline/upload-signal';
import { RFC, freshDb, json } from '../outbox-fixtures';

let db: AppDb;
afterEach(async () => {
  await db.delete();
});

const T0 = 1_800_000_000_000;
const enc = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;
const XML_A = enc('<?xml version="1.0"?><cfdi:Comprobante Version="4.0"/>');
const XML_B = enc('\ufeff<cfdi:Comprobante Version="3.3"/>');
const PDF = enc('%PDF-1.4\n1 0 obj');

function deps(fetch: DrainDeps['fetch'], over: Partial<DrainDeps> = {}): DrainDeps {
  return { db, fetch, getToken: () => 'tok-1', now: () => T0, random: () => 0.5, baseUrl: 'http://api.test', ...over };
}

interface Seen {
  url: string;
  headers: Headers;
  rfc: FormDataEntryValue | null;
  files: File[];
}

function recordingFetch(reply: (seen: Seen) => Response | 'network') {
  const seen: Seen[] = [];
  const fetch = async (req: Request): Promise<Response> => {
    const form = await req.formData();
    const s = { url: req.url, headers: req.headers, rfc: form.get('rfc'), files: form.getAll('file') as File[] };
    seen.push(s);
    const out = reply(s);
    if (out === 'network') throw new TypeError('Failed to fetch');
    return out;
  };
  return { fetch, seen };
}

const accepted = (s: Seen) =>
  json(200, { response: { files: s.files.map((f, i) => ({ id: `u${i + 1}`, name: f.name, status: 'recibido' })) } });

describe('queueUpload', () => {
  it('writes the bytes as ArrayBuffers and one operation, listed in "Pendientes de envío"', async () => {
    db = freshDb();
    const q = await queueUpload(db, { userId: 7, rfc: RFC }, [
      { bytes: XML_A, name: 'a.xml', type: 'text/xml' },
      { bytes: PDF, name: 'a.pdf', type: 'application/pdf' },
    ]);
    const ops = await listOutbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ opId: q.opId, kind: 'files.upload', rfc: RFC, status: 'pending', label: 'Importación de 2 archivos', blobIds: q.blobIds });
    const blobs = await db.blobs.bulkGet(q.blobIds);
    expect(blobs.map((b) => [b?.name, b?.size, b?.bytes instanceof ArrayBuffer])).toEqual([['a.xml', XML_A.byteLength, true], ['a.pdf', PDF.byteLength, true]]);
    expect(uploadLabel(['factura.xml'])).toBe('Importación de factura.xml');
  });

  it('refuses what the checks refuse, writing nothing', async () => {
    db = freshDb();
    await expect(queueUpload(db, { userId: 7, rfc: RFC }, [{ bytes: enc('hola'), name: 'a.xml', type: 'text/xml' }])).rejects.toThrow(MSG.importFileType);
    const many = Array.from({ length: 101 }, (_, i) => ({ bytes: XML_A, name: `f${i}.xml`, type: 'text/xml' }));
    await expect(queueUpload(db, { userId: 7, rfc: RFC }, many)).rejects.toThrow(MSG.importTooMany);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.blobs.count()).toBe(0);
  });
});

describe('draining a files.upload', () => {
  it('sends one multipart request (parts `file`, field `rfc`, Idempotency-Key), then drops the op and its blobs and announces the ids', async () => {
    db = freshDb();
    const q = await queueUpload(db, { userId: 7, rfc: RFC }, [
      { bytes: XML_A, name: 'a.xml', type: 'text/xml' },
      { bytes: XML_B, name: 'b.xml', type: 'text/xml' },
    ]);
    const acks: UploadAck[] = [];
    const stop = onUploadAck((a) => acks.push(a));
    try {
      const api = recordingFetch(accepted);
      const r = await drainOutbox(deps(api.fetch));
      expect(r).toMatchObject({ sent: 1, remaining: 0 });
      expect(api.seen).toHaveLength(1);
      const s = api.seen[0]!;
      expect(new URL(s.url).pathname).toBe('/api/v3/users/7/files');
      expect(s.headers.get('idempotency-key')).toBe(q.opId);
      expect(s.headers.get('x-access-token')).toBe('tok-1');
      expect(s.rfc).toBe(RFC);
      expect(s.files.map((f) => f.name)).toEqual(['a.xml', 'b.xml']);
      expect(new Uint8Array(await s.files[1]!.arrayBuffer())).toEqual(new Uint8Array(XML_B));
      expect(await db.blobs.count()).toBe(0);
      await expect.poll(() => acks).toEqual([{ opId: q.opId, files: [{ id: 'u1', name: 'a.xml', status: 'recibido' }, { id: 'u2', name: 'b.xml', status: 'recibido' }] }]);
    } finally {
      stop();
    }
  });

  it('offline: keeps the batch and its bytes for later, with the same Idempotency-Key on the retry', async () => {
    db = freshDb();
    const q = await queueUpload(db, { userId: 7, rfc: RFC }, [{ bytes: PDF, name: 'a.pdf', type: 'application/pdf' }]);
    const down = recordingFetch(() => 'network');
    const r = await drainOutbox(deps(down.fetch));
    expect(r).toMatchObject({ sent: 0, retried: 1, offline: true, remaining: 1 });
    expect(await db.blobs.count()).toBe(1);
    const up = recordingFetch(accepted);
    const later = await drainOutbox(deps(up.fetch, { now: () => T0 + 10 * 60_000 }));
    expect(later).toMatchObject({ sent: 1, remaining: 0 });
    expect(up.seen[0]!.headers.get('idempotency-key')).toBe(q.opId);
    expect(await db.blobs.count()).toBe(0);
  });

  it("a refusal of the whole request is parked with the server's message; discarding it removes every blob", async () => {
    db = freshDb();
    const q = await queueUpload(db, { userId: 7, rfc: RFC }, [
      { bytes: XML_A, name: 'a.xml', type: 'text/xml' },
      { bytes: PDF, name: 'a.pdf', type: 'application/pdf' },
    ]);
    const api = recordingFetch(() => json(422, { errors: [MSG.importTooMany] }));
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ parked: 1, remaining: 1 });
    expect((await listOutbox(db))[0]).toMatchObject({ status: 'failed', lastStatus: 422, lastError: MSG.importTooMany });
    expect(await discardOp(db, q.opId, T0)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.blobs.count()).toBe(0);
  });

  it("bytes lost to the browser: parked with 'Ha ocurrido un error', nothing sent", async () => {
    db = freshDb();
    const q = await queueUpload(db, { userId: 7, rfc: RFC }, [{ bytes: XML_A, name: 'a.xml', type: 'text/xml' }]);
    await db.blobs.delete(q.blobIds[0]!);
    const api = recordingFetch(accepted);
    expect(await drainOutbox(deps(api.fetch))).toMatchObject({ parked: 1 });
    expect(api.seen).toHaveLength(0);
    expect((await listOutbox(db))[0]).toMatchObject({ status: 'failed', lastError: 'Ha ocurrido un error' });
  });
});

describe('uploadedFiles', () => {
  it("reads the answer's files and ignores anything malformed", () => {
    expect(uploadedFiles({ response: { files: [{ id: 5, name: 'a.zip', status: 'rechazado', reason: 'x' }, { name: 'sin id' }] } }))
      .toEqual([{ id: '5', name: 'a.zip', status: 'rechazado', reason: 'x' }]);
    expect(uploadedFiles(null)).toEqual([]);
    expect(uploadedFiles({ errors: ['no'] })).toEqual([]);
  });
});
