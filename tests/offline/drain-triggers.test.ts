import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppDb } from '../../src/offline/db';
import { onAuthRequired, startDrainTriggers, syncNow, type TriggerEnv } from '../../src/offline/drain-triggers';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { CTX, expenseForm, freshDb, json, scriptedFetch } from './outbox-fixtures';

let db: AppDb;
const WAIT = { timeout: 5_000 };
let stop: (() => void) | null = null;
afterEach(async () => {
  stop?.();
  stop = null;
  await db.delete();
});

type L = (e: { data?: unknown }) => void;
function target() {
  const ls = new Map<string, Set<L>>();
  return {
    addEventListener: (t: string, l: L) => void (ls.get(t) ?? ls.set(t, new Set()).get(t)!).add(l),
    removeEventListener: (t: string, l: L) => void ls.get(t)?.delete(l),
    fire: (t: string, data?: unknown) => ls.get(t)?.forEach((l) => l({ data })),
    count: (t: string) => ls.get(t)?.size ?? 0,
  };
}

function pageEnv(controller: { postMessage: (m: unknown) => void } | null = null) {
  const win = target();
  const doc = { ...target(), visibilityState: 'visible' };
  const sw = { ...target(), controller, ready: Promise.resolve({ sync: { register: vi.fn(async () => undefined) } }) };
  const env: TriggerEnv = { window: win, document: doc, serviceWorker: sw };
  return { env, win, doc, sw };
}

describe('startDrainTriggers', () => {
  it('without a controlling worker the page drains at start, after each enqueue and when back online', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    const { env, win } = pageEnv();
    stop = startDrainTriggers({ db, fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test', env });
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
    expect(api.sent).toHaveLength(1);

    await createManualTicket(db, expenseForm({ amount: '2' }), CTX);
    await vi.waitFor(async () => expect(api.sent).toHaveLength(2), WAIT);

    api.on(() => true, 'network');
    await createManualTicket(db, expenseForm({ amount: '3' }), CTX);
    await vi.waitFor(async () => expect((await db.outbox.toArray())[0]?.attempts).toBe(1), WAIT);
    win.fire('online'); // the waiting operation (no answer last time) goes without its backoff
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
    stop();
    expect(win.count('online')).toBe(0);
  });

  it('with a controlling worker it posts {type:"drain"} and takes the worker\'s answer; a 401 reaches onAuthRequired', async () => {
    db = freshDb();
    const posted: unknown[] = [];
    const { env, sw, doc } = pageEnv({ postMessage: (m) => posted.push(m) });
    const auth = vi.fn();
    const off = onAuthRequired(auth);
    stop = startDrainTriggers({ db, fetch: scriptedFetch().fetch, getToken: () => 't', env });
    expect(posted).toEqual([{ type: 'drain' }]);
    doc.fire('visibilitychange');
    syncNow();
    expect(posted).toEqual([{ type: 'drain' }, { type: 'drain' }, { type: 'drain', trigger: 'asked' }]);
    const drained = (remaining: number) => ({
      type: 'outbox-drained',
      result: { sent: 0, retried: 0, parked: 0, paused: true, offline: false, busy: false, remaining, nextAttemptAt: null },
    });
    sw.fire('message', drained(0)); // signed out with nothing queued: no banner
    expect(auth).not.toHaveBeenCalled();
    sw.fire('message', drained(1));
    expect(auth).toHaveBeenCalledTimes(1);
    off();
  });

  it('a page drain that hits 401 tells the UI', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    api.on(() => true, json(401, { errors: ['x'] }));
    const auth = vi.fn();
    const off = onAuthRequired(auth);
    stop = startDrainTriggers({ db, fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test', env: pageEnv().env });
    await vi.waitFor(() => expect(auth).toHaveBeenCalled(), WAIT);
    expect(await db.outbox.count()).toBe(1);
    off();
  });
});
