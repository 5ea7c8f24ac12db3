// When the page asks for a drain (DESIGN §4): at start, back online, back to the foreground, after
// each enqueue and on a backoff timer. A controlling service worker drains (it survives the tab);
// without one (first visit, dev, an old worker that does not answer) the page runs the engine itself.
// Written against minimal structural types so it also compiles in the worker's lib (no DOM there).
import type { AppDb } from './db';
import { drainOutbox, type DrainResult, type DrainTrigger } from './drain';
import { onDrainRequested, requestDrain } from './drain-signal';
import type { FetchLike } from './http';

export { requestDrain };

export interface DrainTriggerOptions {
  db: AppDb;
  getToken: () => string | null | Promise<string | null>;
  fetch?: FetchLike;
  baseUrl?: string;
  /** For tests: the globals to listen on (default globalThis / document / navigator.serviceWorker). */
  env?: TriggerEnv;
}

type Listener = (event: { data?: unknown }) => void;
interface Target {
  addEventListener(type: string, l: Listener): void;
  removeEventListener(type: string, l: Listener): void;
}
interface SwContainer extends Target {
  controller: { postMessage(message: unknown): void } | null;
  ready?: Promise<{ sync?: { register(tag: string): Promise<void> } }>;
}
export interface TriggerEnv {
  window: Target | null;
  document: (Target & { visibilityState: string }) | null;
  serviceWorker: SwContainer | null;
}

/** Message the page posts to the worker, and the worker's answer to every window. */
export interface DrainMessage {
  type: 'drain';
  trigger?: DrainTrigger;
}
export interface DrainedMessage {
  type: 'outbox-drained';
  result: DrainResult;
}

/**
 * The page accepted a new version: the active worker stops sending. The browser activates a waiting worker
 * only once the active one has no event in flight, so a send hanging on a bad connection (up to its
 * deadline: 30 s, more for a photo) would otherwise hold 'Actualizar' back. What was cut is sent again by
 * the new version (the Idempotency-Key makes that safe).
 */
export interface DrainStopMessage {
  type: 'drain-stop';
}

export function isDrainStopMessage(data: unknown): data is DrainStopMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'drain-stop';
}

export function isDrainMessage(data: unknown): data is DrainMessage {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'drain') return false;
  const trigger = (data as { trigger?: unknown }).trigger;
  return trigger === undefined || trigger === 'reconnected' || trigger === 'asked';
}

function isDrainedMessage(data: unknown): data is DrainedMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'outbox-drained';
}

type AuthListener = () => void;
const authListeners = new Set<AuthListener>();

/** Tells the UI that a 401 paused the queue (sign in again to resume). */
export function onAuthRequired(cb: AuthListener): () => void {
  authListeners.add(cb);
  return () => {
    authListeners.delete(cb);
  };
}

function defaultEnv(): TriggerEnv {
  const g = globalThis as unknown as {
    addEventListener?: Target['addEventListener'];
    document?: TriggerEnv['document'];
    navigator?: { serviceWorker?: SwContainer };
  };
  return {
    window: typeof g.addEventListener === 'function' ? (globalThis as unknown as Target) : null,
    document: g.document ?? null,
    serviceWorker: g.navigator?.serviceWorker ?? null,
  };
}

/** How long the page waits for a worker's answer before draining itself. */
const WORKER_ANSWER_MS = 8_000;
const MIN_TIMER_MS = 1_000;
const MAX_TIMER_MS = 5 * 60_000;
const BUSY_RECHECK_MS = 3_000;

let active: { syncNow: () => void } | null = null;

/** "Sincronizar ahora": sends everything pending, ignoring backoff waits. */
export function syncNow(): void {
  active?.syncNow();
}

/** Starts the triggers; returns the function that stops them (logout, tests). */
export function startDrainTriggers(options: DrainTriggerOptions): () => void {
  const env = options.env ?? defaultEnv();
  const fetchFn: FetchLike = options.fetch ?? ((r) => fetch(r));
  let timer: ReturnType<typeof setTimeout> | null = null;
  let fallback: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => kick(), Math.min(MAX_TIMER_MS, Math.max(MIN_TIMER_MS, ms)));
  };

  const handle = (result: DrainResult) => {
    if (stopped) return;
    if (result.paused) {
      if (result.remaining > 0) for (const l of [...authListeners]) l();
      return;
    }
    if (result.busy) schedule(BUSY_RECHECK_MS);
    else if (result.nextAttemptAt !== null) schedule(result.nextAttemptAt - Date.now());
  };

  const drainHere = (trigger: DrainTrigger | undefined) => {
    void drainOutbox({ db: options.db, fetch: fetchFn, getToken: options.getToken, baseUrl: options.baseUrl, ...(trigger ? { trigger } : {}) })
      .then(handle)
      .catch(() => schedule(MAX_TIMER_MS));
  };

  function kick(trigger?: DrainTrigger): void {
    if (stopped) return;
    const sw = env.serviceWorker;
    if (sw?.controller) {
      sw.controller.postMessage({ type: 'drain', ...(trigger ? { trigger } : {}) } satisfies DrainMessage);
      if (!fallback) {
        fallback = setTimeout(() => {
          fallback = null;
          drainHere(trigger);
        }, WORKER_ANSWER_MS);
      }
    } else {
      drainHere(trigger);
    }
  }

  const onWorkerMessage: Listener = (event) => {
    if (!isDrainedMessage(event.data)) return;
    if (fallback) {
      clearTimeout(fallback);
      fallback = null;
    }
    handle(event.data.result);
  };
  const onOnline: Listener = () => kick('reconnected');
  const onVisible: Listener = () => {
    if (env.document?.visibilityState === 'visible') kick();
  };
  const onEnqueued = () => {
    kick();
    // Where Background Sync exists, the browser also wakes the worker once connectivity returns.
    void env.serviceWorker?.ready?.then((r) => r.sync?.register('outbox')).catch(() => undefined);
  };

  env.window?.addEventListener('online', onOnline);
  env.document?.addEventListener('visibilitychange', onVisible);
  env.serviceWorker?.addEventListener('message', onWorkerMessage);
  const offEnqueued = onDrainRequested(onEnqueued);
  const handleRef = { syncNow: () => kick('asked') };
  active = handleRef;
  kick();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (fallback) clearTimeout(fallback);
    env.window?.removeEventListener('online', onOnline);
    env.document?.removeEventListener('visibilitychange', onVisible);
    env.serviceWorker?.removeEventListener('message', onWorkerMessage);
    offEnqueued();
    if (active === handleRef) active = null;
  };
}
