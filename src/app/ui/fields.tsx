// Form controls with visible labels; errors are linked through aria-describedby and announced.
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { Icon } from './icon';
import './field.css';

function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const s = ids.filter(Boolean).join(' ');
  return s || undefined;
}

function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  // Always rendered so screen readers announce a message when it appears.
  return (
    <p id={id} className="field__error" aria-live="polite">
      {error ? (
        <>
          <Icon name="alert" />
          <span>{error}</span>
        </>
      ) : null}
    </p>
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
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
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
          aria-describedby={describedBy(hint !== undefined && hintId, error && errorId)}
        />
        {trailing && <div className="field__trailing">{trailing}</div>}
      </div>
      {hint !== undefined && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} />
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
  const hintId = `${selectId}-hint`;
  const errorId = `${selectId}-error`;
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
        aria-describedby={describedBy(hint !== undefined && hintId, error && errorId)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint !== undefined && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {!hideLabel && <FieldError id={errorId} error={error} />}
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
