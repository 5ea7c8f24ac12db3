import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AppDb } from '../../src/offline/db';
import { installOutboxDrain, type WorkerScope } from '../../src/offline/worker-drain';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { CTX, expenseForm, freshDb, scriptedFetch } from './outbox-fixtures';

let db: AppDb;
const WAIT = { timeout: 5_000 };
afterEach(async () => {
  await db.delete();
});

type Ev = { tag?: string; data?: unknown; waitUntil(p: Promise<unknown>): void };

function fakeScope() {
  const listeners = new Map<string, (e: Ev) => void>();
  const posted: unknown[] = [];
  const scope: WorkerScope = {
    addEventListener: (type, l) => void listeners.set(type, l),
    clients: { matchAll: async () => [{ postMessage: (m: unknown) => posted.push(m) }] },
  };
  const fire = (type: string, e: Omit<Ev, 'waitUntil'>) => {
    let waited: Promise<unknown> = Promise.resolve();
    listeners.get(type)?.({ ...e, waitUntil: (p) => (waited = p) });
    return waited;
  };
  return { scope, fire, posted };
}

describe('installOutboxDrain (service worker)', () => {
  it('drains at start-up and on {type:"drain"}, posting the result to every window', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    const { scope, fire, posted } = fakeScope();
    installOutboxDrain(scope, { getDb: () => db, getToken: () => 't', fetch: api.fetch });
    await vi.waitFor(() => expect(posted).toHaveLength(1), WAIT);
    expect(posted[0]).toMatchObject({ type: 'outbox-drained', result: { sent: 1, remaining: 0 } });
    await createManualTicket(db, expenseForm({ amount: '3' }), CTX);
    await fire('message', { data: { type: 'drain' } });
    await fire('message', { data: { type: 'SKIP_WAITING' } });
    expect(posted).toHaveLength(2);
    expect(api.sent).toHaveLength(2);
  });

  it('a sync event while still offline rejects, so the browser fires it again later', async () => {
    db = freshDb();
    const api = scriptedFetch();
    const { scope, fire, posted } = fakeScope();
    installOutboxDrain(scope, { getDb: () => db, getToken: () => 't', fetch: api.fetch });
    await vi.waitFor(() => expect(posted).toHaveLength(1), WAIT);
    await createManualTicket(db, expenseForm(), CTX);
    api.on(() => true, 'network');
    await expect(fire('sync', { tag: 'outbox' })).rejects.toThrow();
    await expect(fire('sync', { tag: 'outbox' })).resolves.toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    await expect(fire('sync', { tag: 'other' })).resolves.toBeUndefined();
  });

  // Older browsers (Chrome before 116, Safari before 17.4) have no AbortSignal.any: the cut must not need it.
  it.each([['', false], [' (a browser without AbortSignal.any)', true]])('stops a send in flight when the page accepts an update, and sends nothing more, so the new worker can take over%s', async (_, old) => {
    const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any');
    onTestFinished(() => {
      if (any) Object.defineProperty(AbortSignal, 'any', any);
    });
    let [install, create] = [installOutboxDrain, createManualTicket];
    if (old) {
      // Loaded again once it is gone: ky decides at load whether to use it.
      delete (AbortSignal as { any?: unknown }).any;
      vi.resetModules();
      install = (await import('../../src/offline/worker-drain')).installOutboxDrain;
      create = (await import('../../src/offline/operations/ticket-create')).createManualTicket;
    }
    db = freshDb();
    const { scope, fire, posted } = fakeScope();
    const requests: Request[] = [];
    // A connection that never answers: the request ends only when it is aborted.
    const hanging = (req: Request) => {
      requests.push(req);
      return new Promise<Response>((_, reject) => {
        req.signal.addEventListener('abort', () => reject(new DOMException('cortada', 'AbortError')));
      });
    };
    install(scope, { getDb: () => db, getToken: () => 't', fetch: hanging });
    await vi.waitFor(() => expect(posted).toHaveLength(1), WAIT); // start-up: nothing queued
    await create(db, expenseForm(), CTX);
    const inFlight = fire('message', { data: { type: 'drain' } });
    await vi.waitFor(() => expect(requests).toHaveLength(1), WAIT);
    let settled = false;
    void inFlight.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);

    await fire('message', { data: { type: 'drain-stop' } });
    await vi.waitFor(() => expect(settled).toBe(true), { timeout: 2_000 });
    expect(await db.outbox.count()).toBe(1); // still queued, for the new version to send
    await fire('message', { data: { type: 'drain', trigger: 'asked' } });
    await expect(fire('sync', { tag: 'outbox' })).resolves.toBeUndefined();
    expect(requests).toHaveLength(1);
  });
});
