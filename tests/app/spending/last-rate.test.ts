import { describe, expect, it } from 'vitest';
import { lastRateOf } from '../../../src/app/spending/last-rate';

const t = (id: string, received_at: string, amount: string, currency: string, original_amount: string | null) => ({
  ticket_id: id, received_at, amount, currency, original_amount,
});

describe('the last rate the user used for a currency', () => {
  const tickets = [
    t('a', '2026-11-02T12:00:00-06:00', '172.00', 'USD', '10.00'),
    t('b', '2026-11-10T12:00:00-06:00', '215.00', 'USD', '12.50'),
    t('c', '2026-11-20T12:00:00-06:00', '500.00', 'EUR', '25.00'),
    t('d', '2026-11-21T12:00:00-06:00', '99.00', 'MXN', null),
    t('e', '2026-11-22T12:00:00-06:00', '10.00', 'USD', null),
  ];

  it('is the newest entry in that currency: its pesos over its original amount, 2 decimals', () => {
    expect(lastRateOf(tickets, 'USD')).toEqual({ currency: 'USD', rate: '17.20', date: '2026-11-10' });
    expect(lastRateOf(tickets, 'EUR')).toEqual({ currency: 'EUR', rate: '20.00', date: '2026-11-20' });
  });

  it('is null for pesos, for a currency never used, or when no entry has both amounts', () => {
    expect(lastRateOf(tickets, 'MXN')).toBeNull();
    expect(lastRateOf(tickets, 'JPY')).toBeNull();
    expect(lastRateOf([t('x', '2026-11-01T12:00:00-06:00', '0.00', 'CAD', '5.00'), t('y', '2026-11-01T12:00:00-06:00', '10', 'CAD', 'abc')], 'CAD')).toBeNull();
  });
});
