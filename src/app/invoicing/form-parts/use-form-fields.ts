// Loads a merchant's form definition: the stored copy first (when a cache is given), then the network.
import { useEffect, useState } from 'react';
import type { FormFieldDefinition } from '../../../domain/merchant-fields';
import { ApiError } from '../../../offline/http';
import { getFormFields } from '../../api/invoicing';

export interface FieldsCache {
  get: (companyId: number) => Promise<FormFieldDefinition[] | undefined>;
  put: (companyId: number, fields: FormFieldDefinition[]) => Promise<void>;
}

export type FieldsState =
  | { status: 'loading' }
  | { status: 'ready'; fields: FormFieldDefinition[] }
  | { status: 'error'; message: string; offline: boolean };

export function useFormFields(companyId: number | undefined, cache?: FieldsCache): { state: FieldsState; reload: () => void } {
  const [state, setState] = useState<FieldsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (companyId === undefined) return;
    let live = true;
    let shown = false;
    setState({ status: 'loading' });
    void (async () => {
      const stored = cache ? await cache.get(companyId).catch(() => undefined) : undefined;
      if (live && stored && stored.length > 0) {
        shown = true;
        setState({ status: 'ready', fields: stored });
      }
      try {
        const fields = await getFormFields(companyId);
        if (!live) return;
        setState({ status: 'ready', fields });
        await cache?.put(companyId, fields).catch(() => undefined);
      } catch (err) {
        if (!live || shown) return; // the stored copy stays on screen
        const e = err instanceof ApiError ? err : null;
        setState({ status: 'error', message: e?.message ?? 'No pudimos cargar el formulario.', offline: !!e?.offline });
      }
    })();
    return () => {
      live = false;
    };
    // cache is stable per screen: only the company and a retry reload
  }, [companyId, attempt]);
  return { state, reload: () => setAttempt((n) => n + 1) };
}
