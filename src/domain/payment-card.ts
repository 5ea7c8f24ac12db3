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

/**
 * Why a provider refused a charge, as the adapters report it (Stripe's decline codes folded into a few
 * the user can act on; the sandbox's test cards produce each of them).
 */
export const DECLINE_CODES = ['declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'incorrect_number', 'processing_error', 'other'] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** The one place a decline code becomes Spanish: the checkout, the payment history and the e-mails read it here. */
export const DECLINE_REASON: Record<DeclineCode, string> = {
  declined: 'Tarjeta rechazada por el banco',
  insufficient_funds: 'Fondos insuficientes',
  expired_card: 'La tarjeta está vencida',
  incorrect_cvc: 'El código de seguridad no coincide con el de la tarjeta',
  incorrect_number: 'El número de tarjeta no es correcto',
  processing_error: 'El banco no pudo procesar el cargo; intenta de nuevo en unos minutos',
  other: 'No se pudo realizar el cargo',
};

/** A decline code from the wire (anything else, or nothing, is 'other'). */
export function declineCode(value: unknown): DeclineCode {
  return (DECLINE_CODES as readonly unknown[]).includes(value) ? (value as DeclineCode) : 'other';
}

/** 'Fondos insuficientes', for any value the server or a provider sent. */
export const declineReason = (code: unknown): string => DECLINE_REASON[declineCode(code)];

/** Which field of the checkout the user should fix after a decline (null: another card, or try later). */
export function declineField(code: DeclineCode): 'number' | 'expiry' | 'cvc' | null {
  if (code === 'incorrect_cvc') return 'cvc';
  if (code === 'incorrect_number') return 'number';
  if (code === 'expired_card') return 'expiry';
  return null;
}
