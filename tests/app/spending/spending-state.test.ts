import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import {
  ATTACHMENT_TOO_LARGE, checkAttachment, firstProblem, initialPanel, lastRateText, panelReducer, RATE_UNKNOWN, rateHint, rateKey,
  savedMessage, type PanelAction, type PanelState,
} from '../../../src/app/spending/spending-state';

const now = new Date('2026-11-22T18:00:00Z');
const categories = [1, 2, 3];

function run(...actions: PanelAction[]): PanelState {
  return actions.reduce(panelReducer, initialPanel('expense', now));
}

describe('new spending / income panel', () => {
  it('opens with today, MXN and empty fields', () => {
    const s = run({ type: 'open', kind: 'income', now });
    expect(s.open).toBe(true);
    expect(s.form).toEqual({ kind: 'income', amount: '', date: '2026/11/22', category: '', currency: 'MXN', nationalAmount: '', note: '' });
  });

  it('checks in the spec order: amount, date, category, national amount', () => {
    let s = run({ type: 'open', kind: 'expense', now }, { type: 'field', field: 'date', value: '' });
    expect(firstProblem(s, categories, now)).toEqual({ field: 'amount', message: MSG.amountRequired });
    s = panelReducer(s, { type: 'field', field: 'amount', value: '10' });
    expect(firstProblem(s, categories, now)).toEqual({ field: 'date', message: MSG.dateRequired });
    s = panelReducer(s, { type: 'field', field: 'date', value: '2026/11/20' });
    expect(firstProblem(s, categories, now)).toEqual({ field: 'category', message: MSG.categoryRequired });
    s = panelReducer(s, { type: 'field', field: 'category', value: '2' });
    s = panelReducer(s, { type: 'field', field: 'currency', value: 'USD' });
    expect(firstProblem(s, categories, now)).toEqual({ field: 'nationalAmount', message: MSG.nationalAmountRequired });
    s = panelReducer(s, { type: 'field', field: 'nationalAmount', value: '180' });
    expect(firstProblem(s, categories, now)).toBeNull();
  });

  it('shows a problem inline and clears it when that field changes', () => {
    let s = run({ type: 'open', kind: 'expense', now }, { type: 'problem', problem: { field: 'amount', message: MSG.amountRequired } });
    expect(s.errors).toEqual({ amount: MSG.amountRequired });
    s = panelReducer(s, { type: 'field', field: 'amount', value: '5' });
    expect(s.errors).toEqual({});
  });

  it('fills the national amount and the note from the rate of that date', () => {
    let s = run(
      { type: 'open', kind: 'expense', now },
      { type: 'field', field: 'amount', value: '100' },
      { type: 'field', field: 'currency', value: 'USD' },
    );
    expect(rateKey(s.form)).toBe('USD|2026-11-22');
    s = panelReducer(s, { type: 'rate-loading', key: 'USD|2026-11-22' });
    expect(rateHint(s.rate)).toBe('Buscando el tipo de cambio…');
    s = panelReducer(s, { type: 'rate-known', key: 'USD|2026-11-22', rate: 18.2345, source: 'banxico' });
    expect(s.form.nationalAmount).toBe('1823.00');
    expect(s.form.note).toBe('100.00 USD al tipo de cambio 18.23');
    // A new amount recomputes both.
    s = panelReducer(s, { type: 'field', field: 'amount', value: '10' });
    expect(s.form.nationalAmount).toBe('182.30');
    // Typed over: kept.
    s = panelReducer(s, { type: 'field', field: 'nationalAmount', value: '190' });
    s = panelReducer(s, { type: 'field', field: 'amount', value: '11' });
    expect(s.form.nationalAmount).toBe('190');
  });

  it('a rate for another date or currency is ignored; a new date drops the old rate', () => {
    let s = run({ type: 'open', kind: 'expense', now }, { type: 'field', field: 'amount', value: '100' }, { type: 'field', field: 'currency', value: 'EUR' });
    s = panelReducer(s, { type: 'rate-known', key: 'USD|2026-11-22', rate: 18, source: 'manual' });
    expect(s.form.nationalAmount).toBe('');
    s = panelReducer(s, { type: 'rate-known', key: 'EUR|2026-11-22', rate: 20, source: 'manual' });
    s = panelReducer(s, { type: 'field', field: 'date', value: '2026/11/21' });
    expect(s.rate).toEqual({ status: 'none' });
  });

  it('without a rate, asks for the rate or the amount in pesos (never blocks)', () => {
    let s = run({ type: 'open', kind: 'expense', now }, { type: 'field', field: 'currency', value: 'JPY' });
    s = panelReducer(s, { type: 'rate-unknown', key: rateKey(s.form) });
    expect(rateHint(s.rate)).toBe(RATE_UNKNOWN);
  });

  describe('with no rate known for the date', () => {
    const unknown = (...more: PanelAction[]) => {
      const s = run({ type: 'open', kind: 'expense', now }, { type: 'field', field: 'amount', value: '12.50' }, { type: 'field', field: 'currency', value: 'USD' });
      return more.reduce(panelReducer, panelReducer(s, { type: 'rate-unknown', key: rateKey(s.form) }));
    };

    it('a typed rate computes the pesos and writes the note', () => {
      const s = unknown({ type: 'rate-input', value: '17.25' });
      expect(s.form.nationalAmount).toBe('215.63');
      expect(s.form.note).toBe('12.50 USD al tipo de cambio 17.25');
      expect(firstProblem(s, categories, now)).toEqual({ field: 'category', message: MSG.categoryRequired });
    });

    it('typed pesos compute the rate, and the note says that rate', () => {
      const s = unknown({ type: 'field', field: 'nationalAmount', value: '215.60' });
      expect(s.rateInput).toBe('17.25');
      expect(s.form.nationalAmount).toBe('215.60');
      expect(s.form.note).toBe('12.50 USD al tipo de cambio 17.25');
    });

    it('a new amount recomputes whichever one the user did not type', () => {
      let s = unknown({ type: 'rate-input', value: '17.25' }, { type: 'field', field: 'amount', value: '10' });
      expect(s.form.nationalAmount).toBe('172.50');
      s = panelReducer(s, { type: 'field', field: 'nationalAmount', value: '180' });
      s = panelReducer(s, { type: 'field', field: 'amount', value: '9' });
      expect(s).toMatchObject({ rateInput: '20.00', form: { nationalAmount: '180', note: '9.00 USD al tipo de cambio 20.00' } });
    });

    it('a rate that is not a positive number leaves the pesos empty (the spec’s check asks for them)', () => {
      const s = unknown({ type: 'field', field: 'category', value: '2' }, { type: 'rate-input', value: '-3' });
      expect(s.form.nationalAmount).toBe('');
      expect(s.form.note).toBe('');
      expect(firstProblem(s, categories, now)).toEqual({ field: 'nationalAmount', message: MSG.nationalAmountRequired });
    });

    it('a note the user wrote is kept', () => {
      const s = unknown({ type: 'field', field: 'note', value: 'Cena en Houston' }, { type: 'rate-input', value: '17' });
      expect(s.form.note).toBe('Cena en Houston');
    });

    it('keeps the last rate used for that currency as a suggestion, dropped when the currency changes', () => {
      let s = unknown({ type: 'last-rate', currency: 'USD', last: { currency: 'USD', rate: '17.20', date: '2026-11-10' } });
      expect(s.lastRate).toEqual({ currency: 'USD', rate: '17.20', date: '2026-11-10' });
      expect(lastRateText(s.lastRate!)).toBe('Último tipo de cambio que usaste: 17.20 MXN por USD (2026-11-10)');
      // A late answer for another currency is ignored.
      expect(panelReducer(s, { type: 'last-rate', currency: 'EUR', last: null }).lastRate).not.toBeNull();
      s = panelReducer(s, { type: 'field', field: 'currency', value: 'EUR' });
      expect(s).toMatchObject({ lastRate: null, rateInput: '' });
    });

    it('a rate known later (back online) takes over', () => {
      let s = unknown({ type: 'rate-input', value: '17' });
      s = panelReducer(s, { type: 'rate-known', key: rateKey(s.form), rate: 18, source: 'banxico' });
      expect(s.form).toMatchObject({ nationalAmount: '225.00', note: '12.50 USD al tipo de cambio 18.00' });
    });
  });

  it('closing resets every field and the currency to MXN', () => {
    const s = run(
      { type: 'open', kind: 'expense', now },
      { type: 'field', field: 'amount', value: '100' },
      { type: 'field', field: 'currency', value: 'USD' },
      { type: 'field', field: 'note', value: 'x' },
      { type: 'attachment', file: { name: 'a.pdf', type: 'application/pdf', size: 10 } },
      { type: 'close', now },
    );
    expect(s.open).toBe(false);
    expect(s.form).toMatchObject({ amount: '', currency: 'MXN', nationalAmount: '', note: '', category: '' });
    expect(s.attachment).toBeNull();
  });

  it('a failed save keeps everything typed; a saved one resets', () => {
    let s = run({ type: 'open', kind: 'expense', now }, { type: 'field', field: 'amount', value: '100' }, { type: 'saving' });
    s = panelReducer(s, { type: 'save-failed', message: MSG.storageFull });
    expect(s).toMatchObject({ open: true, saving: false, form: { amount: '100' } });
    s = panelReducer(s, { type: 'saved', now });
    expect(s).toMatchObject({ open: false, form: { amount: '' } });
  });

  it('accepts png, jpg, jpeg and pdf up to 2 MB as attachment', () => {
    expect(checkAttachment({ name: 'ticket.JPG', type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(checkAttachment({ name: 'f.pdf', type: 'application/pdf', size: 2 * 1024 * 1024 })).toBeNull();
    expect(checkAttachment({ name: 'f.gif', type: 'image/gif', size: 10 })).toBe(MSG.attachmentType);
    expect(checkAttachment({ name: 'f.png', type: 'image/png', size: 2 * 1024 * 1024 + 1 })).toBe(ATTACHMENT_TOO_LARGE);
    const s = run({ type: 'open', kind: 'expense', now }, { type: 'attachment', file: { name: 'x.zip', type: 'application/zip', size: 1 } });
    expect(s).toMatchObject({ attachment: null, errors: { attachment: MSG.attachmentType } });
  });

  it('says where an offline entry went', () => {
    expect(savedMessage('expense', true)).toBe('Listo, guardamos tu gasto.');
    expect(savedMessage('income', false)).toBe(`Listo, guardamos tu ingreso. ${MSG.offlineSaved}`);
  });
});
