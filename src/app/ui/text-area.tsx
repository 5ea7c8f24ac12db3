// A labelled textarea with the same error wiring as TextField (fields.tsx).
import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { Icon } from './icon';
import './field.css';

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
  hideLabel?: boolean;
}

export function TextArea({ label, error, hint, textareaRef, hideLabel, className, ...rest }: TextAreaProps) {
  const id = `t${useId()}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className={hideLabel ? 'visually-hidden' : 'field__label'} htmlFor={id}>
        {label}
      </label>
      <textarea
        {...rest}
        id={id}
        ref={textareaRef}
        className="field__input field__textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <p id={errorId} className="field__error" aria-live="polite">
        {error ? (
          <>
            <Icon name="alert" />
            <span>{error}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
