import { describe, expect, it } from 'vitest';
import { planById } from '../../../src/domain/plans';
import { addMonths, chargeAmount } from '../../../src/server/plans/pricing';

const plan = (id: number) => planById(id)!;

describe('charge amounts (spec §9)', () => {
  it('price × months × 1.16, company plans plus 89 a month per active collaborator', () => {
    expect(chargeAmount(plan(2))).toBe(103.24);
    expect(chargeAmount(plan(3))).toBe(1044);
    expect(chargeAmount(plan(4))).toBe(335.24);
    expect(chargeAmount(plan(4), 3)).toBe(644.96); // (289 + 3 × 89) × 1.16
    expect(chargeAmount(plan(5), 2)).toBe(5818.56); // (240 + 178) × 12 × 1.16
    expect(chargeAmount(plan(7), 1)).toBe(5762.88); // (325 + 89) × 12 × 1.16
    // Collaborators never change a personal plan's price.
    expect(chargeAmount(plan(2), 5)).toBe(103.24);
  });

  it('periods end on the same day of the month, clamped to short months', () => {
    expect(addMonths(new Date('2026-01-31T12:00:00Z'), 1).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(addMonths(new Date('2026-11-23T03:00:00Z'), 1).toISOString()).toBe('2026-12-23T03:00:00.000Z');
    expect(addMonths(new Date('2024-02-29T00:00:00Z'), 12).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });
});
