// The exchange rate of a date (GET /api/v3/exchange_rates): MXN per unit of a foreign currency.
// Online only; no known rate or no connection means "type the amount in pesos", never a blocked form.
import { ApiError } from '../../offline/http';
import { api } from '../api/client';

export interface ExchangeRate {
  base: string;
  date: string;
  rate: number;
  source: string;
}

/** The rate, or null when it is unknown or cannot be fetched now. */
export async function fetchRate(base: string, isoDate: string, signal?: AbortSignal): Promise<ExchangeRate | null> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return null;
  try {
    const r = await api.get<ExchangeRate>('/api/v3/exchange_rates', { base, date: isoDate }, signal);
    const rate = Number(r.rate);
    return Number.isFinite(rate) && rate > 0 ? { ...r, rate } : null;
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err; // aborted
  }
}
