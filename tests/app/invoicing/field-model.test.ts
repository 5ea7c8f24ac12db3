// Spec §5 'Dynamic merchant fields' as the forms apply them: what is shown while typing, the first
// problem in field order (with its exact message), and what travels to the server.
import { describe, expect, it } from 'vitest';
import { checkValues, fieldPayload, inputFields, sameTicket, ticketLabel, typedValue } from '../../../src/app/invoicing/fields/field-model';
import { shownInAnonymousForm, shownInMerchantForm } from '../../../src/domain/merchant-fields';
import { MSG } from '../../../src/domain/messages';
import { FIELDS, TODAY } from './fixtures';

const byId = (id: number) => FIELDS.find((x) => x.form_configuration_id === id)!;
const good = { 1: '100234', 2: 'abc123', 3: '2026/11/20', 4: '1234 5678 9012 3456 7890 1234', 5: '11', 6: '116.00', 8: 'x' };

describe('typing', () => {
  it('groups type 7 in blocks of four digits (at most six) and uppercases text types 2 and 6', () => {
    expect(typedValue(byId(4), '12345678a90')).toBe('1234 5678 90');
    expect(typedValue(byId(4), '1'.repeat(30))).toBe('1111 1111 1111 1111 1111 1111');
    expect(typedValue(byId(2), 'ab-c 1')).toBe('AB-C 1');
    expect(typedValue(byId(8), 'xy')).toBe('XY');
    expect(typedValue(byId(1), '12')).toBe('12');
  });
});

describe('checking, in field order with the field it belongs to', () => {
  it('accepts a complete form', () => {
    expect(checkValues(FIELDS, good, TODAY)).toBeNull();
  });

  it('every field is required; a select asks for an option', () => {
    expect(checkValues(FIELDS, {}, TODAY)).toEqual({ form_configuration_id: 1, message: MSG.fieldRequired });
    expect(checkValues(FIELDS, { ...good, 5: '' }, TODAY)).toEqual({ form_configuration_id: 5, message: MSG.fieldOption });
  });

  it('type 1 is a whole number of at least 1', () => {
    for (const v of ['0', '1.5', '-3', 'abc']) {
      expect(checkValues(FIELDS, { ...good, 1: v }, TODAY)).toEqual({ form_configuration_id: 1, message: MSG.fieldWholeNumber });
    }
  });

  it('min_length gives the "{n} caracteres mínimo" hint as the message', () => {
    expect(checkValues(FIELDS, { ...good, 2: 'abc' }, TODAY)).toEqual({ form_configuration_id: 2, message: '6 caracteres mínimo' });
  });

  it('type 4 is yyyy/mm/dd, today or earlier', () => {
    expect(checkValues(FIELDS, { ...good, 3: TODAY }, TODAY)).toBeNull();
    for (const v of ['2026/11/23', '2026/02/30', '20/11/2026', '2026/13/01']) {
      expect(checkValues(FIELDS, { ...good, 3: v }, TODAY)).toEqual({ form_configuration_id: 3, message: MSG.fieldDate });
    }
  });

  it('type 7 needs all 24 digits', () => {
    expect(checkValues(FIELDS, { ...good, 4: '1234 5678' }, TODAY)).toEqual({ form_configuration_id: 4, message: MSG.fieldCardBlocks });
  });

  it('type 9 allows up to two decimals; type 11 is never checked', () => {
    expect(checkValues(FIELDS, { ...good, 6: '116.005' }, TODAY)).toEqual({ form_configuration_id: 6, message: MSG.fieldDecimal });
    expect(checkValues(FIELDS, { ...good, 6: '116' }, TODAY)).toBeNull();
  });
});

describe('payload', () => {
  it('sends input fields only, trimmed and uppercased, card digits without spaces, dates as yyyy/mm/dd', () => {
    const p = fieldPayload(FIELDS, { ...good, 2: '  abc123 ', 3: '2026-11-20' });
    expect(p).toEqual([
      { form_configuration_id: 1, value: '100234' },
      { form_configuration_id: 2, value: 'ABC123' },
      { form_configuration_id: 3, value: '2026/11/20' },
      { form_configuration_id: 4, value: '123456789012345678901234' },
      { form_configuration_id: 5, value: '11' },
      { form_configuration_id: 6, value: '116.00' },
      { form_configuration_id: 8, value: 'X' },
    ]);
    expect(inputFields(FIELDS).map((x) => x.form_configuration_id)).not.toContain(7);
  });

  it('the merchant form hides Importe and Fecha, the anonymous form hides XXX', () => {
    expect(FIELDS.filter(shownInMerchantForm).map((x) => x.field_name)).not.toEqual(expect.arrayContaining(['Importe']));
    expect(FIELDS.filter(shownInMerchantForm).map((x) => x.field_name)).not.toContain('Fecha');
    expect(FIELDS.filter(shownInAnonymousForm).map((x) => x.field_name)).not.toContain('XXX');
    // what the hidden fields do not ask is not checked either
    expect(checkValues(FIELDS.filter(shownInMerchantForm), { ...good, 3: '', 6: '' }, TODAY)).toBeNull();
  });

  it('tells tickets apart by their values and describes them by field', () => {
    const a = fieldPayload(FIELDS, good);
    expect(sameTicket(a, fieldPayload(FIELDS, { ...good, 2: 'ABC123' }))).toBe(true);
    expect(sameTicket(a, fieldPayload(FIELDS, { ...good, 1: '100235' }))).toBe(false);
    expect(ticketLabel(FIELDS, a)).toContain('Sucursal: Centro');
    expect(ticketLabel(FIELDS, a).startsWith('Número de ticket: 100234')).toBe(true);
  });
});
