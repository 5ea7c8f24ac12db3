import { describe, expect, it } from 'vitest';
import { cfdiFechaAt, instantOfCfdiFecha, isMexicanPostalCode, zoneOfPostalCode } from '../../src/domain/cfdi-time-zone';
import { zoneOffsetMinutes } from '../../src/domain/mexico-time';

// One instant, written where each of Mexico's five zones issues it (summer and winter).
const SUMMER = new Date('2026-07-01T18:00:00Z');
const WINTER = new Date('2026-01-15T18:00:00Z');

describe('Fecha at LugarExpedicion', () => {
  it.each([
    ['22000', 'Tijuana', '2026-07-01T11:00:00', '2026-01-15T10:00:00'],
    ['32000', 'Ciudad Juárez', '2026-07-01T12:00:00', '2026-01-15T11:00:00'],
    ['80000', 'Culiacán', '2026-07-01T11:00:00', '2026-01-15T11:00:00'],
    ['82000', 'Mazatlán', '2026-07-01T11:00:00', '2026-01-15T11:00:00'],
    ['83000', 'Hermosillo', '2026-07-01T11:00:00', '2026-01-15T11:00:00'],
    ['77500', 'Cancún', '2026-07-01T13:00:00', '2026-01-15T13:00:00'],
    ['06000', 'Ciudad de México', '2026-07-01T12:00:00', '2026-01-15T12:00:00'],
    ['64000', 'Monterrey', '2026-07-01T12:00:00', '2026-01-15T12:00:00'],
  ])('%s (%s)', (cp, _city, summer, winter) => {
    expect(cfdiFechaAt(SUMMER, cp)).toBe(summer);
    expect(cfdiFechaAt(WINTER, cp)).toBe(winter);
    expect(instantOfCfdiFecha(summer, cp).toISOString()).toBe(SUMMER.toISOString());
    expect(instantOfCfdiFecha(winter, cp).toISOString()).toBe(WINTER.toISOString());
  });

  it('places only real state prefixes; anything else reads as Mexico City time', () => {
    expect(isMexicanPostalCode('00000')).toBe(false);
    expect(isMexicanPostalCode('17500')).toBe(false);
    expect(isMexicanPostalCode('1234')).toBe(false);
    expect(isMexicanPostalCode('99999')).toBe(true);
    expect(zoneOfPostalCode('abcde')).toBe('America/Mexico_City');
    expect(Number.isNaN(instantOfCfdiFecha('2026-13', '06000').getTime())).toBe(true);
  });

  it('remembers offsets by the hour, and still changes at the very second daylight time starts', () => {
    // Tijuana springs forward on 2026-03-08 at 02:00 PST = 10:00 UTC; ask after the change first.
    expect(zoneOffsetMinutes('America/Tijuana', new Date('2026-03-08T10:00:00Z'))).toBe(-420);
    expect(zoneOffsetMinutes('America/Tijuana', new Date('2026-03-08T09:59:59Z'))).toBe(-480);
    expect(zoneOffsetMinutes('America/Tijuana', new Date('2026-03-08T09:00:00Z'))).toBe(-480);
    expect(zoneOffsetMinutes('America/Tijuana', new Date('2026-03-08T10:59:59Z'))).toBe(-420);
    expect(cfdiFechaAt(new Date('2026-03-08T09:59:59Z'), '22000')).toBe('2026-03-08T01:59:59');
    expect(cfdiFechaAt(new Date('2026-03-08T10:00:00Z'), '22000')).toBe('2026-03-08T03:00:00');
  });

  it('Mexico City kept daylight time before 2023', () => {
    expect(cfdiFechaAt(new Date('2021-07-01T18:00:00Z'), '06000')).toBe('2021-07-01T13:00:00');
  });
});
