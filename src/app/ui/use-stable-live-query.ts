// A Dexie live query whose answer keeps its identity while its content does not change. A sync rewrites
// rows with the values they already had (accounts, plans, the month's tickets on every open): Dexie
// answers again with new, equal objects, and every screen below would render once more for nothing.
import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';

/**
 * The previous answer when the new one is equal to it (structured data from Dexie: JSON says it), else
 * the new one. The same reference means no render: dexie-react-hooks only updates on a new value.
 */
export function keepIfEqual<T>(last: { value: T; json: string } | null, value: T): { value: T; json: string } {
  const json = JSON.stringify(value);
  return last && last.json === json ? last : { value, json };
}

/** useLiveQuery with the answer kept when equal to the last one; `deps` as in useLiveQuery. */
export function useStableLiveQuery<T>(query: () => Promise<T>, deps: unknown[] = []): T | undefined {
  const last = useRef<{ value: T; json: string } | null>(null);
  return useLiveQuery(async () => {
    const kept = keepIfEqual(last.current, await query());
    last.current = kept;
    return kept.value;
  }, deps);
}
