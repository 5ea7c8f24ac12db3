import { describe, it, expect } from 'vitest';
import { COUNTRIES, MEXICO, countryName, isCountryCode } from '../../src/domain/countries';

describe('countries (SAT c_Pais)', () => {
  it('has the full catalog', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(245);
  });

  it('has unique, well-formed codes', () => {
    const codes = COUNTRIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
    for (const c of COUNTRIES) expect(c.name.trim()).not.toBe('');
  });

  it('includes ZZZ as "Países no declarados"', () => {
    expect(countryName('ZZZ')).toBe('Países no declarados');
    expect(isCountryCode('ZZZ')).toBe(true);
  });

  it('includes México and common trading partners', () => {
    expect(MEXICO).toBe('MEX');
    expect(countryName(MEXICO)).toBe('México');
    expect(COUNTRIES.some((c) => c.code === MEXICO)).toBe(true);
    for (const code of ['USA', 'CAN', 'ESP']) expect(isCountryCode(code)).toBe(true);
    expect(countryName('USA')).toBe('Estados Unidos (los)');
  });

  it('normalises input before checking', () => {
    expect(isCountryCode('mex')).toBe(true);
    expect(isCountryCode(' usa ')).toBe(true);
    expect(countryName(' esp')).toBe('España');
  });

  it('rejects unknown or malformed codes', () => {
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('ABCD')).toBe(false);
    expect(isCountryCode('')).toBe(false);
    expect(isCountryCode('XYZ')).toBe(false);
    expect(countryName('XYZ')).toBeUndefined();
  });

  it('is sorted by Spanish name', () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
  });
});
