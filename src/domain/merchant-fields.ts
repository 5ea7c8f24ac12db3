// A merchant's ticket form (spec §3 Form field definition and form field types, §5 'Dynamic merchant
// fields'): how each field type is checked and sent. The client checks as the user types; the server
// checks the same values again before it looks the ticket up.
import { MSG } from './messages';
import { mexicoCityToday } from './mexico-time';

/** Spec §3 form field types. 3, 5 and 10 are not used by any merchant. */
export const FIELD_TYPE = {
  integer: 1,
  text: 2,
  date: 4,
  text6: 6,
  cardBlocks: 7,
  select: 8,
  decimal: 9,
  label: 11,
} as const;

export interface FieldOption {
  option_id: number;
  option_title: string;
}

/** GET /form/fields.json items (spec §3), as the client receives them. */
export interface FormFieldDefinition {
  form_configuration_id: number;
  field_name: string;
  form_field_type_id: number;
  min_length: number | null;
  helper_image: string | null;
  options: FieldOption[];
}

/** A value as the client sends it (spec §3 New ticket payload). */
export interface FieldValue {
  form_configuration_id: number;
  value: string;
}

export const SELECT_PLACEHOLDER = '- Selecciona una opción -';

/** Types below 10 show a label and a help button; 10 and above show the input alone (spec §5). */
export const hasLabelAndHelp = (f: FormFieldDefinition): boolean => f.form_field_type_id < 10;
/** Type 11 is a label only: nothing to fill. */
export const isInput = (f: FormFieldDefinition): boolean => f.form_field_type_id !== FIELD_TYPE.label;
/** Spec §5: fields named Importe and Fecha are hidden in the merchant form (merchant/{merchant}). */
export const shownInMerchantForm = (f: FormFieldDefinition): boolean => !/^(importe|fecha)$/i.test(f.field_name.trim());
/** Spec §5: fields with the placeholder name XXX are hidden in the anonymous form. */
export const shownInAnonymousForm = (f: FormFieldDefinition): boolean => f.field_name.trim().toUpperCase() !== 'XXX';

export const minLengthHint = (n: number): string => MSG.fieldMinLength.replace('{n}', String(n));

/** Type 7: keeps digits only and groups them in blocks of four (at most six). */
export function formatCardBlocks(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 24);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Values travel uppercased and trimmed (spec §5); dates as yyyy/mm/dd; type 7 without spaces. */
export function normalizeFieldValue(f: FormFieldDefinition, raw: string): string {
  const v = raw.trim();
  if (f.form_field_type_id === FIELD_TYPE.cardBlocks) return v.replace(/\D/g, '');
  if (f.form_field_type_id === FIELD_TYPE.date) return v.replace(/-/g, '/');
  return v.toUpperCase();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Today as yyyy/mm/dd in Mexico City (the merchants' calendar). */
export function mexicoToday(now: Date = new Date()): string {
  return mexicoCityToday(now).replace(/-/g, '/');
}

function isRealDate(v: string): boolean {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && `${y}/${pad(mo)}/${pad(d)}` === v;
}

/**
 * The problem with one value (already normalised), or null. All fields are required (spec §5); `today`
 * is Mexico City's yyyy/mm/dd (dates may not be in the future).
 */
export function checkFieldValue(f: FormFieldDefinition, value: string, today: string = mexicoToday()): string | null {
  if (!isInput(f)) return null;
  if (!value) return f.form_field_type_id === FIELD_TYPE.select ? MSG.fieldOption : MSG.fieldRequired;
  switch (f.form_field_type_id) {
    case FIELD_TYPE.integer:
      if (!/^[0-9]+$/.test(value) || Number(value) < 1) return MSG.fieldWholeNumber;
      break;
    case FIELD_TYPE.decimal:
      if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(value)) return MSG.fieldDecimal;
      break;
    case FIELD_TYPE.date:
      if (!isRealDate(value) || value > today) return MSG.fieldDate;
      break;
    case FIELD_TYPE.cardBlocks:
      if (!/^[0-9]{24}$/.test(value)) return MSG.fieldCardBlocks;
      break;
    case FIELD_TYPE.select:
      if (!f.options.some((o) => String(o.option_id) === value || o.option_title.toUpperCase() === value)) return MSG.fieldOption;
      break;
  }
  if (f.min_length && value.length < f.min_length) return minLengthHint(f.min_length);
  return null;
}

/** The first problem of a whole form, in field order, with the field it belongs to. */
export function checkFieldValues(
  fields: readonly FormFieldDefinition[],
  values: ReadonlyMap<number, string>,
  today: string = mexicoToday(),
): { form_configuration_id: number; message: string } | null {
  for (const f of fields) {
    const message = checkFieldValue(f, values.get(f.form_configuration_id) ?? '', today);
    if (message) return { form_configuration_id: f.form_configuration_id, message };
  }
  return null;
}
