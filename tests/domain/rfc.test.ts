import { describe, expect, it } from 'vitest';
import {
  isCompanyRfc, isPersonRfc, isValidRfc, normalizeRfc, personTypeOf, rfcFitsType, RFC_FOREIGN, RFC_GENERIC,
} from '../../src/domain/rfc';

describe('RFC shapes (spec §5)', () => {
  it('accepts 3-letter company RFCs with Ñ and &', () => {
    for (const rfc of ['EKU9003173C9', 'H&E951128469', 'ÑAB010101AB1', 'AAA010131ZZ9']) expect(isCompanyRfc(rfc)).toBe(true);
  });
  it('accepts 4-letter person RFCs', () => {
    for (const rfc of ['XIQB891116QE4', 'COSC8001137NA', 'CACX7605101P8']) expect(isPersonRfc(rfc)).toBe(true);
  });
  it('rejects bad months, days, lengths and characters', () => {
    for (const rfc of ['EKU9013173C9', 'EKU9000173C9', 'EKU9001323C9', 'EKU9001003C9', 'EK9003173C9', 'XIQB891116QE', 'XIQB891116QE45', 'E1U9003173C9', 'XIQB891116-E4', ''])
      expect(isValidRfc(rfc)).toBe(false);
  });
  it('uppercases and trims before checking', () => {
    expect(normalizeRfc('  xiqb891116qe4 ')).toBe('XIQB891116QE4');
    expect(isPersonRfc('xiqb891116qe4')).toBe(true);
  });
  it('knows the generic foreign RFC and the tab of each shape', () => {
    expect(RFC_FOREIGN).toBe('XEXX010101000');
    expect(personTypeOf(RFC_FOREIGN)).toBe('extranjero');
    expect(personTypeOf('EKU9003173C9')).toBe('empresa');
    expect(personTypeOf('XIQB891116QE4')).toBe('persona');
    expect(personTypeOf(RFC_GENERIC)).toBe('persona');
    expect(personTypeOf('nope')).toBeNull();
  });
  it('checks an RFC against the tab it was typed in', () => {
    expect(rfcFitsType('EKU9003173C9', 'empresa')).toBe(true);
    expect(rfcFitsType('EKU9003173C9', 'persona')).toBe(false);
    expect(rfcFitsType('XIQB891116QE4', 'empresa')).toBe(false);
    expect(rfcFitsType(RFC_FOREIGN, 'persona')).toBe(false);
    expect(rfcFitsType(RFC_FOREIGN, 'extranjero')).toBe(true);
    expect(rfcFitsType('XIQB891116QE4', 'extranjero')).toBe(false);
  });
});
