// A request's files stored as one pack (upload-pack.ts): read back byte for byte by id; a damaged pack
// is refused whole rather than read out of bounds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFileStore } from '../../../src/server/files/file-store';
import { isPackKey, openPack, pack, packKeyOf, PackWriter, unpack, WHOLE_PACK_BYTES } from '../../../src/server/imports/upload-pack';

const id = (n: number) => `0192f0e8-7c1a-7000-8000-${String(n).padStart(12, '0')}`;
const bytes = (s: string) => new TextEncoder().encode(s);

describe('upload pack', () => {
  it('gives every file back by its upload id, empty files too', () => {
    const entries = [
      { id: id(1), bytes: bytes('<cfdi:Comprobante/>') },
      { id: id(2), bytes: new Uint8Array(0) },
      { id: id(3), bytes: Uint8Array.from([0x50, 0x4b, 3, 4, 0, 255]) },
    ];
    const back = unpack(pack(entries))!;
    expect([...back.keys()]).toEqual(entries.map((e) => e.id));
    for (const e of entries) expect(back.get(e.id)).toEqual(e.bytes);
  });

  it('refuses a truncated, extended or foreign blob', () => {
    const data = pack([{ id: id(1), bytes: bytes('hola') }, { id: id(2), bytes: bytes('mundo') }]);
    expect(unpack(data.subarray(0, data.byteLength - 1))).toBeNull();
    expect(unpack(Uint8Array.from([...data, 0]))).toBeNull();
    expect(unpack(bytes('<?xml version="1.0"?><x/>'))).toBeNull();
    expect(unpack(new Uint8Array(0))).toBeNull();
  });

  it('names packs with keys of their own', () => {
    expect(packKeyOf(7, id(9))).toBe(`uploads/7/${id(9)}.pack`);
    expect(isPackKey(packKeyOf(7, id(9)))).toBe(true);
    expect(isPackKey(`uploads/7/${id(9)}.xml`)).toBe(false);
    expect(() => pack([{ id: '../x', bytes: new Uint8Array(1) }])).toThrow();
  });

  describe('written as a request arrives and read back by the job (disk store)', () => {
    const dirs: string[] = [];
    afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
    const write = async (files: { id: string; bytes: Uint8Array }[]) => {
      const dir = await mkdtemp(join(tmpdir(), 'cc-pack-'));
      dirs.push(dir);
      const store = diskFileStore(dir);
      const key = packKeyOf(1, id(99));
      const w = await PackWriter.open(store, key);
      for (const f of files) await w.add(f.id, f.bytes);
      await w.commit();
      return { store, key };
    };

    it('a small pack (read in one go) and a large one (read by ranges) give back every file, and nothing else', async () => {
      const small = [1, 2, 3].map((n) => ({ id: id(n), bytes: bytes(`<x n="${n}"/>`.repeat(n)) }));
      // Three files of 1.5 MB: past the whole-pack size, so the reader takes ranges.
      const large = [4, 5, 6].map((n) => ({ id: id(n), bytes: new Uint8Array(1.5 * 1024 * 1024).fill(n) }));
      expect(large.reduce((sum, f) => sum + f.bytes.byteLength, 0)).toBeGreaterThan(WHOLE_PACK_BYTES);
      for (const files of [small, large, [...small, ...large]]) {
        const { store, key } = await write(files);
        const reader = (await openPack(store, key))!;
        for (const f of files) {
          const got = await reader.get(f.id.toUpperCase());
          // Compared as buffers: vitest's toEqual walks megabytes element by element.
          expect(got && Buffer.from(got).equals(Buffer.from(f.bytes))).toBe(true);
        }
        expect(await reader.get(id(42))).toBeNull();
      }
    });

    it('a pack cut short is refused whole (small) or loses only what was cut (large); no pack at all is null', async () => {
      const { store, key } = await write([{ id: id(1), bytes: bytes('hola') }, { id: id(2), bytes: bytes('mundo') }]);
      const data = (await store.get(key))!;
      await store.put(key, data.subarray(0, data.byteLength - 2));
      expect(await openPack(store, key)).toBeNull();
      expect(await openPack(store, packKeyOf(1, id(77)))).toBeNull();

      const big = await write([{ id: id(1), bytes: new Uint8Array(WHOLE_PACK_BYTES) }, { id: id(2), bytes: bytes('mundo') }]);
      const all = (await big.store.get(big.key))!;
      await big.store.put(big.key, all.subarray(0, all.byteLength - 2));
      const reader = (await openPack(big.store, big.key))!;
      expect((await reader.get(id(1)))?.byteLength).toBe(WHOLE_PACK_BYTES);
      expect(await reader.get(id(2))).toBeNull();
    });
  });
});
