// The sync page's live state (GET …/branches/{rfc}/sync) through the query layer: read when online,
// re-read on demand after a change, and polled while a sync is queued or running so the result appears
// without a reload (the poll stops with the screen, offline and while the tab is hidden).
import type { SatSyncStatus } from '../../domain/sat-sync';
import { errorMessage, useApiQuery } from '../api/query';
import { getSyncStatus, syncStatusKey } from './sync-api';

export const SYNC_POLL_MS = 4000;

export interface SyncStatusState {
  status: SatSyncStatus | undefined;
  error: string | null;
  loading: boolean;
  /** When the status on screen was read (epoch ms; 0 before the first answer). */
  readAt: number;
  refresh: () => void;
}

export function useSyncStatus(userId: number | undefined, rfc: string, online: boolean): SyncStatusState {
  const read = useApiQuery(syncStatusKey(userId, rfc), ({ signal }) => getSyncStatus(userId ?? 0, rfc, signal), {
    enabled: online && userId !== undefined,
    pollMs: (status) => (status?.running ? SYNC_POLL_MS : false),
  });
  return {
    status: read.data,
    error: read.error ? errorMessage(read.error) : null,
    loading: read.isFetching,
    readAt: read.dataUpdatedAt,
    refresh: () => void read.refetch(),
  };
}
