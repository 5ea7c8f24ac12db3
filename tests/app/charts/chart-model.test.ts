import { describe, expect, it } from 'vitest';
import {
  amountTicks, amountY, compactMoney, donutRows, lastMonthOf, lineBox, monthRows, monthText, monthTick, monthX, nearestMonth, SERIES,
} from '../../../src/app/charts/chart-model';
import { DONUT_PALETTE } from '../../../src/domain/analytics';

describe('amount axis', () => {
  it('rounds the top up to 4 equal steps of 1, 2, 2.5 or 5 × 10ⁿ', () => {
    expect(amountTicks(12_345)).toEqual([0, 5000, 10000, 15000, 20000]);
    expect(amountTicks(900)).toEqual([0, 250, 500, 750, 1000]);
    expect(amountTicks(4000)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(amountTicks(0)).toEqual([0]);
  });
  it('labels money compactly', () => {
    expect(compactMoney(0)).toBe('$0');
    expect(compactMoney(12_500)).toBe('$12.5\u00a0k'); // Intl's compact form keeps the unit with a no-break space
    expect(compactMoney(1_250_000)).toBe('$1.3\u00a0M');
  });
});

describe('line chart geometry (the HTML layer over the SVG)', () => {
  const box = lineBox(360);
  it('spreads the 12 months over the plot and finds the month under a pointer', () => {
    expect(monthX(box, 1)).toBe(box.padding.left);
    expect(monthX(box, 12)).toBe(box.width - box.padding.right);
    for (let m = 1; m <= 12; m++) expect(nearestMonth(box, monthX(box, m) + 3)).toBe(m);
    expect(nearestMonth(box, -50)).toBe(1);
    expect(nearestMonth(box, 5000)).toBe(12);
  });
  it('puts 0 on the axis and the top on the plot top', () => {
    expect(amountY(box, 0, 1000)).toBe(box.height - box.padding.bottom);
    expect(amountY(box, 1000, 1000)).toBe(box.padding.top);
  });
  it('is smaller on phones than on desktop', () => {
    expect(lineBox(360).height).toBeLessThan(lineBox(1000).height);
  });
});

describe('popover and table words', () => {
  it('say amount, series, month and year', () => {
    const rows = monthRows({ spending: [0, 0, 1234.5, 0, 0, 0, 0, 0, 0, 0, 0, 0], income: [0, 0, 20000, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(rows[2]).toMatchObject({ month: 3, name: 'Marzo', spending: 1234.5, income: 20000 });
    expect(monthText(rows[2]!, 2026)).toBe('Marzo de 2026. Gastos: $1,234.50; Ingresos: $20,000.00');
  });
  it('tell the series apart without colour', () => {
    expect(SERIES.spending.marker).not.toBe(SERIES.income.marker);
    expect(SERIES.spending.dash).not.toBe(SERIES.income.dash);
  });
});

describe('donut rows', () => {
  it('give each slice a palette colour and its share, Otros in grey', () => {
    const rows = donutRows([
      { label: 'Renta', value: 600 },
      { label: 'Gasolina', value: 300 },
      { label: 'Otros', value: 100 },
    ]);
    expect(rows.map((r) => [r.label, r.share, r.color])).toEqual([
      ['Renta', 60, DONUT_PALETTE[0]],
      ['Gasolina', 30, DONUT_PALETTE[1]],
      ['Otros', 10, DONUT_PALETTE[6]],
    ]);
  });
});

describe('what the line chart draws', () => {
  it('stops the current year at the current month', () => {
    const now = { year: 2026, month: 11 };
    expect(lastMonthOf(2025, now)).toBe(12);
    expect(lastMonthOf(2026, now)).toBe(11);
    expect(lastMonthOf(2027, now)).toBe(0);
  });
  it('names every other month on a phone', () => {
    expect(Array.from({ length: 12 }, (_, i) => monthTick(lineBox(360), i + 1)).filter(Boolean)).toEqual(['ene', 'mar', 'may', 'jul', 'sep', 'nov']);
    expect(monthTick(lineBox(800), 2)).toBe('feb');
  });
});
