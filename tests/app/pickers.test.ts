import { describe, expect, it } from 'vitest';
import { stepPeriod } from '../../src/app/ui/pickers';

const now = new Date('2026-03-15T18:00:00Z');

describe('month picker steps', () => {
  it('crosses year boundaries', () => {
    expect(stepPeriod({ year: 2025, month: 12 }, 1, now)).toEqual({ year: 2026, month: 1 });
    expect(stepPeriod({ year: 2026, month: 1 }, -1, now)).toEqual({ year: 2025, month: 12 });
  });

  it('stops at the current Mexico City month and at January 2013', () => {
    expect(stepPeriod({ year: 2026, month: 3 }, 1, now)).toEqual({ year: 2026, month: 3 });
    expect(stepPeriod({ year: 2013, month: 1 }, -1, now)).toEqual({ year: 2013, month: 1 });
  });
});
