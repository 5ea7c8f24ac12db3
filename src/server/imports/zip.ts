// Reading an uploaded zip (perf-security §8/§9 S5/S6) from its central directory, by
// hand rather than with jszip: every limit (entry count, declared sizes, ratio, encryption, symlinks,
// names) is checked on the directory BEFORE a single byte is inflated, and each entry is then inflated
// with node:zlib capped at its declared size, so a header that lies cannot make us allocate more.
// Every scan here walks fixed-size records (the EOCD search at most 64 KB back): linear in the zip.
// Entry names are only ever labels and match keys: never file paths.
import { promisify } from 'node:util';
import { inflateRaw, inflateRawSync } from 'node:zlib';
import { MSG } from '../../domain/messages';

export const ZIP_LIMITS = {
  maxEntries: 5_000,
  maxEntryBytes: 2 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  /** Unpacked / packed, per entry. */
  maxRatio: 100,
} as const;

export interface ZipEntry {
  /** As written in the zip (a label, never a path). */
  name: string;
  /** The last segment of the name. */
  base: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the local header. */
  offset: number;
  /** Why this one entry is refused (the others still import), or null. */
  refused: string | null;
  directory: boolean;
}

export type ZipListing = { ok: true; entries: ZipEntry[] } | { ok: false; reason: string };

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** A name that tries to be a path outside where it was packed: '../', absolute, drive letters, NUL. */
export function unsafeEntryName(name: string): boolean {
  const n = name.replace(/\\/g, '/');
  return n.startsWith('/') || /^[a-zA-Z]:/.test(n) || n.split('/').includes('..') || n.includes('\0');
}

function findEocd(buf: Buffer): number {
  // The EOCD is in the last 22 + 65,535 (comment) bytes.
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  return -1;
}

/** The zip's directory with every limit applied; whole-archive problems refuse the archive. */
export function listZip(bytes: Uint8Array): ZipListing {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 22) return { ok: false, reason: MSG.importZipCorrupt };
  const eocd = findEocd(buf);
  if (eocd < 0) return { ok: false, reason: MSG.importZipCorrupt };
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  // 0xFFFF / 0xFFFFFFFF mean ZIP64: far beyond our limits anyway.
  if (count === 0xffff || cdOffset === 0xffffffff) return { ok: false, reason: MSG.importZipTooManyEntries };
  if (count > ZIP_LIMITS.maxEntries) return { ok: false, reason: MSG.importZipTooManyEntries };
  if (cdOffset + cdSize > eocd) return { ok: false, reason: MSG.importZipCorrupt };
  const entries: ZipEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || buf.readUInt32LE(at) !== CEN_SIG) return { ok: false, reason: MSG.importZipCorrupt };
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const madeBy = buf.readUInt16LE(at + 4) >> 8;
    const external = buf.readUInt32LE(at + 38);
    const offset = buf.readUInt32LE(at + 42);
    if (at + 46 + nameLen > eocd) return { ok: false, reason: MSG.importZipCorrupt };
    // Bit 11: UTF-8 names; otherwise CP437, of which we only trust the ASCII part for labels.
    const rawName = buf.subarray(at + 46, at + 46 + nameLen);
    const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1');
    at += 46 + nameLen + extraLen + commentLen;
    const directory = name.endsWith('/') || name.endsWith('\\');
    const base = name.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? '';
    if (size === 0xffffffff || compressedSize === 0xffffffff) return { ok: false, reason: MSG.importZipTooLarge };
    total += size;
    if (total > ZIP_LIMITS.maxTotalBytes) return { ok: false, reason: MSG.importZipTooLarge };
    let refused: string | null = null;
    if (flags & 0x1) refused = MSG.importZipEncrypted;
    else if (unsafeEntryName(name)) refused = MSG.importZipUnsafeName;
    else if (madeBy === 3 && (external >>> 16 & S_IFMT) === S_IFLNK) refused = MSG.importZipSymlink;
    else if (size > ZIP_LIMITS.maxEntryBytes) refused = MSG.importZipEntryTooLarge;
    else if (method !== 0 && method !== 8) refused = MSG.importZipCorrupt;
    else if (size > 0 && size / Math.max(1, compressedSize) > ZIP_LIMITS.maxRatio) refused = MSG.importZipRatio;
    else if (method === 0 && size !== compressedSize) refused = MSG.importZipCorrupt;
    entries.push({ name, base, method, compressedSize, size, offset, refused, directory });
  }
  // An encrypted archive is refused whole (its other entries are probably encrypted too).
  if (entries.length > 0 && entries.every((e) => e.directory || e.refused === MSG.importZipEncrypted)) {
    if (entries.some((e) => e.refused === MSG.importZipEncrypted)) return { ok: false, reason: MSG.importZipEncrypted };
  }
  return { ok: true, entries };
}

const inflateRawAsync = promisify(inflateRaw);
/**
 * Entries up to this size (declared, and enforced as the output cap) are inflated right here: a CFDI of a
 * few KB takes microseconds, less than the trip to the thread pool and back. Bigger ones go there.
 */
export const INFLATE_INLINE_BYTES = 256 * 1024;

/**
 * One entry's bytes, inflated with a hard cap at its declared size; null when it does not hold up.
 * Inflated on libuv's thread pool, not the event loop (a zip may unpack to 200 MB), unless it is small
 * (INFLATE_INLINE_BYTES).
 */
export async function readEntry(bytes: Uint8Array, e: ZipEntry): Promise<Uint8Array | null> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (e.offset + 30 > buf.length || buf.readUInt32LE(e.offset) !== LOC_SIG) return null;
  const start = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
  const end = start + e.compressedSize;
  if (end > buf.length) return null;
  const packed = buf.subarray(start, end);
  if (e.method === 0) return new Uint8Array(packed);
  try {
    const cap = { maxOutputLength: Math.max(1, e.size) };
    const out = e.size <= INFLATE_INLINE_BYTES ? inflateRawSync(packed, cap) : await inflateRawAsync(packed, cap);
    return out.length === e.size ? new Uint8Array(out.buffer, out.byteOffset, out.length) : null;
  } catch {
    return null;
  }
}
