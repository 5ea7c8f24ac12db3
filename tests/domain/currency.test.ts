import { describe, expect, it } from 'vitest';
import { conversionNote, impliedRate, isConversionNote, nationalAmount, roundRate, toNational } from '../../src/domain/currency';

describe('pesos from a foreign amount and a rate (spec §9: both at 2 decimals)', () => {
  it('multiplies exactly, rounding the rate first and the result once, half away from zero', () => {
    expect(nationalAmount('12.50', '17.25')).toBe('215.63');
    expect(nationalAmount('100', '18.2345')).toBe('1823.00');
    // 1.005 × 1 would be 1.00 in binary floats.
    expect(nationalAmount('1.005', '1')).toBe('1.01');
    expect(nationalAmount('6078640.23', '20.35')).toBe('123700328.68');
    expect(toNational(100, 18.2345)).toBe(1823);
  });

  it('is null for anything that is not a positive amount and rate', () => {
    for (const [a, r] of [['', '17'], ['12', ''], ['abc', '17'], ['12', '0'], ['-3', '17'], ['12', '-1'], ['1e3', '17']]) {
      expect(nationalAmount(a!, r!)).toBeNull();
    }
  });
});

describe('the rate implied by the pesos', () => {
  it('divides and rounds to 2 decimals, half away from zero', () => {
    expect(impliedRate('12.50', '215.63')).toBe('17.25');
    expect(impliedRate('3', '50')).toBe('16.67');
    expect(impliedRate('8', '0.04')).toBe('0.01');
    expect(impliedRate('200', '1')).toBe('0.01');
  });

  it('is null without a positive amount and positive pesos (or when the rate rounds to nothing)', () => {
    expect(impliedRate('0', '100')).toBeNull();
    expect(impliedRate('12', '')).toBeNull();
    expect(impliedRate('1000', '0.01')).toBeNull();
  });

  it('round-trips with nationalAmount within a cent of the typed pesos', () => {
    const rate = impliedRate('12.50', '215.60')!;
    expect(rate).toBe('17.25');
    expect(nationalAmount('12.50', rate)).toBe('215.63');
  });
});

describe('the note of a foreign entry (spec §9: amount, currency and rate)', () => {
  it('is written from decimals and recognised as ours', () => {
    expect(conversionNote('12.5', 'USD', '17.2536')).toBe('12.50 USD al tipo de cambio 17.25');
    expect(conversionNote(100, 'EUR', 19.8765)).toBe('100.00 EUR al tipo de cambio 19.88');
    expect(isConversionNote('12.50 USD al tipo de cambio 17.25')).toBe(true);
    expect(isConversionNote('Cena en Houston')).toBe(false);
    expect(roundRate('17.255')).toBe('17.26');
    expect(roundRate('0')).toBeNull();
  });
});
