import { describe, expect, it } from 'vitest';
import { changeAgainst, percentText, spendingSummary, TREND } from '../../../src/app/tickets/spending-summary-model';

describe('spendingSummary', () => {
  it('is null when the month has no spending', () => {
    expect(spendingSummary({ current: { venues: [], categories: [] }, past: { venues: [{ label: 'OXXO', value: 10 }], categories: [] } })).toBeNull();
  });

  it('makes the top 5 with share and change against the previous month', () => {
    const summary = spendingSummary({
      current: {
        categories: [
          { label: 'Alimentos', value: 300 },
          { label: 'Educación', value: 100 },
          { label: 'Transporte', value: 50 },
          { label: 'Salud', value: 25 },
          { label: 'Ropa', value: 15 },
          { label: 'Hogar', value: 10 },
        ],
        venues: [{ label: 'OXXO', value: 80 }],
      },
      past: { categories: [{ label: 'Alimentos', value: 200 }, { label: 'Educación', value: 100 }, { label: 'Transporte', value: 75 }], venues: [] },
    });
    expect(summary?.categories.map((c) => [c.label, c.share, c.change, c.trend])).toEqual([
      ['Alimentos', 60, 50, 'up'],
      ['Educación', 20, 0, 'flat'],
      ['Transporte', 10, 33.33, 'down'],
      ['Salud', 5, 100, 'up'],
      ['Ropa', 3, 100, 'up'],
    ]);
    expect(summary?.venues).toEqual([{ label: 'OXXO', value: 80, share: 100, change: 100, trend: 'up' }]);
  });

  it('has words for each trend and es-MX percentages', () => {
    expect([TREND.up.words, TREND.down.words, TREND.flat.words]).toEqual(['sube', 'baja', 'sin cambio']);
    expect(percentText(33.33)).toBe('33.33 %');
    expect(percentText(1234.5)).toBe('1,234.5 %');
  });

  it('gives the donut (top 5 plus Otros) and whether the change can be told', () => {
    const current = {
      categories: ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((label, i) => ({ label, value: 70 - i * 10 })),
      venues: [{ label: 'OXXO', value: 280 }],
    };
    const summary = spendingSummary({ current, past: { categories: [], venues: [] } });
    expect(summary?.donut).toEqual([
      { label: 'A', value: 70 }, { label: 'B', value: 60 }, { label: 'C', value: 50 }, { label: 'D', value: 40 }, { label: 'E', value: 30 },
      { label: 'Otros', value: 30 },
    ]);
    expect(summary?.hasPast).toBe(true);
    // The device never saw the previous period: no change to show.
    expect(spendingSummary({ current, past: null })?.hasPast).toBe(false);
  });
});

describe('what a change is measured against', () => {
  it('says "respecto al" (never "a el") for the month and for the year', () => {
    expect(changeAgainst('month')).toBe('respecto al mes anterior');
    expect(changeAgainst('year')).toBe('respecto al año anterior');
  });
});
