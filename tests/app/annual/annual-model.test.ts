import { describe, expect, it } from 'vitest';
import { analyticsPath, seriesFromStats, statsPath } from '../../../src/app/annual/annual-model';

describe('annual model', () => {
  it("turns the server's monthly totals into the chart's 12 values, missing months as 0", () => {
    const s = seriesFromStats(
      {
        spending: [{ month: '2026-01', sum: '40.00' }, { month: '2026-11', sum: '430.25' }, { month: '2025-12', sum: '9.00' }],
        income: [{ month: '2026-10', sum: '5000.00' }, { month: '2026-03', sum: 'x' }],
      },
      2026,
    );
    expect(s.spending).toEqual([40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 430.25, 0]);
    expect(s.income).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 5000, 0, 0]);
  });

  it('asks for the year as spec §7 says: stats with month 12 and the annual analytics path', () => {
    const stats = new URL(statsPath('GODE561231GR8', 2026), 'http://x').searchParams;
    expect(Object.fromEntries(stats)).toEqual({
      'usuario[rfc_owner]': 'GODE561231GR8', 'usuario[view]': 'annual', 'date[year]': '2026', 'date[month]': '12', action: 'stats',
    });
    expect(analyticsPath('GODE561231GR8', 2026)).toBe('/api/v3/analytics/spending/GODE561231GR8/2026');
  });
});
