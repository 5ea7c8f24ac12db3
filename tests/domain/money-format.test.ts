// formatTwoDecimals writes es-MX amounts without Intl (money.ts says why): its digits must be Intl's.
import { describe, expect, it } from 'vitest';
import { formatTwoDecimals, formatUpToTwoDecimals } from '../../src/domain/money';

const intl = new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const intlUpTo2 = new Intl.NumberFormat('es-MX', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** A small deterministic generator (mulberry32), so a failure names the same values on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('formatTwoDecimals and formatUpToTwoDecimals', () => {
  it('writes what Intl es-MX writes at the edges', () => {
    const edges = [
      0, -0, 0.004, 0.005, -0.004, 0.994, 0.995, 1.005, 1.015, 2.675, 80.945, 999.995, 1000, 1234.5, -1234.5,
      1234567.895, 0.1 + 0.2, 1e15 + 0.3, 123456789012.345, 1e20, 9.999e20, 1e21, 1e-7, 5e-7, 0.0000015,
      Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER,
    ];
    for (const n of edges) {
      expect(formatTwoDecimals(n), String(n)).toBe(intl.format(n));
      expect(formatUpToTwoDecimals(n), String(n)).toBe(intlUpTo2.format(n));
    }
    expect(formatUpToTwoDecimals(12.3)).toBe('12.3');
    expect(formatUpToTwoDecimals(100)).toBe('100');
    expect(formatUpToTwoDecimals(1000.5)).toBe('1,000.5');
    expect(formatTwoDecimals(1234567.895)).toBe('1,234,567.90');
    expect(formatTwoDecimals(80.945)).toBe('80.95');
  });

  it('writes what Intl es-MX writes for 50,000 amounts of every size', () => {
    const random = seeded(20261128);
    const wrong: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      // Amounts with three decimals (where rounding shows) and arbitrary doubles, from cents to trillions.
      const magnitude = 10 ** ((i % 14) - 2);
      const n = i % 2 === 0 ? Math.round(random() * magnitude * 1000) / 1000 : random() * magnitude;
      const signed = i % 5 === 0 ? -n : n;
      if (formatTwoDecimals(signed) !== intl.format(signed)) wrong.push(`${signed}: ${formatTwoDecimals(signed)} ≠ ${intl.format(signed)}`);
      if (formatUpToTwoDecimals(signed) !== intlUpTo2.format(signed)) wrong.push(`${signed}: ${formatUpToTwoDecimals(signed)} ≠ ${intlUpTo2.format(signed)} (up to two)`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
