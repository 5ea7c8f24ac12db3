// A request's files stored as one pack (upload-pack.ts): read back byte for byte by id; a damaged pack
// is refused whole rather than read out of bounds.
import { describe, expect, it } from 'vitest';
import { isPackKey, pack, packKeyOf, unpack } from '../../../src/server/imports/upload-pack';

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
});
