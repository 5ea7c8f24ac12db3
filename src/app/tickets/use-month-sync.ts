// Renders from Dexie at once, then pulls the month from the server in the background (DESIGN §4).
// Says whether it is updating, and whether a failure was because the phone is offline.
import { useEffect, useState } from 'react';
import type { AppDb } from '../../offline/db';
import { isMonthSeen, pullMonth } from '../../offline/pull';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';
import { useOnline } from '../use-online';

export type MonthSync =
  | { status: 'updating' }
  | { status: 'done' }
  | { status: 'offline' }
  | { status: 'error'; message: string };

export function useMonthSync(db: AppDb, rfc: string | undefined, year: number, month: number): { sync: MonthSync; seen: boolean | undefined; retry: () => void } {
  const online = useOnline();
  const [sync, setSync] = useState<MonthSync>({ status: 'updating' });
  const [seen, setSeen] = useState<boolean | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!rfc) return;
    let live = true;
    setSync({ status: 'updating' });
    setSeen(undefined);
    void isMonthSeen(db, rfc, year, month).then((s) => live && setSeen(s));
    pullMonth(db, api, rfc, year, month).then(
      () => {
        if (!live) return;
        setSeen(true);
        setSync({ status: 'done' });
      },
      (err: unknown) => {
        if (!live) return;
        const offline = (err instanceof ApiError && err.offline) || !navigator.onLine;
        // A 401 is handled by the session (the API client signs out); nothing to show here.
        if (err instanceof ApiError && err.status === 401) setSync({ status: 'done' });
        else setSync(offline ? { status: 'offline' } : { status: 'error', message: err instanceof Error ? err.message : '' });
      },
    );
    return () => {
      live = false;
    };
  }, [db, rfc, year, month, attempt]);

  // Back online after an offline failure: pull again without asking.
  const offlineFailure = sync.status === 'offline';
  useEffect(() => {
    if (online && offlineFailure) setAttempt((n) => n + 1);
  }, [online, offlineFailure]);

  return { sync, seen, retry: () => setAttempt((n) => n + 1) };
}
