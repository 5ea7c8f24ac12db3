// A screen whose code did not arrive is told apart from one that broke: only the first is offered a reload.
import { describe, expect, it } from 'vitest';
import { isChunkLoadError } from '../../src/app/route-error';

describe('isChunkLoadError', () => {
  it("recognises a failed dynamic import in Chromium's, Firefox's and Safari's words", () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x.mx/assets/join-page-a1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x.mx/assets/join-page-a1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
  });

  it('leaves every other error (and things that are not errors) to the generic message', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError(new Error('x Failed to fetch dynamically imported module'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
