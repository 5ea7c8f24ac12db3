// Currencies of the new spending/income panel (spec §9) and the conversion to national currency, in exact
// decimals (the amounts are typed strings; binary floats would round 1.005 the wrong way).
import { formatCents, productCents, toCents, toMoney } from './decimal';

export const CURRENCIES = ['MXN', 'USD', 'EUR', 'GBP', 'JPY', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const NATIONAL_CURRENCY: Currency = 'MXN';

export function isCurrency(s: string): s is Currency {
  return (CURRENCIES as readonly string[]).includes(s);
}

/** A decimal string of a positive amount or rate; null for anything else (empty, text, 0, negative). */
function positive(s: string | number): string | null {
  const text = typeof s === 'number' ? (Number.isFinite(s) ? s.toFixed(6) : '') : s.trim();
  const cents = toCents(text);
  return cents !== null && cents > 0n ? text : null;
}

/** The rate as the spec keeps it (§9): rounded to 2 decimals, '17.23'; null when it is not a positive number. */
export function roundRate(rate: string | number): string | null {
  const r = positive(rate);
  return r === null ? null : toMoney(r);
}

/** Pesos for a foreign amount at a rate (both rounded to 2 decimals, spec §9): '215.38'; null when either is not positive. */
export function nationalAmount(amount: string | number, rate: string | number): string | null {
  const a = positive(amount);
  const r = roundRate(rate);
  if (a === null || r === null) return null;
  const cents = productCents(toMoney(a)!, r);
  return cents === null ? null : formatCents(cents);
}

/** Divides, rounding half away from zero (both positive). */
function divRound(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

/** The rate a foreign amount and its pesos imply, rounded to 2 decimals: '17.23'; null when either is not positive. */
export function impliedRate(amount: string | number, national: string | number): string | null {
  const a = positive(amount);
  const n = positive(national);
  if (a === null || n === null) return null;
  const amountCents = toCents(toMoney(a)!)!;
  const nationalCents = toCents(toMoney(n)!)!;
  if (amountCents <= 0n) return null;
  const hundredths = divRound(nationalCents * 100n, amountCents);
  return hundredths > 0n ? formatCents(hundredths) : null;
}

/** Amount in MXN from a foreign amount and the rate of that date, both rounded to 2 decimals. */
export function toNational(amount: number, rate: number): number {
  return Number(nationalAmount(amount, rate) ?? '0');
}

/** The note auto-filled for a foreign-currency entry (spec §9): amount, currency and rate. */
export function conversionNote(amount: string | number, currency: string, rate: string | number): string {
  const a = positive(amount);
  return `${a === null ? '0.00' : toMoney(a)} ${currency} al tipo de cambio ${roundRate(rate) ?? '0.00'}`;
}

const CONVERSION_NOTE = /^\d+\.\d{2} [A-Z]{3} al tipo de cambio \d+\.\d{2}$/;

/** Whether a note is the one conversionNote writes (so a list can show something more telling). */
export function isConversionNote(note: string): boolean {
  return CONVERSION_NOTE.test(note.trim());
}
