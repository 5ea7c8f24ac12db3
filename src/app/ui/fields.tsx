// Form controls with visible labels; errors are linked through aria-describedby and announced.
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { Icon } from './icon';
import './field.css';

/** The aria-describedby of a control: its hint and its error, when present. */
export function describedBy(id: string, hint: unknown, error: string | null | undefined): string | undefined {
  const s = [hint !== undefined && hint !== '' ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return s || undefined;
}

/**
 * What follows every control: its hint, and its error — always rendered, so screen readers
 * announce a message when it appears. Ids are `${id}-hint` and `${id}-error` (see describedBy).
 */
export function FieldHelp({ id, hint, error, showError = true }: { id: string; hint?: ReactNode; error?: string | null; showError?: boolean }) {
  return (
    <>
      {hint !== undefined && hint !== '' && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {showError && (
        <p id={`${id}-error`} className="field__error" aria-live="polite">
          {error ? (
            <>
              <Icon name="alert" />
              <span>{error}</span>
            </>
          ) : null}
        </p>
      )}
    </>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  trailing?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
  id?: string;
}

export function TextField({ label, hint, error, trailing, inputRef, id, className, ...rest }: TextFieldProps) {
  const auto = useId();
  const inputId = id ?? `f${auto}`;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className={trailing ? 'field__control field__control--trailing' : 'field__control'}>
        <input
          {...rest}
          id={inputId}
          ref={inputRef}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(inputId, hint, error)}
        />
        {trailing && <div className="field__trailing">{trailing}</div>}
      </div>
      <FieldHelp id={inputId} hint={hint} error={error} />
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  options: readonly SelectOption[];
  error?: string | null;
  hint?: ReactNode;
  placeholder?: string;
  selectRef?: Ref<HTMLSelectElement>;
  id?: string;
  hideLabel?: boolean;
}

export function Select({ label, options, error, hint, placeholder, selectRef, id, className, hideLabel, ...rest }: SelectProps) {
  const auto = useId();
  const selectId = id ?? `s${auto}`;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className={hideLabel ? 'visually-hidden' : 'field__label'} htmlFor={selectId}>
        {label}
      </label>
      <select
        {...rest}
        id={selectId}
        ref={selectRef}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(selectId, hint, error)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldHelp id={selectId} hint={hint} error={error} showError={!hideLabel} />
    </div>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
}

export function Checkbox({ label, className, ...rest }: CheckboxProps) {
  return (
    <label className={className ? `checkbox ${className}` : 'checkbox'}>
      <input type="checkbox" {...rest} />
      <span>{label}</span>
    </label>
  );
}
