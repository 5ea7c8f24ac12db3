import { describe, expect, it } from 'vitest';
import {
  checkFieldValue, checkFieldValues, FIELD_TYPE, formatCardBlocks, hasLabelAndHelp, mexicoToday, normalizeFieldValue,
  shownInAnonymousForm, shownInMerchantForm, type FormFieldDefinition,
} from '../../src/domain/merchant-fields';
import { MSG } from '../../src/domain/messages';

const field = (type: number, extra: Partial<FormFieldDefinition> = {}): FormFieldDefinition => ({
  form_configuration_id: 300 + type, field_name: 'Campo', form_field_type_id: type, min_length: null, helper_image: null, options: [], ...extra,
});
const TODAY = '2026/11/23';

describe('dynamic merchant fields (spec §5)', () => {
  it('requires every input; labels need nothing', () => {
    expect(checkFieldValue(field(FIELD_TYPE.text), '', TODAY)).toBe(MSG.fieldRequired);
    expect(checkFieldValue(field(FIELD_TYPE.select), '', TODAY)).toBe(MSG.fieldOption);
    expect(checkFieldValue(field(FIELD_TYPE.label), '', TODAY)).toBeNull();
  });
  it('type 1: whole numbers from 1', () => {
    expect(checkFieldValue(field(1), '12', TODAY)).toBeNull();
    for (const v of ['0', '1.5', '-3', 'abc']) expect(checkFieldValue(field(1), v, TODAY)).toBe(MSG.fieldWholeNumber);
  });
  it('type 9: decimals with at most two places', () => {
    expect(checkFieldValue(field(9), '123.45', TODAY)).toBeNull();
    expect(checkFieldValue(field(9), '123', TODAY)).toBeNull();
    for (const v of ['1.234', '1,50', '.5']) expect(checkFieldValue(field(9), v, TODAY)).toBe(MSG.fieldDecimal);
  });
  it('type 4: real dates yyyy/mm/dd, today or earlier', () => {
    expect(checkFieldValue(field(4), '2026/11/23', TODAY)).toBeNull();
    expect(checkFieldValue(field(4), normalizeFieldValue(field(4), '2026-11-01'), TODAY)).toBeNull();
    for (const v of ['2026/11/24', '2026/02/30', '2026/13/01', '23/11/2026']) expect(checkFieldValue(field(4), v, TODAY)).toBe(MSG.fieldDate);
  });
  it('type 7: six blocks of four digits', () => {
    expect(formatCardBlocks('123412341234123412341234999')).toBe('1234 1234 1234 1234 1234 1234');
    const v = normalizeFieldValue(field(7), '1234 1234 1234 1234 1234 1234');
    expect(v).toBe('123412341234123412341234');
    expect(checkFieldValue(field(7), v, TODAY)).toBeNull();
    expect(checkFieldValue(field(7), '12341234', TODAY)).toBe(MSG.fieldCardBlocks);
  });
  it('type 8: one of the options', () => {
    const f = field(8, { options: [{ option_id: 1, option_title: 'Centro' }, { option_id: 2, option_title: 'Valle' }] });
    expect(checkFieldValue(f, '2', TODAY)).toBeNull();
    expect(checkFieldValue(f, 'VALLE', TODAY)).toBeNull();
    expect(checkFieldValue(f, '9', TODAY)).toBe(MSG.fieldOption);
  });
  it('min_length gives its hint', () => {
    expect(checkFieldValue(field(2, { min_length: 6 }), 'ABC', TODAY)).toBe('6 caracteres mínimo');
    expect(checkFieldValue(field(2, { min_length: 6 }), 'ABCDEF', TODAY)).toBeNull();
  });
  it('values are uppercased and trimmed; the first problem wins in field order', () => {
    expect(normalizeFieldValue(field(2), '  ab-12 ')).toBe('AB-12');
    const fields = [field(1), field(2)];
    expect(checkFieldValues(fields, new Map([[301, '5'], [302, '']]), TODAY)).toEqual({ form_configuration_id: 302, message: MSG.fieldRequired });
  });
  it('hides Importe/Fecha in the merchant form and XXX in the anonymous form; labels/help below type 10', () => {
    expect(shownInMerchantForm(field(9, { field_name: 'Importe' }))).toBe(false);
    expect(shownInMerchantForm(field(4, { field_name: 'fecha' }))).toBe(false);
    expect(shownInMerchantForm(field(2, { field_name: 'Folio' }))).toBe(true);
    expect(shownInAnonymousForm(field(2, { field_name: 'XXX' }))).toBe(false);
    expect(hasLabelAndHelp(field(9))).toBe(true);
    expect(hasLabelAndHelp(field(11))).toBe(false);
  });
  it("today is Mexico City's date", () => {
    expect(mexicoToday(new Date('2026-11-24T05:30:00Z'))).toBe('2026/11/23');
  });
});
