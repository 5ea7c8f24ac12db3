// Toasts that belong to one screen's form: a new check replaces the previous one, and they close
// when the screen goes away, so stale validation messages never pile up (the 20 s rule still applies).
import { useEffect, useMemo, useRef } from 'react';
import { toast } from './toast-store';

export function useScreenToasts() {
  const ids = useRef(new Set<number>());
  useEffect(() => {
    const own = ids.current;
    return () => {
      for (const id of own) toast.dismiss(id);
      own.clear();
    };
  }, []);
  return useMemo(() => {
    const dismissAll = () => {
      for (const id of ids.current) toast.dismiss(id);
      ids.current.clear();
    };
    const show = (kind: 'error' | 'warning', message: string) => {
      dismissAll();
      ids.current.add(toast[kind](message));
    };
    return {
      error: (message: string) => show('error', message),
      warning: (message: string) => show('warning', message),
      dismissAll,
    };
  }, []);
}
