// Renders from Dexie at once, then pulls the month from the server in the background (DESIGN §4).
// Says whether it is updating, and whether a failure was because the phone is offline.
import { useCallback, useEffect, useState } from 'react';
import type { AppDb } from '../../offline/db';
import { isMonthSeen, pullMonth } from '../../offline/pull';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';
import { useBackOnline } from '../use-online';

export type MonthSync =
  | { status: 'updating' }
  | { status: 'done' }
  | { status: 'offline' }
  | { status: 'error'; message: string };

const UPDATING: MonthSync = { status: 'updating' };

export function useMonthSync(db: AppDb, rfc: string | undefined, year: number, month: number): { sync: MonthSync; seen: boolean | undefined; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // What one pull (account, month, attempt) learnt; another pull has learnt nothing yet: updating, seen unknown.
  const pull = rfc ? `${rfc}/${year}/${month}/${attempt}` : null;
  const [answer, setAnswer] = useState<{ pull: string; sync?: MonthSync; seen?: boolean } | null>(null);
  const current = answer && answer.pull === pull ? answer : null;
  const sync = current?.sync ?? UPDATING;
  const seen = current?.seen;
  // Stable: the list's memoised cards take it as their invoice's onChanged.
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Back online after an offline failure: pull again without asking.
  useBackOnline(sync.status === 'offline', retry);

  useEffect(() => {
    if (!rfc || !pull) return;
    let live = true;
    const learn = (news: { sync?: MonthSync; seen?: boolean }) =>
      setAnswer((prev) => ({ ...(prev?.pull === pull ? prev : {}), ...news, pull }));
    void isMonthSeen(db, rfc, year, month).then((s) => live && learn({ seen: s }));
    pullMonth(db, api, rfc, year, month).then(
      () => {
        if (live) learn({ seen: true, sync: { status: 'done' } });
      },
      (err: unknown) => {
        if (!live) return;
        const offline = (err instanceof ApiError && err.offline) || !navigator.onLine;
        // A 401 is handled by the session (the API client signs out); nothing to show here.
        if (err instanceof ApiError && err.status === 401) learn({ sync: { status: 'done' } });
        else learn({ sync: offline ? { status: 'offline' } : { status: 'error', message: err instanceof Error ? err.message : '' } });
      },
    );
    return () => {
      live = false;
    };
  }, [db, rfc, year, month, pull]);

  return { sync, seen, retry };
}
