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
  // Cut when the page accepts an update (DrainStopMessage); from then on this worker sends nothing.
  const sends = new Stoppable();
  const fetchFn: FetchLike = (r) => sends.run(r, send);

  const drain = async (trigger?: DrainTrigger): Promise<DrainResult | null> => {
    if (sends.stopped) return null;
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
    else if (isDrainStopMessage(event.data)) sends.stop();
  });

  // Safari and Firefox have no Background Sync: a worker start is the next best moment.
  void drain();
  return { drain };
}

/**
 * The sends in flight, each with its own controller, so `stop()` cuts them all. Not AbortSignal.any: it is
 * missing before Chrome 116 and Safari 17.4, where 'Actualizar' would then wait for a hanging send.
 */
class Stoppable {
  private readonly inFlight = new Set<AbortController>();
  stopped = false;

  async run(request: Request, send: FetchLike): Promise<Response> {
    const cut = new AbortController();
    if (this.stopped) cut.abort();
    // The request's own signal (ky's timeout) still ends it.
    if (request.signal.aborted) cut.abort(request.signal.reason);
    else request.signal.addEventListener('abort', () => cut.abort(request.signal.reason), { once: true });
    this.inFlight.add(cut);
    try {
      return await send(new Request(request, { signal: cut.signal }));
    } finally {
      this.inFlight.delete(cut);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const cut of this.inFlight) cut.abort();
  }
}
