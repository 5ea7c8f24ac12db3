import { describe, expect, it } from 'vitest';
import { balance, donutSlices, percentChange, topItems, DONUT_PALETTE } from '../../src/domain/analytics';

const g = (label: string, value: number) => ({ label, value });

describe('donut: top 5 plus Otros (spec §9)', () => {
  it('keeps at most 5 groups and sums the rest into one Otros slice', () => {
    const slices = donutSlices([g('A', 10), g('B', 50), g('C', 30), g('D', 5), g('E', 20), g('F', 1.25), g('G', 2.5)]);
    expect(slices).toEqual([g('B', 50), g('C', 30), g('E', 20), g('A', 10), g('D', 5), g('Otros', 3.75)]);
  });
  it('has no Otros slice with 5 or fewer groups, and drops empty groups', () => {
    expect(donutSlices([g('A', 1), g('B', 0)])).toEqual([g('A', 1)]);
    expect(donutSlices([])).toEqual([]);
  });
  it('has seven distinct colours', () => {
    expect(new Set(DONUT_PALETTE).size).toBe(7);
  });
});

describe('percent change (spec §9)', () => {
  it('rounds to 2 decimals with its direction', () => {
    expect(percentChange(150, 100)).toEqual({ change: 50, trend: 'up' });
    expect(percentChange(66.67, 100)).toEqual({ change: 33.33, trend: 'down' });
    expect(percentChange(100, 300)).toEqual({ change: 66.67, trend: 'down' });
    expect(percentChange(100, 100)).toEqual({ change: 0, trend: 'flat' });
  });
  it('is 100% up when there was no previous value', () => {
    expect(percentChange(42, undefined)).toEqual({ change: 100, trend: 'up' });
    expect(percentChange(42, 0)).toEqual({ change: 100, trend: 'up' });
  });
});

describe('top lists', () => {
  it('gives the top 5 with share of total and change against the previous period', () => {
    const items = topItems([g('Gasolina', 300), g('Renta', 600), g('Salud', 100)], [g('Gasolina', 200)]);
    expect(items.map((i) => [i.label, i.share, i.change, i.trend])).toEqual([
      ['Renta', 60, 100, 'up'],
      ['Gasolina', 30, 50, 'up'],
      ['Salud', 10, 100, 'up'],
    ]);
    expect(topItems([g('a', 1), g('b', 2), g('c', 3), g('d', 4), g('e', 5), g('f', 6)], [])).toHaveLength(5);
  });
});

describe('balance (spec §9)', () => {
  it('counts types 3 and 4 as income and type 2 as expenses', () => {
    expect(balance([
      { ticket_type_id: 2, amount: '100.10' },
      { ticket_type_id: 2, amount: 50 },
      { ticket_type_id: 3, amount: '1000' },
      { ticket_type_id: 4, amount: '200.20' },
    ])).toEqual({ income: 1200.2, expenses: 150.1, balance: 1050.1 });
  });
});
