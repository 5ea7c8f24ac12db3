import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskFileStore, memoryFileStore, putNew, type FileStore } from '../../../src/server/files/file-store';
import { sniffImageType } from '../../../src/server/files/image-type';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cc-files-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe.each([
  ['disk', () => diskFileStore(dir)],
  ['memory', () => memoryFileStore()],
] as const)('%s file store', (_name, make: () => FileStore) => {
  it('puts, gets, replaces and deletes by key', async () => {
    const store = make();
    const key = 'ticket-images/0192f0e8-7c1a-7000-8000-000000000001/a.png';
    expect(await store.get(key)).toBeNull();
    await store.put(key, Uint8Array.from([1, 2, 3]));
    expect(await store.get(key)).toEqual(Uint8Array.from([1, 2, 3]));
    await store.put(key, Uint8Array.from([4]));
    expect(await store.get(key)).toEqual(Uint8Array.from([4]));
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('refuses keys that could climb out or come from a user file name', async () => {
    const store = make();
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'Recibo.PNG', 'a b.png', '', 'a//b', 'a/.hidden']) {
      await expect(store.put(key, new Uint8Array(1)), key).rejects.toThrow();
    }
  });
});

describe('disk file store', () => {
  it('writes under its root and leaves no temporary files', async () => {
    const store = diskFileStore(dir);
    await store.put('demo/x.png', new Uint8Array(10));
    expect(await readdir(join(dir, 'demo'))).toEqual(['x.png']);
  });

  it('writes a fresh key in place (putNew), and never over an existing file', async () => {
    const store = diskFileStore(dir);
    await putNew(store, 'fresh/a.xml', Uint8Array.from([1, 2]));
    expect(await store.get('fresh/a.xml')).toEqual(Uint8Array.from([1, 2]));
    await expect(putNew(store, 'fresh/a.xml', Uint8Array.from([3]))).rejects.toThrow();
    expect(await store.get('fresh/a.xml')).toEqual(Uint8Array.from([1, 2]));
    await expect(putNew(store, '../fuera.xml', new Uint8Array(1))).rejects.toThrow();
    expect(await readdir(join(dir, 'fresh'))).toEqual(['a.xml']);
  });
});

describe('putNew without putFresh', () => {
  it('falls back to put', async () => {
    const store = memoryFileStore();
    await putNew(store, 'fresh/b.xml', Uint8Array.from([9]));
    expect(await store.get('fresh/b.xml')).toEqual(Uint8Array.from([9]));
  });
});

describe('sniffImageType', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes, and nothing else', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(sniffImageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffImageType(enc('GIF87a...'))).toBe('image/gif');
    expect(sniffImageType(Uint8Array.from([...enc('RIFF'), 0, 0, 0, 0, ...enc('WEBP')]))).toBe('image/webp');
    expect(sniffImageType(Uint8Array.from([...enc('RIFF'), 0, 0, 0, 0, ...enc('WAVE')]))).toBeNull();
    expect(sniffImageType(enc('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(enc('%PDF-1.7'))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
    expect(sniffImageType(Uint8Array.from([0x89, 0x50]))).toBeNull();
  });
});
