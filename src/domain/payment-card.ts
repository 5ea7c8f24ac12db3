// Payment-card rules: the checkout form checks them before anything leaves the phone, and the
// sandbox tokeniser checks the same on the server. Card numbers are never stored (only brand and last 4).
import { MSG } from './messages';

/** Why a card was refused, in Spanish (MSG). */
export const CARD_MSG = {
  number: MSG.cardNumber,
  expiry: MSG.cardExpiry,
  expired: MSG.cardExpired,
  cvc: MSG.cardCvc,
} as const;

export const digitsOf = (s: string): string => s.replace(/\D/g, '');

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'MasterCard';
  if (/^3[47]/.test(digits)) return 'American Express';
  return 'Otra';
}

/** A card is usable through the last day of its expiry month. */
export function expired(month: number, year: number, now: Date): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}
