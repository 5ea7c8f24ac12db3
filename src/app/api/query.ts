// The one query layer of the online-only screens (DESIGN §1: company, company view, per-diem, plans,
// chat, support, OAuth, SAT sync, join, invoice forms): TanStack Query over the one HTTP client, with a
// cache, cancellation (a screen that goes away aborts its request) and retry for a phone on a bad line.
// Offline-first data (tickets, accounts of the layout, reference lists, uploads, outbox) does not come
// here: it flows server → Dexie → useLiveQuery.
//
// The client is bound to the hooks here instead of a provider at the root: the provider would put
// react-query in the entry chunk, and the login route must not pay for screens it never shows.
import {
  QueryClient,
  keepPreviousData,
  onlineManager,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { Account } from '../../domain/account';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { getSession, subscribeSession } from '../../offline/session';
import { api } from './client';

/** For paged and per-month reads: the last page stays on screen while the next one loads. */
export { keepPreviousData };

/** A read is tried at most this many times more, and only when trying again can help. */
export const MAX_RETRIES = 2;
/** A screen's data counts as fresh this long: going back and forth does not ask again. */
export const STALE_MS = 30_000;

/**
 * Try again only what a second try can fix: no answer (a flaky line) while the phone says it is online,
 * or a 5xx. Never a 4xx: the server has said no and will say it again. Offline, the read waits for the
 * connection to come back (refetchOnReconnect) instead of spending tries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES || !(error instanceof ApiError)) return false;
  if (error.offline) return browserOnline();
  return error.status >= 500;
}

function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: STALE_MS,
        // Run the request even when the browser says offline: the screen shows the offline error
        // (with 'Reintentar') instead of a skeleton that never ends; the reconnect refetches it.
        networkMode: 'always',
        refetchOnReconnect: true,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** The page's one query client. */
export const queryClient = createQueryClient();

// What QueryClientProvider would do on mounting: refetch on focus and on reconnect listen from now on.
queryClient.mount();
// TanStack assumes online until an 'offline' event: a page opened offline must still refetch on 'online'.
onlineManager.setOnline(browserOnline());

// Nothing read for one person may be shown to the next one on the device: the cache goes when the
// person it was read for signs out or another signs in. Signing in from a signed-out screen (join, OAuth)
// keeps what it read while signed out (the invitation, the app asking), so the screen does not reload.
let owner = getSession()?.user_id ?? null;
subscribeSession((s) => {
  const id = s?.user_id ?? null;
  if (id === owner) return;
  if (owner !== null) queryClient.clear();
  owner = id;
});

/** What every read of these screens gets from TanStack: the signal to hand to `api.get`. */
export interface ReadContext {
  signal: AbortSignal;
}

export type ApiQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryFn' | 'queryKey'> & {
  /** Polling screens: how often to ask again (false: not now). Focus does not add a request of its own. */
  pollMs?: number | false | ((data: T | undefined) => number | false);
};

/**
 * One server read of a screen: `read` gets TanStack's signal and must pass it on to `api.get`, so
 * leaving the screen cancels the request.
 */
export function useApiQuery<T>(key: QueryKey, read: (ctx: ReadContext) => Promise<T>, options: ApiQueryOptions<T> = {}): UseQueryResult<T, Error> {
  const { pollMs, ...rest } = options;
  const polling = pollMs !== undefined;
  return useQuery<T, Error, T, QueryKey>(
    {
      ...rest,
      queryKey: key,
      queryFn: ({ signal }) => read({ signal }),
      ...(polling
        ? {
            // A 4xx will not change by asking again (a forbidden inbox, a gone token): stop polling it.
            refetchInterval: (q) => (isClientError(q.state.error) ? false : typeof pollMs === 'function' ? pollMs(q.state.data) : pollMs),
            refetchIntervalInBackground: false,
            refetchOnWindowFocus: false,
          }
        : {}),
    },
    queryClient,
  );
}

/**
 * The failure a screen shows instead of its content: only when there is nothing to show and no new try
 * under way ('Reintentar' shows the loading state again, as the screens always did). A background
 * read that fails keeps the last good data on screen.
 */
export function problemOf(q: UseQueryResult<unknown, Error>): Error | null {
  return q.isError && q.data === undefined && !q.isFetching ? q.error : null;
}

/** Marks the reads under `key` stale and reads again those on screen (after a write). */
export function invalidate(key: QueryKey): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: key });
}

/** Replaces a cached read with what a write answered (no need to ask again). */
export function setQueryData<T>(key: QueryKey, update: T | ((old: T | undefined) => T | undefined)): void {
  queryClient.setQueryData<T>(key, update);
}

/** The Spanish text of a failed read: the server's own message, or the generic one. */
export function errorMessage(err: unknown, fallback: string = MSG.generic): string {
  return err instanceof ApiError ? err.message : fallback;
}

/** True when the read failed for want of a connection. */
export function isOffline(err: unknown): boolean {
  return err instanceof ApiError && err.offline;
}

/**
 * The signed-in user's RFCs as the server has them, for the screens outside the signed-in layout (OAuth,
 * join), which have no Dexie: the same call as endpoints.ts getAccounts, with the read's signal.
 */
export const accountsQuery = {
  key: (userId: number | null) => ['accounts', userId] as const,
  read: ({ signal }: ReadContext) => api.get<Account[]>('/user_clients', undefined, signal),
};
