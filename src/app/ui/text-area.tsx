// A labelled textarea with the same error wiring as TextField (fields.tsx).
import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { describedBy, FieldHelp } from './fields';
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
        aria-describedby={describedBy(id, hint, error)}
      />
      <FieldHelp id={id} hint={hint} error={error} />
    </div>
  );
}
