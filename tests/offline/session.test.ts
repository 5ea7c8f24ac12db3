import { get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { kvStore } from '../../src/offline/kv-store';
import { clearSession, getSession, hasSession, loadSession, saveSession, SHORT_SESSION_MS, subscribeSession } from '../../src/offline/session';

const session = { token: 'tok-1', user_id: 7, email: 'ana@example.mx', username: 'ana' };

beforeEach(async () => {
  await clearSession();
});

describe('session', () => {
  it('a remembered session survives a restart (read back from IndexedDB)', async () => {
    await saveSession(session, true);
    expect(await get('session', kvStore())).toEqual(session);
    await loadSession();
    expect(getSession()).toEqual(session);
    expect(hasSession()).toBe(true);
  });

  it('a different person signing in finds nothing of the previous one; the same person keeps it', async () => {
    const { db } = await import('../../src/offline/db');
    await saveSession(session, true);
    await db.meta.put({ key: 'probe', fetchedAt: 1 });
    await clearSession(); // a 401: signed out, local data kept
    await saveSession({ ...session, token: 'tok-2' }, true);
    expect(await db.meta.get('probe')).toBeTruthy();
    await clearSession();
    db.close();
    await saveSession({ token: 'tok-3', user_id: 8, email: 'beto@example.mx', username: 'beto' }, true);
    await db.open();
    expect(await db.meta.get('probe')).toBeUndefined();
    expect(await get('owner', kvStore())).toBe(8);
    db.close();
  });

  it('a non-remembered session expires', async () => {
    const t0 = 1_000_000;
    const saved = await saveSession(session, false, t0);
    expect(saved.expiresAt).toBe(t0 + SHORT_SESSION_MS);
    expect(await loadSession(t0 + SHORT_SESSION_MS - 1)).toMatchObject({ token: 'tok-1' });
    expect(await loadSession(t0 + SHORT_SESSION_MS + 1)).toBeNull();
    expect(await get('session', kvStore())).toBeUndefined();
  });

  it('a malformed stored value counts as signed out and is removed', async () => {
    await set('session', { token: '' }, kvStore());
    expect(await loadSession()).toBeNull();
    expect(await get('session', kvStore())).toBeUndefined();
  });

  it('clearing signs out in memory and on disk, and tells listeners', async () => {
    const seen: (string | null)[] = [];
    const off = subscribeSession((s) => seen.push(s?.token ?? null));
    await saveSession(session, true);
    await clearSession();
    off();
    expect(seen).toEqual(['tok-1', null]);
    expect(hasSession()).toBe(false);
    expect(await get('session', kvStore())).toBeUndefined();
  });
});
