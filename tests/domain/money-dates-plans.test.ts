import { describe, expect, it } from 'vitest';
import { formatMoney, formatForeign, roundCents } from '../../src/domain/money';
import { displayDate, monthKey, monthTitle, pickerYears } from '../../src/domain/dates';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { PLANS, planById, IVA_FACTOR } from '../../src/domain/plans';
import { EXPENSE_CATEGORIES, FINANCIAL_EXPENSES_ID } from '../../src/domain/categories';
import { isUuidV7, newId } from '../../src/domain/ids';

describe('money (spec §9)', () => {
  it('formats as $1,234.56', () => {
    expect(formatMoney(1234.56)).toBe('$1,234.56');
    expect(formatMoney('89')).toBe('$89.00');
    expect(formatMoney(-5.5)).toBe('-$5.50');
    expect(formatMoney(1_000_000)).toBe('$1,000,000.00');
    expect(formatForeign(120, 'USD')).toBe('$120.00 USD');
  });
  it('rounds cents half away from zero', () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(roundCents(89 * IVA_FACTOR)).toBe(103.24);
  });
});

describe('dates (spec §9)', () => {
  it('uses the Mexico City calendar', () => {
    // 2026-12-01 03:00 UTC is still 30 November in Mexico City (UTC-6).
    expect(mexicoCityDate(new Date('2026-12-01T03:00:00Z'))).toEqual({ year: 2026, month: 11, day: 30 });
    expect(displayDate('2026-12-01T03:00:00Z')).toBe('2026-11-30');
  });
  it('follows daylight saving before Mexico dropped it in October 2022', () => {
    // 2019-07-01 04:30 UTC was 23:30 on 30 June under CDT (UTC-5); under CST (UTC-6) it would be 22:30, same day.
    expect(mexicoCityDate(new Date('2019-07-01T04:30:00Z'))).toEqual({ year: 2019, month: 6, day: 30 });
    // 2019-07-01 05:30 UTC: 00:30 on 1 July under CDT (a fixed UTC-6 would wrongly say 30 June).
    expect(mexicoCityDate(new Date('2019-07-01T05:30:00Z'))).toEqual({ year: 2019, month: 7, day: 1 });
    // Around the change: 2022-10-30 06:30 UTC is 01:30 CDT; 2022-10-30 07:30 UTC is 01:30 CST.
    expect(mexicoCityDate(new Date('2022-10-30T06:30:00Z'))).toEqual({ year: 2022, month: 10, day: 30 });
    expect(mexicoCityDate(new Date('2026-01-01T05:59:00Z'))).toEqual({ year: 2025, month: 12, day: 31 });
    expect(mexicoCityDate(new Date('2026-01-01T06:00:00Z'))).toEqual({ year: 2026, month: 1, day: 1 });
  });
  it('offers years from the current one back to 2013', () => {
    const years = pickerYears(new Date('2026-11-22T12:00:00Z'));
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2013);
    expect(years).toHaveLength(14);
  });
  it('names months in Spanish', () => {
    expect(monthTitle(1)).toBe('Enero');
    expect(monthTitle(11)).toBe('Noviembre');
    expect(monthKey(2026, 3)).toBe('2026-03');
  });
});

describe('plans and categories (spec §3, §9)', () => {
  it('has plans 0 to 7 with the spec prices', () => {
    expect(PLANS.map((p) => p.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(planById(1)?.price).toBe(0);
    expect(planById(2)?.price).toBe(89);
    expect(planById(3)?.price).toBe(75);
    expect(planById(4)?.price).toBe(289);
    expect(planById(5)?.price).toBe(240);
    expect(planById(0)?.purchasable).toBe(false);
  });
  it('category 11 is Gastos Financieros', () => {
    expect(EXPENSE_CATEGORIES.find((c) => c.id === FINANCIAL_EXPENSES_ID)?.meta_tag).toBe('Gastos Financieros');
    expect(new Set(EXPENSE_CATEGORIES.map((c) => c.id)).size).toBe(EXPENSE_CATEGORIES.length);
  });
  it('makes time-ordered UUIDv7 ids', () => {
    const a = newId();
    const b = newId();
    expect(isUuidV7(a)).toBe(true);
    expect(a < b || a.slice(0, 13) === b.slice(0, 13)).toBe(true);
    expect(isUuidV7('not-a-uuid')).toBe(false);
  });
});
