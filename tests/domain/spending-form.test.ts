import { describe, expect, it } from 'vitest';
import { checkSpendingForm, isDate, manualTicketPayload, type SpendingForm } from '../../src/domain/spending-form';
import { conversionNote, toNational } from '../../src/domain/currency';

const now = new Date('2026-11-22T18:00:00Z');
const ok: SpendingForm = { kind: 'expense', amount: '120.50', date: '2026/11/20', category: '1', currency: 'MXN', nationalAmount: '', note: '' };
const cats = [1, 2, 11];

describe('new spending / income panel checks, in the spec order (§5)', () => {
  it('1. amount required', () => {
    expect(checkSpendingForm({ ...ok, amount: '', date: '', category: '' }, cats, now)).toEqual({ field: 'amount', message: 'El monto es requerido' });
  });
  it('2. date required', () => {
    expect(checkSpendingForm({ ...ok, date: '', category: '' }, cats, now)).toEqual({ field: 'date', message: 'La fecha es requerida' });
  });
  it('3. category required', () => {
    expect(checkSpendingForm({ ...ok, category: '' }, cats, now)).toEqual({ field: 'category', message: 'La categoría es requerida' });
  });
  it('4. national amount required when the currency is not MXN', () => {
    expect(checkSpendingForm({ ...ok, currency: 'USD' }, cats, now)).toEqual({ field: 'nationalAmount', message: 'El monto en moneda nacional es requerido' });
    expect(checkSpendingForm({ ...ok, currency: 'USD', nationalAmount: '2100.35' }, cats, now)).toBeNull();
  });
  it('refuses negative, non-numeric and over-precise amounts', () => {
    for (const amount of ['-5', 'abc', '1.234', '1,000']) expect(checkSpendingForm({ ...ok, amount }, cats, now)?.field).toBe('amount');
    expect(checkSpendingForm({ ...ok, amount: '0' }, cats, now)).toBeNull();
  });
  it('refuses future and impossible dates', () => {
    expect(checkSpendingForm({ ...ok, date: '2026/11/23' }, cats, now)?.message).toBe('La fecha no puede ser posterior a hoy.');
    expect(checkSpendingForm({ ...ok, date: '2026/11/22' }, cats, now)).toBeNull();
    expect(isDate('2026/02/30')).toBe(false);
    expect(isDate('2026/13/01')).toBe(false);
    expect(isDate('2026-11-01')).toBe(false);
  });
  it('refuses an unknown category', () => {
    expect(checkSpendingForm({ ...ok, category: '999' }, cats, now)?.field).toBe('category');
  });
});

describe('create-ticket payload (spec §3, §7)', () => {
  it('sends spending as type 2 status 3 with the date and amount fields', () => {
    const p = manualTicketPayload(ok, 'XIQB891116QE4', 'id-1');
    expect(p.company.id).toBe(1);
    expect(p.ticket).toEqual([
      { form_configuration_id: 1, value: '' },
      { form_configuration_id: 2, value: '2026/11/20' },
      { form_configuration_id: 3, value: '120.50' },
    ]);
    expect(p.additional_info).toMatchObject({ ticket_id: 'id-1', ticket_type: 2, ticket_status: 3, meta_tag: 1, income_meta_tag: null });
  });
  it('sends income as type 4 status 9 and the national amount for foreign currency', () => {
    const p = manualTicketPayload({ ...ok, kind: 'income', currency: 'USD', amount: '100', nationalAmount: '1734.5', category: '2' }, 'R', 'id-2');
    expect(p.ticket[2]?.value).toBe('1734.50');
    expect(p.additional_info).toMatchObject({ ticket_type: 4, ticket_status: 9, meta_tag: null, income_meta_tag: 2, currency: 'USD', original_amount: '100.00' });
  });
  it('converts at the rate rounded to 2 decimals and writes the note', () => {
    expect(toNational(100, 17.3456)).toBe(1735);
    expect(toNational(12.34, 20.005)).toBe(246.92);
    expect(conversionNote(100, 'USD', 17.3456)).toBe('100.00 USD al tipo de cambio 17.35');
  });
});
