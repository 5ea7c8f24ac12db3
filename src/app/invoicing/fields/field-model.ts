// What the dynamic merchant fields hold and send (spec §5 'Dynamic merchant fields'), as pure functions
// the screens and the tests share. The rules themselves live in src/domain/merchant-fields.ts.
import {
  FIELD_TYPE, checkFieldValues, formatCardBlocks, isInput, mexicoToday, normalizeFieldValue,
  type FieldValue, type FormFieldDefinition,
} from '../../../domain/merchant-fields';

/** Raw input per form_configuration_id, as typed (nothing is lost on an error). */
export type FieldValues = Readonly<Record<number, string>>;

export interface FieldError {
  form_configuration_id: number;
  message: string;
}

/** How a keystroke is shown: card blocks grouped by four, text uppercased (values travel uppercased). */
export function typedValue(f: FormFieldDefinition, raw: string): string {
  switch (f.form_field_type_id) {
    case FIELD_TYPE.cardBlocks:
      return formatCardBlocks(raw);
    case FIELD_TYPE.text:
    case FIELD_TYPE.text6:
      return raw.toUpperCase();
    default:
      return raw;
  }
}

/** The fields a user fills (type 11 is a label). */
export const inputFields = (fields: readonly FormFieldDefinition[]) => fields.filter(isInput);

/** The first problem, in field order, on the normalised values. */
export function checkValues(fields: readonly FormFieldDefinition[], values: FieldValues, today: string = mexicoToday()): FieldError | null {
  const map = new Map<number, string>();
  for (const f of inputFields(fields)) map.set(f.form_configuration_id, normalizeFieldValue(f, values[f.form_configuration_id] ?? ''));
  return checkFieldValues(fields, map, today);
}

/** The values as the API takes them (spec §3 New ticket payload): normalised, input fields only. */
export function fieldPayload(fields: readonly FormFieldDefinition[], values: FieldValues): FieldValue[] {
  return inputFields(fields).map((f) => ({
    form_configuration_id: f.form_configuration_id,
    value: normalizeFieldValue(f, values[f.form_configuration_id] ?? ''),
  }));
}

/** Same tickets = same normalised values (the multi list refuses duplicates). */
export function sameTicket(a: readonly FieldValue[], b: readonly FieldValue[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((v) => b.some((w) => w.form_configuration_id === v.form_configuration_id && w.value === v.value));
}

/** A short description of a ticket from its values (first filled field, e.g. the ticket number). */
export function ticketLabel(fields: readonly FormFieldDefinition[], values: readonly FieldValue[]): string {
  return inputFields(fields)
    .map((f) => {
      const v = values.find((x) => x.form_configuration_id === f.form_configuration_id)?.value ?? '';
      if (!v) return '';
      const option = f.form_field_type_id === FIELD_TYPE.select ? f.options.find((o) => String(o.option_id) === v) : undefined;
      return `${f.field_name}: ${option ? option.option_title : v}`;
    })
    .filter(Boolean)
    .join(' · ');
}

export const emptyValues = (): FieldValues => ({});
