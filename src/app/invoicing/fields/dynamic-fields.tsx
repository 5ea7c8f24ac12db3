// One input per configured merchant field (spec §5): label and help button for types below 10, the
// field's own rule, the message at the field. Type 4 uses the app's yyyy/mm/dd date field.
import { useState } from 'react';
import {
  FIELD_TYPE, SELECT_PLACEHOLDER, hasLabelAndHelp, minLengthHint, type FormFieldDefinition,
} from '../../../domain/merchant-fields';
import { DateField } from '../../ui/date-field';
import { Select, TextField } from '../../ui/fields';
import { Icon } from '../../ui/icon';
import { Modal } from '../../ui/overlay';
import { typedValue, type FieldError, type FieldValues } from './field-model';

export interface DynamicFieldsProps {
  fields: readonly FormFieldDefinition[];
  values: FieldValues;
  onChange: (id: number, value: string) => void;
  error: FieldError | null;
  /** Lets the screen focus the field an error belongs to. */
  registerRef: (id: number) => (el: HTMLInputElement | HTMLSelectElement | null) => void;
  disabled?: boolean;
}

export function DynamicFields({ fields, values, onChange, error, registerRef, disabled }: DynamicFieldsProps) {
  const [help, setHelp] = useState<FormFieldDefinition | null>(null);
  return (
    <div className="dyn-fields">
      {fields.map((f) => (
        <DynamicField
          key={f.form_configuration_id}
          field={f}
          value={values[f.form_configuration_id] ?? ''}
          onChange={(v) => onChange(f.form_configuration_id, typedValue(f, v))}
          error={error?.form_configuration_id === f.form_configuration_id ? error.message : null}
          inputRef={registerRef(f.form_configuration_id)}
          onHelp={() => setHelp(f)}
          disabled={!!disabled}
        />
      ))}
      <Modal open={help !== null} onClose={() => setHelp(null)} title={help ? `¿Dónde encuentro “${help.field_name}”?` : ''}>
        {help?.helper_image ? (
          <img className="dyn-fields__help-img" src={help.helper_image} alt={`Ejemplo de ticket con el dato “${help.field_name}” marcado`} />
        ) : (
          <p>Búscalo impreso en tu ticket de compra.</p>
        )}
      </Modal>
    </div>
  );
}

interface FieldProps {
  field: FormFieldDefinition;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  inputRef: (el: HTMLInputElement | HTMLSelectElement | null) => void;
  onHelp: () => void;
  disabled: boolean;
}

function DynamicField({ field: f, value, onChange, error, inputRef, onHelp, disabled }: FieldProps) {
  const type = f.form_field_type_id;
  if (type === FIELD_TYPE.label) return <p className="dyn-fields__label">{f.field_name}</p>;
  const labelled = hasLabelAndHelp(f);
  const hint = f.min_length ? minLengthHint(f.min_length) : undefined;
  const helpButton = labelled ? (
    <button type="button" className="btn btn--ghost btn--icon" onClick={onHelp} aria-label={`Ayuda: ${f.field_name}`} disabled={disabled}>
      <Icon name="help" />
    </button>
  ) : undefined;
  const cls = labelled ? 'dyn-field' : 'dyn-field dyn-field--bare';

  if (type === FIELD_TYPE.date) {
    return (
      <div className={`${cls} dyn-field--with-help`}>
        <DateField label={f.field_name} value={value} onChange={onChange} error={error} inputRef={inputRef} />
        {helpButton}
      </div>
    );
  }
  if (type === FIELD_TYPE.select) {
    return (
      <div className={`${cls} dyn-field--with-help`}>
        <Select
          label={f.field_name}
          hideLabel={!labelled}
          options={f.options.map((o) => ({ value: String(o.option_id), label: o.option_title }))}
          placeholder={SELECT_PLACEHOLDER}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          error={error}
          selectRef={inputRef}
          disabled={disabled}
        />
        {helpButton}
      </div>
    );
  }
  const numeric = type === FIELD_TYPE.integer || type === FIELD_TYPE.decimal;
  return (
    <TextField
      className={type === FIELD_TYPE.cardBlocks ? `${cls} dyn-field--blocks` : cls}
      label={f.field_name}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={hint}
      inputRef={inputRef}
      disabled={disabled}
      trailing={helpButton}
      autoComplete="off"
      spellCheck={false}
      {...(numeric ? { type: 'number', min: type === FIELD_TYPE.integer ? 1 : 0, step: type === FIELD_TYPE.integer ? 1 : 0.01, inputMode: type === FIELD_TYPE.integer ? 'numeric' : 'decimal' } : {})}
      {...(type === FIELD_TYPE.cardBlocks ? { inputMode: 'numeric', maxLength: 29, placeholder: '0000 0000 0000 0000 0000 0000' } : {})}
      {...(type === FIELD_TYPE.text || type === FIELD_TYPE.text6 ? { autoCapitalize: 'characters' } : {})}
    />
  );
}
