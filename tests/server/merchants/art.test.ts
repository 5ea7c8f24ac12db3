// Our own merchant art (tests/tools/draw-merchant-art.ts): every logo, picker tile and help image the
// catalog names exists in public/, is a well-formed SVG with a title, stays small and loads nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { MERCHANTS, PICKER_TILES } from '../../../src/domain/merchants';
import { catalogFieldRows, MERCHANT_CATALOG } from '../../../src/server/merchants/catalog';

const PUBLIC = join(__dirname, '../../../public');

const paths = [
  ...MERCHANTS.map((m) => m.logo),
  ...Object.values(PICKER_TILES).map((t) => t.logo),
  ...new Set(MERCHANT_CATALOG.flatMap(catalogFieldRows).flatMap((f) => (f.helperImage ? [f.helperImage] : []))),
];

describe('merchant art', () => {
  it('covers every merchant of src/domain with a catalog entry', () => {
    expect(MERCHANT_CATALOG.map((m) => m.entry.id).sort((a, b) => a - b)).toEqual(MERCHANTS.map((m) => m.id).sort((a, b) => a - b));
  });

  it.each(paths)('%s exists, is a titled SVG under 2 KB, and references nothing outside itself', (path) => {
    const file = join(PUBLIC, path);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThan(2048);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.documentElement?.tagName).toBe('svg');
    expect(doc.getElementsByTagName('title')[0]?.textContent?.length).toBeGreaterThan(2);
    expect(text).not.toMatch(/<script|href=|url\(|<image|@import/i);
  });
});
