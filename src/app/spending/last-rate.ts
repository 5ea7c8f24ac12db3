// The rate this user last used for a currency, read from their own tickets on the device (so it is there
// offline too): the newest entry in that currency, its pesos over its original amount.
import { impliedRate, NATIONAL_CURRENCY } from '../../domain/currency';
import type { Ticket } from '../../domain/ticket';
import type { AppDb } from '../../offline/db';
import type { LastRate } from './spending-state';

type RateTicket = Pick<Ticket, 'ticket_id' | 'received_at' | 'amount' | 'currency' | 'original_amount'>;

const newerFirst = (a: RateTicket, b: RateTicket) =>
  a.received_at < b.received_at ? 1 : a.received_at > b.received_at ? -1 : a.ticket_id < b.ticket_id ? 1 : -1;

/** The newest ticket in that currency with both amounts gives the rate (2 decimals); null when there is none. */
export function lastRateOf(tickets: Iterable<RateTicket>, currency: string): LastRate | null {
  if (currency === NATIONAL_CURRENCY) return null;
  const candidates = [...tickets].filter((t) => t.currency === currency && t.original_amount).sort(newerFirst);
  for (const t of candidates) {
    const rate = impliedRate(t.original_amount ?? '', t.amount);
    if (rate !== null) return { currency, rate, date: t.received_at.slice(0, 10) };
  }
  return null;
}

/**
 * Reads the device's tickets of that currency (every account of this user on the device), newest first
 * through the [currency+received_at] index, and stops at the first one that gives a rate.
 */
export async function loadLastRate(db: AppDb, currency: string): Promise<LastRate | null> {
  if (currency === NATIONAL_CURRENCY) return null;
  const newest = await db.tickets
    .where('[currency+received_at]')
    .between([currency, ''], [currency, '\uffff'], true, true)
    .reverse()
    .filter((t) => Boolean(t.original_amount) && impliedRate(t.original_amount ?? '', t.amount) !== null)
    .first();
  return newest ? lastRateOf([newest], currency) : null;
}
