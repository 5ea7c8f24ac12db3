// A live query's answer keeps its identity while its content is unchanged (no render for a sync that
// rewrote the same rows), and changes as soon as one value does.
import { describe, expect, it } from 'vitest';
import { keepIfEqual } from '../../../src/app/ui/use-stable-live-query';

describe('keepIfEqual', () => {
  it('keeps the previous answer when the new one has the same content', () => {
    const first = keepIfEqual(null, [{ rfc: 'XIQB891116QE4', name: 'Demo' }]);
    const again = keepIfEqual(first, [{ rfc: 'XIQB891116QE4', name: 'Demo' }]);
    expect(again.value).toBe(first.value);
  });

  it('takes the new answer when any value differs', () => {
    const first = keepIfEqual(null, [{ rfc: 'XIQB891116QE4', name: 'Demo' }]);
    const changed = keepIfEqual(first, [{ rfc: 'XIQB891116QE4', name: 'Demo 2' }]);
    expect(changed.value).not.toBe(first.value);
    expect(changed.value).toEqual([{ rfc: 'XIQB891116QE4', name: 'Demo 2' }]);
  });
});
