// What the parse pool posts to its workers: a file's own bytes, never the whole buffer a view points into
// (a file read out of a request's pack is a view of the pack, and posting a view clones all of it).
import { describe, expect, it } from 'vitest';
import { ownBuffer } from '../../../src/server/imports/parse-pool';

describe('parse pool: the bytes it posts', () => {
  it('copies a view into a buffer of its own size, and passes a whole buffer as it is', () => {
    const pack = new Uint8Array(4 * 1024 * 1024).fill(7);
    pack.set([1, 2, 3], 1000);
    const file = pack.subarray(1000, 1003);
    const posted = ownBuffer(file);
    expect(posted.buffer.byteLength).toBe(3);
    expect([...posted]).toEqual([1, 2, 3]);
    const whole = Uint8Array.from([9, 9]);
    expect(ownBuffer(whole)).toBe(whole);
  });
});
