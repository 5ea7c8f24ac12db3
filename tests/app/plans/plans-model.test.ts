import { describe, expect, it } from 'vitest';
import { CARD_MSG, checkCardForm, formatCardNumber, formatExpiry, luhnValid, parseExpiry } from '../../../src/app/plans/card-model';
import {
  cardLabel,
  cardPlan,
  chargeTotal,
  checkoutAmountCents,
  COMPANY_CARDS,
  dueDate,
  monthlyWithIva,
  mustUseAppStore,
  PERSONAL_CARDS,
  selectDisabled,
} from '../../../src/app/plans/pricing-model';
import { planById } from '../../../src/domain/plans';

const [free, professional, company] = PERSONAL_CARDS as [typeof PERSONAL_CARDS[0], typeof PERSONAL_CARDS[0], typeof PERSONAL_CARDS[0]];

describe('pricing model', () => {
  it('has the three personal cards; the toggle swaps 2→3 and 4→5; the company page offers 4/5 and 6/7', () => {
    expect(PERSONAL_CARDS.map((c) => c.title)).toEqual(['Gratuito', 'Profesional', 'Empresarial']);
    expect(cardPlan(professional, false).id).toBe(2);
    expect(cardPlan(professional, true).id).toBe(3);
    expect(cardPlan(company, false).id).toBe(4);
    expect(cardPlan(company, true).id).toBe(5);
    expect(cardPlan(free, true).id).toBe(1);
    expect(COMPANY_CARDS.map((c) => [cardPlan(c, false).id, cardPlan(c, true).id])).toEqual([
      [4, 5],
      [6, 7],
    ]);
  });

  it("disables 'Seleccionar' for the account's plan in either period, while loading, and for the free plan", () => {
    expect(selectDisabled(professional, 1, false)).toBe(false);
    expect(selectDisabled(professional, 2, false)).toBe(true);
    expect(selectDisabled(professional, 3, false)).toBe(true);
    expect(selectDisabled(company, 3, false)).toBe(false);
    expect(selectDisabled(company, 1, true)).toBe(true);
    expect(selectDisabled(company, undefined, false)).toBe(true);
    expect(selectDisabled(free, 2, false)).toBe(true);
  });

  it('prices with IVA: 89 → 103.24 a month; annual professional 75 × 12 × 1.16 = 1,044; checkout in centavos', () => {
    expect(monthlyWithIva(planById(2)!)).toBe(103.24);
    expect(chargeTotal(planById(3)!)).toBe(1044);
    expect(chargeTotal(planById(5)!)).toBe(3340.8);
    expect(checkoutAmountCents(planById(2)!)).toBe(10324);
    expect(checkoutAmountCents(planById(7)!)).toBe(452400);
  });

  it('formats the next due date DD/MMMM/YYYY in Mexico City, and cards as brand + last 4 or brand alone', () => {
    expect(dueDate('2026-12-05T18:00:00.000Z')).toBe('05/diciembre/2026');
    // 03:00 UTC on 1 January is still 31 December in Mexico City.
    expect(dueDate('2027-01-01T03:00:00.000Z')).toBe('31/diciembre/2026');
    expect(cardLabel('Visa', '4242')).toBe('Visa 4242');
    expect(cardLabel('Visa', null)).toBe('Visa');
    expect(mustUseAppStore(0)).toBe(true);
    expect(mustUseAppStore(2)).toBe(false);
  });
});

describe('card form', () => {
  const now = new Date(2026, 10, 23);
  it('checks Luhn, expiry and CVC with Spanish messages', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(checkCardForm({ number: '4242 4242 4242 4242', expiry: '12/28', cvc: '123' }, now)).toEqual({});
    expect(checkCardForm({ number: '1234', expiry: '13/28', cvc: '1' }, now)).toEqual({ number: CARD_MSG.number, expiry: CARD_MSG.expiry, cvc: CARD_MSG.cvc });
    expect(checkCardForm({ number: '4242424242424242', expiry: '10/26', cvc: '123' }, now).expiry).toBe(CARD_MSG.expired);
    expect(checkCardForm({ number: '4242424242424242', expiry: '11/26', cvc: '123' }, now)).toEqual({});
    expect(checkCardForm({ number: '378282246310005', expiry: '11/30', cvc: '123' }, now).cvc).toBe(CARD_MSG.cvc);
  });

  it('formats while typing', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatExpiry('1228')).toBe('12/28');
    expect(parseExpiry('12/2030')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('00/30')).toBeNull();
  });
});
