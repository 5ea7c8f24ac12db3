// The state every merchant form shares: typed values, the one shown error, refs to focus it.
import { useCallback, useRef, useState } from 'react';
import type { FormFieldDefinition } from '../../../domain/merchant-fields';
import { checkValues, fieldPayload, type FieldError, type FieldValues } from './field-model';

export function useFieldForm(fields: readonly FormFieldDefinition[]) {
  const [values, setValues] = useState<FieldValues>({});
  const [error, setError] = useState<FieldError | null>(null);
  const refs = useRef(new Map<number, HTMLInputElement | HTMLSelectElement | null>());

  const onChange = useCallback((id: number, value: string) => {
    setValues((v) => ({ ...v, [id]: value }));
    setError((e) => (e?.form_configuration_id === id ? null : e));
  }, []);

  const registerRef = useCallback(
    (id: number) => (el: HTMLInputElement | HTMLSelectElement | null) => {
      refs.current.set(id, el);
    },
    [],
  );

  /** Shows an error at its field and moves focus there. */
  const showError = useCallback((e: FieldError) => {
    setError(e);
    requestAnimationFrame(() => refs.current.get(e.form_configuration_id)?.focus());
  }, []);

  /** Checks every field; on a problem shows it and returns null, else the payload values. */
  const validate = useCallback(() => {
    const problem = checkValues(fields, values);
    if (problem) {
      showError(problem);
      return null;
    }
    setError(null);
    return fieldPayload(fields, values);
  }, [fields, values, showError]);

  const clear = useCallback(() => {
    setValues({});
    setError(null);
  }, []);

  /** A server message about the ticket as a whole goes to the first field. */
  const showTicketError = useCallback(
    (message: string) => {
      const first = fields.find((f) => f.form_field_type_id !== 11);
      if (first) showError({ form_configuration_id: first.form_configuration_id, message });
    },
    [fields, showError],
  );

  return { values, error, onChange, registerRef, validate, clear, showError, showTicketError, setError };
}
