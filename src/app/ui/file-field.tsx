// A labelled file picker: the native input (keyboard and readers work as usual) styled as a button,
// with the chosen file's name and an error linked to it.
import { useId, type Ref } from 'react';
import { Icon } from './icon';
import { describedBy, FieldHelp } from './fields';
import { TicketIcon } from './ticket-icons';
import './field.css';

export interface FileFieldProps {
  label: string;
  accept: string;
  fileName: string | null;
  onFile: (file: File | null) => void;
  error?: string | null;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
}

export function FileField({ label, accept, fileName, onFile, error, hint, inputRef }: FileFieldProps) {
  const id = `file${useId()}`;
  return (
    <div className="field">
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="file-field">
        <label className="btn btn--secondary file-field__button" htmlFor={id}>
          <TicketIcon name="paperclip" />
          <span>{fileName ? 'Cambiar archivo' : 'Elegir archivo'}</span>
        </label>
        <input
          id={id}
          ref={inputRef}
          className="visually-hidden"
          type="file"
          accept={accept}
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onChange={(e) => onFile(e.target.files?.[0] ?? null)}
        />
        <span className="file-field__name">{fileName ?? 'Ningún archivo elegido'}</span>
        {fileName && (
          <button type="button" className="btn btn--ghost btn--icon" aria-label="Quitar archivo" onClick={() => onFile(null)}>
            <Icon name="close" />
          </button>
        )}
      </div>
      <FieldHelp id={id} hint={hint} error={error} />
    </div>
  );
}
