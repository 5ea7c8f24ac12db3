// The PDF pool renders on worker threads exactly what the in-process renderer makes and answers many
// requests at once.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfPool, renderPdfInline } from '../../../src/server/cfdi/pdf-pool';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));
const xml = new Uint8Array(readFileSync(`${FIXTURES}/cfdi40-ingreso-real-pase-stamped.xml`));

describe('PDF pool (worker threads)', () => {
  const pool = new PdfPool(2);
  afterAll(() => pool.close());

  it('renders on its workers the same bytes as in-process rendering', async () => {
    const [inline, pooled] = await Promise.all([renderPdfInline(xml), pool.render(xml)]);
    expect(Buffer.from(pooled.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(pooled).equals(Buffer.from(inline))).toBe(true);
    expect(pool.counts).toEqual({ workers: 1, inline: 0 });
  }, 60_000);

  it('queues more requests than workers and answers each one', async () => {
    const pdfs = await Promise.all(Array.from({ length: 9 }, () => pool.render(xml)));
    expect(pdfs).toHaveLength(9);
    for (const p of pdfs) expect(Buffer.from(p.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(pool.counts).toEqual({ workers: 10, inline: 0 });
  }, 60_000);

  it('refuses what is not a CFDI, with the reason', async () => {
    await expect(pool.render(new TextEncoder().encode('<nada/>'))).rejects.toThrow(/CFDI ilegible/);
  }, 60_000);

  it('PDF_WORKERS=0 (size 0) renders in-process', async () => {
    const none = new PdfPool(0);
    const pdf = await none.render(xml);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(none.counts).toEqual({ workers: 0, inline: 1 });
  }, 60_000);
});
