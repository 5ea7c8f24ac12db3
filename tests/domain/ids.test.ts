import { describe, expect, it } from 'vitest';
import { isUuidV7, newId, newIdAt } from '../../src/domain/ids';

/** The 48-bit millisecond timestamp at the front of a UUIDv7. */
const msOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('ids', () => {
  it('newId makes distinct UUIDv7s, each sorting after the one before', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect(ids.every(isUuidV7)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('newIdAt stamps the given instant, so ids sort by when things happened', () => {
    const earlier = Date.UTC(2024, 0, 15, 12);
    const later = Date.UTC(2025, 5, 1, 8, 30);
    const a = newIdAt(later);
    const b = newIdAt(earlier);
    expect(isUuidV7(a) && isUuidV7(b)).toBe(true);
    expect(msOf(a)).toBe(later);
    expect(msOf(b)).toBe(earlier);
    expect(b < a).toBe(true);
  });

  it('newIdAt with the same random bytes gives the same id (reproducible demo data), otherwise different ones', () => {
    const at = Date.UTC(2025, 2, 3, 10);
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    expect(newIdAt(at, bytes)).toBe(newIdAt(at, Uint8Array.from(bytes)));
    expect(newIdAt(at, bytes)).not.toBe(newIdAt(at, Uint8Array.from(bytes, (b) => b ^ 0xff)));
    expect(newIdAt(at)).not.toBe(newIdAt(at));
  });
});
