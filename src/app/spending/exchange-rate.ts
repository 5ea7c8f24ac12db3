// The exchange rate of a date (GET /api/v3/exchange_rates): MXN per unit of a foreign currency.
// Online only; no known rate or no connection means "type the rate or the amount in pesos", never a
// blocked form. The server answers an unknown rate with 200 and `rate: null`; an older server (or a
// service worker still holding one) answered 404, and that still means "unknown".
import { ApiError } from '../../offline/http';
import { api } from '../api/client';

export interface ExchangeRate {
  base: string;
  date: string;
  rate: number;
  source: string;
}

/** What the route sends: the rate, or `rate: null` (and `source: null`) when none is known. */
interface RateAnswer {
  base: string;
  date: string;
  rate: number | string | null;
  source: string | null;
}

/** The rate, or null when it is unknown or cannot be fetched now. */
export async function fetchRate(base: string, isoDate: string, signal?: AbortSignal): Promise<ExchangeRate | null> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return null;
  try {
    const r = await api.get<RateAnswer | null>('/api/v3/exchange_rates', { base, date: isoDate }, signal);
    if (!r || r.rate === null || r.rate === undefined) return null;
    const rate = Number(r.rate);
    return Number.isFinite(rate) && rate > 0 ? { base: r.base, date: r.date, rate, source: r.source ?? '' } : null;
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err; // aborted
  }
}
