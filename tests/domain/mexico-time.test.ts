import { describe, expect, it } from 'vitest';
import { ticketMonth } from '../../src/domain/ticket';
import { mexicoCityIso, mexicoCityMidnight, monthRange, yearRange } from '../../src/domain/mexico-time';

describe('Mexico City calendar', () => {
  it('writes instants with the city offset', () => {
    expect(mexicoCityIso(new Date('2026-12-01T03:00:00Z'))).toBe('2026-11-30T21:00:00-06:00');
    expect(mexicoCityIso(new Date('2026-11-20T18:00:00Z'))).toBe('2026-11-20T12:00:00-06:00');
    // Summer time until 2022.
    expect(mexicoCityIso(new Date('2018-07-01T12:00:00Z'))).toBe('2018-07-01T07:00:00-05:00');
    expect(ticketMonth(mexicoCityIso(new Date('2026-12-01T03:00:00Z')))).toBe('2026-11');
  });

  it('bounds months and years at local midnight', () => {
    expect(monthRange(2026, 11)).toEqual({ from: new Date('2026-11-01T06:00:00Z'), to: new Date('2026-12-01T06:00:00Z') });
    expect(monthRange(2026, 12).to).toEqual(new Date('2027-01-01T06:00:00Z'));
    expect(yearRange(2026)).toEqual({ from: new Date('2026-01-01T06:00:00Z'), to: new Date('2027-01-01T06:00:00Z') });
    // 2018-04-01 was the day summer time began (at 02:00): midnight was still UTC-6; May 1 was UTC-5.
    expect(monthRange(2018, 4)).toEqual({ from: new Date('2018-04-01T06:00:00Z'), to: new Date('2018-05-01T05:00:00Z') });
    expect(mexicoCityMidnight(2026, 2, 29)).toEqual(new Date('2026-03-01T06:00:00Z'));
  });
});
