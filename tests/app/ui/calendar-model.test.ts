import { describe, expect, it } from 'vitest';
import { calendarTitle, formatYmd, monthGrid, parseYmd, stepMonth } from '../../../src/app/ui/calendar-model';

describe('date picker model', () => {
  it('reads and writes yyyy/mm/dd and rejects impossible dates', () => {
    expect(parseYmd('2026/02/28')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseYmd('2026/02/30')).toBeNull();
    expect(parseYmd('2026-02-01')).toBeNull();
    expect(formatYmd({ year: 2026, month: 3, day: 5 })).toBe('2026/03/05');
  });

  it('lays out November 2026 from Sunday, with future days disabled', () => {
    const today = { year: 2026, month: 11, day: 22 };
    const weeks = monthGrid(2026, 11, today, { year: 2026, month: 11, day: 3 });
    // 1 Nov 2026 is a Sunday: the first cell is day 1.
    expect(weeks[0]![0]).toMatchObject({ day: 1, label: 'domingo 1 de noviembre de 2026' });
    const days = weeks.flat().filter((d) => d !== null);
    expect(days).toHaveLength(30);
    expect(days.find((d) => d.day === 22)).toMatchObject({ today: true, disabled: false });
    expect(days.find((d) => d.day === 23)?.disabled).toBe(true);
    expect(days.find((d) => d.day === 3)?.selected).toBe(true);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });

  it('steps across years and titles in Spanish', () => {
    expect(stepMonth(2026, 1, -1)).toEqual({ year: 2025, month: 12 });
    expect(stepMonth(2025, 12, 1)).toEqual({ year: 2026, month: 1 });
    expect(calendarTitle(2026, 11)).toBe('Noviembre 2026');
  });
});
