// The checkout form's card checks, in Spanish, before anything leaves the phone (the sandbox tokeniser
// checks the same again on the server): the rules and messages live in src/domain/payment-card.ts.
import { CARD_MSG, digitsOf, luhnValid } from '../../domain/payment-card';

export { CARD_MSG, digitsOf, luhnValid };

export interface CardForm {
  number: string;
  /** MM/AA */
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardForm, string>>;

/** '4242424242424242' → '4242 4242 4242 4242' while typing (Amex 4-6-5). */
export function formatCardNumber(input: string): string {
  const d = digitsOf(input).slice(0, 19);
  if (/^3[47]/.test(d)) return [d.slice(0, 4), d.slice(4, 10), d.slice(10, 15)].filter(Boolean).join(' ');
  return d.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** '1228' → '12/28' while typing. */
export function formatExpiry(input: string): string {
  const d = digitsOf(input).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const m = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export function checkCardForm(f: CardForm, now: Date): CardErrors {
  const errors: CardErrors = {};
  const digits = digitsOf(f.number);
  if (!luhnValid(digits)) errors.number = CARD_MSG.number;
  const exp = parseExpiry(f.expiry);
  if (!exp) errors.expiry = CARD_MSG.expiry;
  else if (exp.year < now.getFullYear() || (exp.year === now.getFullYear() && exp.month < now.getMonth() + 1)) errors.expiry = CARD_MSG.expired;
  const cvcLength = /^3[47]/.test(digits) ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(f.cvc.trim())) errors.cvc = CARD_MSG.cvc;
  return errors;
}
