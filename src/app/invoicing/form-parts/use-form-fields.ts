// Loads a merchant's form definition through the query layer: the stored copy first (when a cache is
// given), then the network, whose answer replaces it and is stored for the next time offline.
import { useMemo } from 'react';
import type { FormFieldDefinition } from '../../../domain/merchant-fields';
import { getFormFields } from '../../api/invoicing';
import { isOffline, problemOf, useApiQuery } from '../../api/query';
import { ApiError } from '../../../offline/http';

export interface FieldsCache {
  get: (companyId: number) => Promise<FormFieldDefinition[] | undefined>;
  put: (companyId: number, fields: FormFieldDefinition[]) => Promise<void>;
}

export type FieldsState =
  | { status: 'loading' }
  | { status: 'ready'; fields: FormFieldDefinition[] }
  | { status: 'error'; message: string; offline: boolean };

const formFieldsKey = (companyId: number | undefined) => ['form-fields', companyId ?? null] as const;

export function useFormFields(companyId: number | undefined, cache?: FieldsCache): { state: FieldsState; reload: () => void } {
  const id = companyId ?? 0;
  const stored = useApiQuery([...formFieldsKey(companyId), 'stored'], async () => (cache ? ((await cache.get(id).catch(() => undefined)) ?? null) : null), {
    enabled: companyId !== undefined && cache !== undefined,
  });
  const network = useApiQuery(formFieldsKey(companyId), async ({ signal }) => {
    const fields = await getFormFields(id, signal);
    await cache?.put(id, fields).catch(() => undefined);
    return fields;
  }, { enabled: companyId !== undefined });
  const problem = problemOf(network);
  const state = useMemo<FieldsState>(() => {
    if (network.data) return { status: 'ready', fields: network.data };
    // The stored copy stays on screen when the network cannot answer.
    if (stored.data && stored.data.length > 0) return { status: 'ready', fields: stored.data };
    if (problem) return { status: 'error', message: problem instanceof ApiError ? problem.message : 'No pudimos cargar el formulario.', offline: isOffline(problem) };
    return { status: 'loading' };
  }, [network.data, stored.data, problem]);
  return { state, reload: () => void network.refetch() };
}
