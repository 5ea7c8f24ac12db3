// The service worker's side of the outbox (DESIGN §4): drain on the Background Sync `sync` event
// (tag 'outbox'), on the page's {type:'drain'} message and at worker start-up, with the real fetch
// and the token from the stored session; then tell every window what happened.
// Structural types, so this compiles with both the DOM and the WebWorker libs.
import type { AppDb } from './db';
import { drainOutbox, type DrainResult, type DrainTrigger } from './drain';
import { isDrainMessage, isDrainStopMessage, type DrainedMessage } from './drain-triggers';
import type { FetchLike } from './http';

export const SYNC_TAG = 'outbox';

interface WorkerEvent {
  tag?: string;
  data?: unknown;
  waitUntil(p: Promise<unknown>): void;
}

export interface WorkerScope {
  addEventListener(type: 'sync' | 'message', listener: (event: WorkerEvent) => void): void;
  clients: { matchAll(options?: { type?: 'window'; includeUncontrolled?: boolean }): Promise<readonly { postMessage(m: unknown): void }[]> };
}

export interface WorkerDrainOptions {
  /** The worker's database (loaded lazily so start-up stays cheap). */
  getDb: () => AppDb | Promise<AppDb>;
  getToken: () => string | null | Promise<string | null>;
  fetch?: FetchLike;
}

export function installOutboxDrain(scope: WorkerScope, options: WorkerDrainOptions): { drain: (trigger?: DrainTrigger) => Promise<DrainResult | null> } {
  const send: FetchLike = options.fetch ?? ((r) => fetch(r));
  // Aborted when the page accepts an update (DrainStopMessage); from then on this worker sends nothing.
  const stop = new AbortController();
  const fetchFn: FetchLike = (r) => send(withSignal(r, stop.signal));

  const drain = async (trigger?: DrainTrigger): Promise<DrainResult | null> => {
    if (stop.signal.aborted) return null;
    try {
      const result = await drainOutbox({ db: await options.getDb(), fetch: fetchFn, getToken: options.getToken, ...(trigger ? { trigger } : {}) });
      const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const w of windows) w.postMessage({ type: 'outbox-drained', result } satisfies DrainedMessage);
      return result;
    } catch {
      return null; // the database is unavailable (storage cleared, upgrade in progress): next trigger retries
    }
  };

  scope.addEventListener('sync', (event) => {
    if (event.tag !== SYNC_TAG) return;
    // The browser fires it when the connection is back; rejecting asks it to fire again later (still offline).
    event.waitUntil(drain('reconnected').then((r) => {
      if (r?.offline) throw new Error('sin conexión');
    }));
  });

  scope.addEventListener('message', (event) => {
    if (isDrainMessage(event.data)) event.waitUntil(drain(event.data.trigger));
    else if (isDrainStopMessage(event.data)) stop.abort();
  });

  // Safari and Firefox have no Background Sync: a worker start is the next best moment.
  void drain();
  return { drain };
}

/** The request, also aborted by `signal`. Without AbortSignal.any (older browsers) it is left as it was: the update then waits for it. */
function withSignal(request: Request, signal: AbortSignal): Request {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  return any ? new Request(request, { signal: any([request.signal, signal]) }) : request;
}
