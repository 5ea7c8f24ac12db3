// Currencies of the new spending/income panel (spec §9) and the conversion to national currency.
import { roundCents } from './money';

export const CURRENCIES = ['MXN', 'USD', 'EUR', 'GBP', 'JPY', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const NATIONAL_CURRENCY: Currency = 'MXN';

export function isCurrency(s: string): s is Currency {
  return (CURRENCIES as readonly string[]).includes(s);
}

/** Amount in MXN from a foreign amount and the rate of that date, both rounded to 2 decimals. */
export function toNational(amount: number, rate: number): number {
  return roundCents(amount * roundCents(rate));
}

/** The note auto-filled for a foreign-currency entry (spec §9): amount, currency and rate. */
export function conversionNote(amount: number, currency: string, rate: number): string {
  return `${amount.toFixed(2)} ${currency} al tipo de cambio ${roundCents(rate).toFixed(2)}`;
}
