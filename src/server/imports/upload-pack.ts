// One stored blob per upload request: the accepted files of a request travel to the
// files store as ONE pack — one write when accepted, one read by the job, one delete when done — instead
// of a write, a read and a delete per file (with 100 files a request, the files store's operations were
// most of the upload's time). Every upload row of the request names the pack as its file key; the job
// finds its bytes in the pack by the row's id. Packs are made by the server only; reading one still
// checks every length, so a damaged pack is refused as a whole (null), never read out of bounds.
// An upload writes its pack as the request arrives (PackWriter gathers small files into writes of about
// 1 MB, so at most that and the arriving file are held); the job reads a small pack in one go and a big one
// an entry at a time where the store can read ranges (openPack).
import { openWriter, type FileStore, type FileWriter } from '../files/file-store';

const MAGIC = new TextEncoder().encode('CCPACK1\n');
const ID_BYTES = 36;

export interface PackEntry {
  id: string;
  bytes: Uint8Array;
}

/** A file key names a pack (its rows' bytes are inside it) when it ends in `.pack`. */
export const isPackKey = (key: string) => key.endsWith('.pack');

export function packKeyOf(userId: number, packId: string): string {
  return `uploads/${userId}/${packId}.pack`;
}

/**
 * MAGIC, entry count (u32 LE), then per entry: id (36 ASCII bytes), length (u32 LE), bytes. A pack
 * written as it arrives does not know its count up front: STREAMED there means "entries to the end".
 */
const STREAMED = 0xffffffff;

function checkId(id: string): void {
  if (id.length !== ID_BYTES || !/^[0-9a-f-]+$/i.test(id)) throw new Error(`id de subida no válido: ${id}`);
}

function entryHead(id: string, length: number): Uint8Array {
  const head = new Uint8Array(ID_BYTES + 4);
  for (let i = 0; i < ID_BYTES; i++) head[i] = id.charCodeAt(i);
  new DataView(head.buffer).setUint32(ID_BYTES, length, true);
  return head;
}

export function pack(entries: readonly PackEntry[]): Uint8Array<ArrayBuffer> {
  let size = MAGIC.length + 4;
  for (const e of entries) {
    checkId(e.id);
    size += ID_BYTES + 4 + e.bytes.byteLength;
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  let at = MAGIC.length;
  view.setUint32(at, entries.length, true);
  at += 4;
  for (const e of entries) {
    for (let i = 0; i < ID_BYTES; i++) out[at + i] = e.id.charCodeAt(i);
    at += ID_BYTES;
    view.setUint32(at, e.bytes.byteLength, true);
    at += 4;
    out.set(e.bytes, at);
    at += e.bytes.byteLength;
  }
  return out;
}

/** id → bytes (views into `data`); null when `data` is not a whole pack. */
export function unpack(data: Uint8Array): Map<string, Uint8Array> | null {
  if (data.byteLength < MAGIC.length + 4 || MAGIC.some((b, i) => data[i] !== b)) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = MAGIC.length;
  const count = view.getUint32(at, true);
  at += 4;
  const out = new Map<string, Uint8Array>();
  for (let n = 0; count === STREAMED ? at < data.byteLength : n < count; n++) {
    if (at + ID_BYTES + 4 > data.byteLength) return null;
    const id = String.fromCharCode(...data.subarray(at, at + ID_BYTES)).toLowerCase();
    at += ID_BYTES;
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > data.byteLength) return null;
    out.set(id, data.subarray(at, at + length));
    at += length;
  }
  return at === data.byteLength ? out : null;
}

/** Small files are gathered up to this many bytes before they are written (one write for a whole request of CFDI). */
const PACK_WRITE_BYTES = 1024 * 1024;

/** A pack written into the files store as the files of a request arrive. */
export class PackWriter {
  private entries = 0;
  /** Entries (heads and bytes) not written yet: at most PACK_WRITE_BYTES plus one file. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private constructor(private readonly out: FileWriter) {}

  static async open(store: FileStore, key: string): Promise<PackWriter> {
    const out = await openWriter(store, key);
    const writer = new PackWriter(out);
    const head = new Uint8Array(MAGIC.length + 4);
    head.set(MAGIC, 0);
    new DataView(head.buffer).setUint32(MAGIC.length, STREAMED, true);
    writer.hold(head);
    return writer;
  }

  get count(): number {
    return this.entries;
  }

  async add(id: string, bytes: Uint8Array): Promise<void> {
    checkId(id);
    this.hold(entryHead(id, bytes.byteLength));
    this.hold(new Uint8Array(bytes)); // a copy: the caller's buffer is its own to reuse
    this.entries++;
    if (this.pendingBytes >= PACK_WRITE_BYTES) await this.flush();
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.out.commit();
  }

  abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    return this.out.abort();
  }

  private hold(piece: Uint8Array): void {
    this.pending.push(piece);
    this.pendingBytes += piece.byteLength;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const all = new Uint8Array(this.pendingBytes);
    let at = 0;
    for (const p of this.pending) {
      all.set(p, at);
      at += p.byteLength;
    }
    this.pending = [];
    this.pendingBytes = 0;
    await this.out.write(all);
  }
}

export interface PackReader {
  /** An entry's bytes; null when the pack has no such entry or it is cut short. */
  get(id: string): Promise<Uint8Array | null>;
}

/** A pack up to this size is read in one go (most requests: 100 CFDI of a few KB each). */
export const WHOLE_PACK_BYTES = 4 * 1024 * 1024;

const inMemory = (map: Map<string, Uint8Array> | null): PackReader | null => (map ? { get: async (id) => map.get(id.toLowerCase()) ?? null } : null);

/**
 * A stored pack: read whole when it is small (one read instead of two per entry), else entry by entry
 * where the store reads ranges (only the entry heads are read up front, so a request of 100 files of
 * 2 MB is never all in memory), else whole. null when there is no such pack or its heads do not hold up.
 */
export async function openPack(store: FileStore, key: string): Promise<PackReader | null> {
  const getRange = store.getRange?.bind(store);
  if (!getRange) {
    const data = await store.get(key);
    return inMemory(data ? unpack(data) : null);
  }
  const first = await getRange(key, 0, WHOLE_PACK_BYTES);
  if (!first) return null;
  if (first.byteLength < WHOLE_PACK_BYTES) return inMemory(unpack(first)); // that was all of it
  const head = first.subarray(0, MAGIC.length + 4);
  if (!head || head.byteLength < MAGIC.length + 4 || MAGIC.some((b, i) => head[i] !== b)) return null;
  const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(MAGIC.length, true);
  const where = new Map<string, { at: number; length: number }>();
  let at = MAGIC.length + 4;
  for (let n = 0; count === STREAMED || n < count; n++) {
    const e = await getRange(key, at, ID_BYTES + 4);
    if (!e) return null;
    if (e.byteLength === 0 && count === STREAMED) break;
    if (e.byteLength < ID_BYTES + 4) return null;
    const id = String.fromCharCode(...e.subarray(0, ID_BYTES)).toLowerCase();
    const length = new DataView(e.buffer, e.byteOffset, e.byteLength).getUint32(ID_BYTES, true);
    at += ID_BYTES + 4;
    where.set(id, { at, length });
    at += length;
  }
  return {
    async get(id) {
      const w = where.get(id.toLowerCase());
      if (!w) return null;
      const bytes = await getRange(key, w.at, w.length);
      return bytes && bytes.byteLength === w.length ? bytes : null;
    },
  };
}
