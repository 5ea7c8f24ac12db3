// A small cross-process bus: "something changed" signals every API process must hear (a revoked session,
// a user's uploads). On PostgreSQL it is LISTEN/NOTIFY on one dedicated connection per process (the pool's
// connections come and go); on PGlite there is one process, so delivery stays in memory.
import { EventEmitter } from 'node:events';
import pg from 'pg';

export interface Bus {
  /** Sends `payload` to every subscriber of `channel`, in this process and the others. */
  publish(channel: string, payload: string): void;
  /** Calls `fn` with each payload sent on `channel`; answers the unsubscribe. */
  subscribe(channel: string, fn: (payload: string) => void): () => void;
  /**
   * Calls `fn` when messages may have been lost (the listening connection dropped and came back): a cache
   * fed by the bus empties itself then.
   */
  onGap(fn: () => void): () => void;
  /** Resolves once the subscriptions made so far are listening (PostgreSQL); at once in memory. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** NOTIFY payloads are capped at 8000 bytes; ours are ids. Channel names are identifiers we choose. */
const CHANNEL_RE = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL_RE.test(channel)) throw new Error(`Canal de notificaciones no válido: ${channel}`);
}

/** Delivery inside this process only (PGlite, tests). Asynchronous like NOTIFY, so callers never rely on order. */
export function memoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(channel, payload) {
      checkChannel(channel);
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    subscribe(channel, fn) {
      checkChannel(channel);
      emitter.on(channel, fn);
      return () => emitter.off(channel, fn);
    },
    onGap: () => () => undefined,
    ready: async () => undefined,
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

export interface PgBusOptions {
  /** Sends the NOTIFY (a pool query, so publishing never waits for the listening connection). */
  notify: (channel: string, payload: string) => Promise<unknown>;
  /** First wait before reconnecting; doubles up to 10 s. */
  retryMs?: number;
}

/** LISTEN on its own connection to `connectionString`, reconnecting (and re-listening) after any error. */
export function pgBus(connectionString: string, opts: PgBusOptions): Bus {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const gaps = new Set<() => void>();
  const channels = new Set<string>();
  const firstRetry = opts.retryMs ?? 250;
  let retry = firstRetry;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let everConnected = false;
  let timer: NodeJS.Timeout | null = null;

  const listenSql = (channel: string) => `LISTEN "${channel}"`;

  const connect = (): Promise<void> => {
    if (connecting) return connecting;
    connecting = (async () => {
      const c = new pg.Client({ connectionString });
      c.on('notification', (m) => local.emit(m.channel, m.payload ?? ''));
      c.on('error', (err) => dropped(c, err));
      c.on('end', () => dropped(c, null));
      try {
        await c.connect();
        for (const ch of channels) await c.query(listenSql(ch));
      } catch (err) {
        c.removeAllListeners('end');
        await c.end().catch(() => undefined);
        throw err;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      retry = firstRetry;
      // Whatever was sent while nobody listened is lost: caches start afresh.
      if (everConnected) for (const fn of gaps) fn();
      everConnected = true;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const reconnectLater = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      connect().catch((err: unknown) => {
        console.error('[bus] no se pudo reconectar:', (err as Error).message);
        retry = Math.min(retry * 2, 10_000);
        reconnectLater();
      });
    }, retry);
    timer.unref();
  };

  function dropped(c: pg.Client, err: Error | null): void {
    if (client !== c) return;
    client = null;
    if (err) console.error('[bus] conexión de notificaciones perdida:', err.message);
    c.end().catch(() => undefined);
    for (const fn of gaps) fn();
    reconnectLater();
  }

  const ensure = () => {
    if (closed || client || connecting || timer) return connecting ?? Promise.resolve();
    return connect().catch((err: unknown) => {
      console.error('[bus] sin notificaciones:', (err as Error).message);
      reconnectLater();
    });
  };

  return {
    publish(channel, payload) {
      checkChannel(channel);
      opts.notify(channel, payload).catch((err: unknown) => console.error('[bus] NOTIFY falló:', (err as Error).message));
    },
    subscribe(channel, fn) {
      checkChannel(channel);
      local.on(channel, fn);
      if (!channels.has(channel)) {
        channels.add(channel);
        if (client) client.query(listenSql(channel)).catch((err: unknown) => dropped(client as pg.Client, err as Error));
        else void ensure();
      }
      return () => local.off(channel, fn);
    },
    onGap(fn) {
      gaps.add(fn);
      return () => gaps.delete(fn);
    },
    async ready() {
      await ensure();
      // A LISTEN sent on the live connection answers before any NOTIFY sent after it.
      if (client) await client.query('SELECT 1');
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await connecting?.catch(() => undefined);
      const c = client;
      client = null;
      local.removeAllListeners();
      await c?.end().catch(() => undefined);
    },
  };
}
