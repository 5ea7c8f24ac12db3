import { describe, expect, it } from 'vitest';
import { formatCents, isDecimal, productCents, toCents, toMoney } from '../../src/domain/decimal';

describe('exact decimals for money strings', () => {
  it('recognises xs:decimal as CFDI writes it, nothing else', () => {
    for (const ok of ['0', '1000.00', '6.9', '.5', '5.', '-0.07', '+3', '0018.9008']) expect(isDecimal(ok), ok).toBe(true);
    for (const bad of ['', 'abc', '1e3', '1,000.00', '1.2.3', '.', '-', ' 1', 'NaN', 'Infinity']) expect(isDecimal(bad), bad).toBe(false);
  });

  it('rounds to cents half away from zero, where floats would not', () => {
    expect(toCents('1000')).toBe(100000n);
    expect(toCents('6.9')).toBe(690n);
    expect(toCents('1.005')).toBe(101n); // 1.005 is 1.00499… as a float
    expect(toCents('0.004999')).toBe(0n);
    expect(toCents('-0.005')).toBe(-1n);
    expect(toCents('.5')).toBe(50n);
    expect(toCents(' 2.5 ')).toBe(250n);
    expect(toCents('x')).toBeNull();
  });

  it('multiplies exactly and rounds once', () => {
    expect(productCents('3248.00', '18.9008')).toBe(6138980n); // 61389.7984
    // 6078640.234906 × 2378590.234907 = 14458594304260.204201063742 (a float gives …260.203…)
    expect(productCents('6078640.234906', '2378590.234907')).toBe(1445859430426020n);
    expect(productCents('0.125', '1')).toBe(13n);
    expect(productCents('-0.125', '1')).toBe(-13n);
    expect(productCents('1', 'x')).toBeNull();
  });

  it('writes cents back with two decimals', () => {
    expect(formatCents(0n)).toBe('0.00');
    expect(formatCents(5n)).toBe('0.05');
    expect(formatCents(-7n)).toBe('-0.07');
    expect(formatCents(123456n)).toBe('1234.56');
    expect(toMoney('4700')).toBe('4700.00');
    expect(toMoney('nope')).toBeNull();
  });
});
