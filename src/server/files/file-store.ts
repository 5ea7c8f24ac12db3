// Where uploaded files live (DESIGN §2): DATA_DIR/files on disk in the embedded setup, an object store
// later behind the same port; keys are always made by the server, never taken from a user's file name.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface FileStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Optional, for a key nothing reads yet (no row names it until a later commit): written in place,
   * without put's temporary file and rename — cheaper when thousands are written (the import's XMLs).
   * Fails if the key exists. Use through putNew() below, which falls back to put.
   */
  putFresh?(key: string, bytes: Uint8Array): Promise<void>;
  /** null when there is no such file. */
  get(key: string): Promise<Uint8Array<ArrayBuffer> | null>;
  /** Deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Optional: a file written piece by piece (an upload as it arrives), seen by readers only once
   * committed. Use through openWriter() below, which falls back to collecting the pieces for put.
   */
  openWrite?(key: string): Promise<FileWriter>;
  /** Optional: up to `length` bytes from `offset` (fewer past the end); null when there is no such file. */
  getRange?(key: string, offset: number, length: number): Promise<Uint8Array | null>;
}

export interface FileWriter {
  write(bytes: Uint8Array): Promise<void>;
  /** The file is complete: readers see it from now on. */
  commit(): Promise<void>;
  /** Nothing of it is kept. */
  abort(): Promise<void>;
}

/** Lowercase path segments of [a-z0-9_-], optionally with one extension: nothing that can climb out. */
const KEY_RE = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*(\.[a-z0-9]{1,8})?$/;

export function checkKey(key: string): string {
  if (!KEY_RE.test(key) || key.length > 200) throw new Error(`clave de archivo no válida: ${key}`);
  return key;
}

export function diskFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const p = join(base, checkKey(key));
    if (!p.startsWith(base + sep)) throw new Error(`clave de archivo no válida: ${key}`);
    return p;
  };
  // Directories already made by this process: an import writes thousands of files into a few of them,
  // and a mkdir per file was a good part of its file-system work. (Directories are never removed.)
  const made = new Set<string>();
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      const dir = dirname(path);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      // Write then rename, so a reader never sees half a file.
      const tmp = `${path}.${randomUUID()}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async putFresh(key, bytes) {
      const path = pathOf(key);
      const dir = dirname(path);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      await writeFile(path, bytes, { flag: 'wx' });
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async openWrite(key) {
      const path = pathOf(key);
      const dir = dirname(path);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      const tmp = `${path}.${randomUUID()}.tmp`;
      const handle = await open(tmp, 'wx');
      let closed = false;
      const close = async () => {
        if (!closed) {
          closed = true;
          await handle.close();
        }
      };
      return {
        async write(bytes) {
          for (let at = 0; at < bytes.byteLength; ) {
            const { bytesWritten } = await handle.write(bytes, at, bytes.byteLength - at);
            at += bytesWritten;
          }
        },
        async commit() {
          await close();
          await rename(tmp, path);
        },
        async abort() {
          await close().catch(() => undefined);
          await rm(tmp, { force: true });
        },
      };
    },
    async getRange(key, offset, length) {
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const out = new Uint8Array(length);
        let got = 0;
        while (got < length) {
          const { bytesRead } = await handle.read(out, got, length - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return got === length ? out : out.subarray(0, got);
      } finally {
        await handle.close();
      }
    },
  };
}

/** A writer for `key`: the store's own when it streams, else pieces collected and put at commit. */
export async function openWriter(store: FileStore, key: string): Promise<FileWriter> {
  if (store.openWrite) return store.openWrite(key);
  let pieces: Uint8Array[] = [];
  return {
    async write(bytes) {
      pieces.push(new Uint8Array(bytes));
    },
    async commit() {
      const size = pieces.reduce((n, p) => n + p.byteLength, 0);
      const all = new Uint8Array(size);
      let at = 0;
      for (const p of pieces) {
        all.set(p, at);
        at += p.byteLength;
      }
      pieces = [];
      await store.put(key, all);
    },
    async abort() {
      pieces = [];
    },
  };
}

/** Writes a key nothing reads yet: the store's putFresh when it has one, else put. */
export function putNew(store: FileStore, key: string, bytes: Uint8Array): Promise<void> {
  return store.putFresh ? store.putFresh(key, bytes) : store.put(key, bytes);
}

/** For tests and for apps built without a data directory. */
export function memoryFileStore(): FileStore & { readonly size: number } {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    async put(key, bytes) {
      files.set(checkKey(key), new Uint8Array(bytes));
    },
    async get(key) {
      return files.get(checkKey(key)) ?? null;
    },
    async delete(key) {
      files.delete(checkKey(key));
    },
    async getRange(key, offset, length) {
      const data = files.get(checkKey(key));
      return data ? data.subarray(offset, offset + length) : null;
    },
    get size() {
      return files.size;
    },
  };
}
