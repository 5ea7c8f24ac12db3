import { describe, expect, it } from 'vitest';
import {
  balance, donutSlices, percentChange, seriesBalance, sharePercent, spendingBreakdown, topItems, venueLabel, yearSeries, DONUT_PALETTE,
} from '../../src/domain/analytics';

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

describe('spending breakdown from the device (offline analytics)', () => {
  const t = (type: number, amount: string, venue: string, tag?: string) => ({
    ticket_type_id: type, amount, company_short_name: venue, tags: tag ? [{ tag_id: 1, tag_name: tag }] : [],
  });
  const names = new Map([['oxxo', 'OXXO'], ['manual', 'Registro manual']]);
  const venueOf = (x: { company_short_name: string }) => names.get(x.company_short_name) ?? x.company_short_name;
  /** As the device groups: a manual entry names no venue. */
  const deviceVenue = (x: { company_short_name: string }) => venueLabel({ receipt: null, company_short_name: x.company_short_name }, venueOf(x));

  it('groups only spending (type 2) by venue and by first tag, untagged as Sin Categoría, largest first', () => {
    const out = spendingBreakdown(
      [
        t(2, '100.10', 'oxxo', 'Alimentos y bebidas'),
        t(2, '0.20', 'oxxo', 'Alimentos y bebidas'),
        t(2, '300', 'manual'),
        t(2, '50.05', 'pemex', 'Gasolina'),
        t(4, '9999', 'manual'),
        t(3, '500', 'oxxo', 'Alimentos y bebidas'),
      ],
      venueOf,
    );
    expect(out.venues).toEqual([g('Registro manual', 300), g('OXXO', 100.3), g('pemex', 50.05)]);
    expect(out.categories).toEqual([g('Sin Categoría', 300), g('Alimentos y bebidas', 100.3), g('Gasolina', 50.05)]);
  });

  it('leaves manual entries out of the venues (Principales establecimientos) but not out of the categories', () => {
    const out = spendingBreakdown([t(2, '100.10', 'oxxo', 'Alimentos y bebidas'), t(2, '300', 'manual', 'Viajes')], deviceVenue);
    expect(out.venues).toEqual([g('OXXO', 100.1)]);
    expect(out.categories).toEqual([g('Viajes', 300), g('Alimentos y bebidas', 100.1)]);
  });

  it('sums in cents, so many small amounts add up exactly', () => {
    const many = Array.from({ length: 1000 }, () => t(2, '0.10', 'oxxo', 'A'));
    expect(spendingBreakdown(many, venueOf).categories).toEqual([g('A', 100)]);
  });

  it('is empty without spending', () => {
    expect(spendingBreakdown([t(4, '10', 'manual')], venueOf)).toEqual({ venues: [], categories: [] });
  });
});

describe('year series and its balance (spec §3 monthly totals, §9 balance)', () => {
  const row = (type: number, amount: string, month: string) => ({ ticket_type_id: type, amount, month });

  it('puts spending and income (types 3 and 4) in their month, ignoring other years', () => {
    const s = yearSeries(
      [row(2, '10.10', '2026-01'), row(2, '0.20', '2026-01'), row(3, '1000', '2026-03'), row(4, '200.5', '2026-12'), row(2, '7', '2025-12'), row(2, '5', '2027-01')],
      2026,
    );
    expect(s.spending).toEqual([10.3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(s.income).toEqual([0, 0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 200.5]);
  });

  it('gives Ingresos, Gastos and Balance = income − expenses, exact to the cent', () => {
    const s = yearSeries([row(2, '0.10', '2026-02'), row(2, '0.20', '2026-02'), row(4, '0.30', '2026-05'), row(2, '100', '2026-07')], 2026);
    expect(seriesBalance(s)).toEqual({ income: 0.3, expenses: 100.3, balance: -100 });
    expect(seriesBalance({ spending: new Array(12).fill(0.1), income: new Array(12).fill(0) })).toEqual({ income: 0, expenses: 1.2, balance: -1.2 });
  });

  it('agrees with balance() over the same tickets', () => {
    const rows = [row(2, '12.34', '2026-04'), row(3, '99.99', '2026-04'), row(4, '0.01', '2026-09'), row(2, '1000.5', '2026-10')];
    expect(seriesBalance(yearSeries(rows, 2026))).toEqual(balance(rows));
  });
});

describe('share of a total', () => {
  it('is a percent with 2 decimals, 0 of nothing', () => {
    expect(sharePercent(1, 3)).toBe(33.33);
    expect(sharePercent(2, 3)).toBe(66.67);
    expect(sharePercent(5, 0)).toBe(0);
  });
});

describe('venue of a spending', () => {
  it('is the CFDI issuer when there is one, else the company; a manual entry without a CFDI has none', () => {
    expect(venueLabel({ receipt: { name_issuer: 'OXXO' }, company_short_name: 'cfdi' }, 'Factura importada')).toBe('OXXO');
    expect(venueLabel({ receipt: { name_issuer: '' }, company_short_name: 'cfdi' }, 'Factura importada')).toBe('Factura importada');
    expect(venueLabel({ receipt: null, company_short_name: 'manual' }, 'Registro manual')).toBeNull();
    expect(venueLabel({ receipt: { name_issuer: 'Pemex' }, company_short_name: 'manual' }, 'Registro manual')).toBe('Pemex');
    // A merchant's ticket shows its brand, as its row does, before and after its CFDI names the legal name.
    expect(venueLabel({ receipt: { name_issuer: 'REFACCIONARIA AUTOPARTES DEL NORESTE' }, company_short_name: 'autozone' }, 'Autozone')).toBe('Autozone');
    expect(venueLabel({ receipt: null, company_short_name: 'autozone' }, 'Autozone')).toBe('Autozone');
  });
});
