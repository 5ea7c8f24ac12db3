// One stored blob per upload request (issue 5 benchmark): the accepted files of a request travel to the
// files store as ONE pack — one write when accepted, one read by the job, one delete when done — instead
// of a write, a read and a delete per file (with 100 files a request, the files store's operations were
// most of the upload's time). Every upload row of the request names the pack as its file key; the job
// finds its bytes in the pack by the row's id. Packs are made by the server only; reading one still
// checks every length, so a damaged pack is refused as a whole (null), never read out of bounds.
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

/** MAGIC, entry count (u32 LE), then per entry: id (36 ASCII bytes), length (u32 LE), bytes. */
export function pack(entries: readonly PackEntry[]): Uint8Array<ArrayBuffer> {
  let size = MAGIC.length + 4;
  for (const e of entries) {
    if (e.id.length !== ID_BYTES || !/^[0-9a-f-]+$/i.test(e.id)) throw new Error(`id de subida no válido: ${e.id}`);
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
  for (let n = 0; n < count; n++) {
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
