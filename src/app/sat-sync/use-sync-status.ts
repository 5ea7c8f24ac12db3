// The sync page's live state (GET …/branches/{rfc}/sync): loaded when online, re-read on demand after a
// change, and polled while a sync is queued or running so the result appears without a reload.
import { useCallback, useEffect, useState } from 'react';
import type { SatSyncStatus } from '../../domain/sat-sync';
import { ApiError } from '../../offline/http';
import { MSG } from '../../domain/messages';
import { getSyncStatus } from './sync-api';

export const SYNC_POLL_MS = 4000;

export interface SyncStatusState {
  status: SatSyncStatus | undefined;
  error: string | null;
  loading: boolean;
  refresh: () => void;
}

export function useSyncStatus(userId: number | undefined, rfc: string, online: boolean): SyncStatusState {
  const [status, setStatus] = useState<SatSyncStatus | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    if (!online || userId === undefined) return;
    const ctl = new AbortController();
    setLoading(true);
    getSyncStatus(userId, rfc)
      .then((s) => {
        if (ctl.signal.aborted) return;
        setStatus(s);
        setError(null);
      })
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        setError(err instanceof ApiError ? err.message : MSG.generic);
      })
      .finally(() => !ctl.signal.aborted && setLoading(false));
    return () => ctl.abort();
  }, [userId, rfc, online, tick]);

  const running = status?.running === true;
  useEffect(() => {
    if (!running || !online) return;
    const t = setTimeout(refresh, SYNC_POLL_MS);
    return () => clearTimeout(t);
  }, [running, online, status, refresh]);

  return { status, error, loading, refresh };
}
