// Decline codes become Spanish in one place, whichever adapter reported them.
import { describe, expect, it } from 'vitest';
import { DECLINE_CODES, DECLINE_REASON, declineCode, declineField, declineReason } from '../../src/domain/payment-card';
import { failureOf } from '../../src/server/payments/stripe';

describe('decline reasons', () => {
  it('says each decline code in Spanish, with the issue’s wording for the common two', () => {
    expect(declineReason('insufficient_funds')).toBe('Fondos insuficientes');
    expect(declineReason('declined')).toBe('Tarjeta rechazada por el banco');
    for (const code of DECLINE_CODES) expect(DECLINE_REASON[code]).toMatch(/^[A-ZÁÉÍÓÚ][^.]+$/u);
    expect(new Set(DECLINE_CODES.map((c) => DECLINE_REASON[c])).size).toBe(DECLINE_CODES.length);
  });

  it('reads anything unexpected from the wire as a generic failure', () => {
    for (const junk of [undefined, null, 42, '', 'toString', '__proto__', 'DECLINED', { code: 'declined' }]) {
      expect(declineCode(junk)).toBe('other');
      expect(declineReason(junk)).toBe('No se pudo realizar el cargo');
    }
  });

  it('points at the field to fix when the decline is about one', () => {
    expect(declineField('incorrect_cvc')).toBe('cvc');
    expect(declineField('incorrect_number')).toBe('number');
    expect(declineField('expired_card')).toBe('expiry');
    expect(declineField('insufficient_funds')).toBeNull();
    expect(declineField('declined')).toBeNull();
  });

  it('maps Stripe’s codes: the actionable ones kept, lost/stolen/fraud told as a bank refusal', () => {
    expect(failureOf({ type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' })).toBe('insufficient_funds');
    expect(failureOf({ type: 'card_error', code: 'expired_card' })).toBe('expired_card');
    expect(failureOf({ type: 'card_error', code: 'incorrect_cvc' })).toBe('incorrect_cvc');
    expect(failureOf({ type: 'card_error', code: 'processing_error' })).toBe('processing_error');
    expect(failureOf({ type: 'card_error', code: 'incorrect_number' })).toBe('incorrect_number');
    for (const d of ['stolen_card', 'lost_card', 'fraudulent', 'do_not_honor', 'generic_decline']) {
      expect(failureOf({ type: 'card_error', code: 'card_declined', decline_code: d })).toBe('declined');
    }
    expect(failureOf({ type: 'invalid_request_error', code: 'resource_missing' })).toBe('other');
  });
});
