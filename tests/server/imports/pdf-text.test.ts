// The PDF text scan is linear in its input: a content stream of nothing but '(' (once quadratic: 100 KB
// froze the server for 8.7 s) or other unclosed strings is read in one pass, and what a real invoice's
// content stream shows is still found.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfFacts, stringsOf, type ScanCounter } from '../../../src/server/imports/pdf-text';

const MB2 = 2 * 1024 * 1024;

/** A PDF whose one content stream is `content`. */
function pdfWith(content: string, flate = false): Uint8Array {
  const body = flate ? deflateSync(Buffer.from(content, 'latin1')) : Buffer.from(content, 'latin1');
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Length ${body.length}${flate ? ' /Filter /FlateDecode' : ''} >>\nstream\n`, 'latin1'),
    body,
    Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
}

describe('PDF text scan', () => {
  it.each(['(', '(\\', '<0', 'stream\n'])('reads 2 MB of %j in one pass over each character', (unit) => {
    const content = unit.repeat(Math.ceil(MB2 / unit.length));
    const counter: ScanCounter = { steps: 0 };
    const facts = pdfFacts(pdfWith(content), counter);
    expect(facts).toEqual({ uuids: [], rfcs: [], total: null });
    // Each character of the stream is visited a bounded number of times (the old scan: once per '(').
    expect(counter.steps).toBeGreaterThanOrEqual(content.length);
    expect(counter.steps).toBeLessThanOrEqual(3 * content.length);
  });

  it('keeps what an unclosed string holds to a cap, and goes on reading after a hex string that is not one', () => {
    const counter: ScanCounter = { steps: 0 };
    const input = `<zz (Total) Tj ${'('.repeat(MB2)}`;
    const text = stringsOf(input, counter);
    expect(text.startsWith('Total\n')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(64 * 1024 + 16);
    expect(counter.steps).toBeGreaterThanOrEqual(input.length - 2);
    expect(counter.steps).toBeLessThanOrEqual(input.length);
  });

  it('still finds the UUID, the RFCs and the total in literal, escaped and hex strings, compressed or not', () => {
    const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');
    const content = [
      'BT /F1 9 Tf',
      '(Folio fiscal: 6F3E2A1B-0C4D-4E5F-8A9B-1C2D3E4F5A6B) Tj',
      `<${hex('RFC emisor: EKU9003173C9')}> Tj`,
      '[(RFC receptor: ) -20 (URE180429TM6)] TJ',
      '(Total \\(MXN\\): $1,234.56) Tj ET',
    ].join('\n');
    for (const flate of [false, true]) {
      const facts = pdfFacts(pdfWith(content, flate));
      expect(facts.uuids).toEqual(['6F3E2A1B-0C4D-4E5F-8A9B-1C2D3E4F5A6B']);
      expect(facts.rfcs.sort()).toEqual(['EKU9003173C9', 'URE180429TM6']);
      expect(facts.total).toBe('1234.56');
    }
  });
});
