import { get, set } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/offline/db';
import { kvStore } from '../../src/offline/kv-store';
import { getSession, saveSession } from '../../src/offline/session';
import { isPrecacheName, wipeLocalData } from '../../src/offline/wipe';
import { account } from './fixtures';

function fakeCaches(names: string[]) {
  const store = new Set(names);
  return {
    store,
    api: {
      keys: async () => [...store],
      delete: async (n: string) => store.delete(n),
    },
  };
}

afterEach(() => {
  delete (globalThis as { caches?: unknown }).caches;
});

describe('logout wipe (DESIGN §4)', () => {
  it('empties Dexie, idb-keyval and the session, and deletes every cache but the precache', async () => {
    const name = 'wipe-test-db';
    const db = createDb(name);
    await db.accounts.put(account(1, 'AAA010101AAA'));
    await saveSession({ token: 't', user_id: 1, email: 'a@b.mx', username: 'ana' }, true);
    await set('prefs', { sidebarPinned: true }, kvStore());
    const caches = fakeCaches(['workbox-precache-v2-https://app/', 'api-cache', 'images']);
    (globalThis as { caches?: unknown }).caches = caches.api;

    await wipeLocalData({ dbName: name, closeDb: () => db.close({ disableAutoOpen: false }) });

    expect(getSession()).toBeNull();
    expect(await get('session', kvStore())).toBeUndefined();
    expect(await get('prefs', kvStore())).toBeUndefined();
    expect([...caches.store]).toEqual(['workbox-precache-v2-https://app/']);
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).not.toContain(name);
    // The app keeps working after a wipe: the same Dexie instance reopens an empty database.
    expect(await db.accounts.count()).toBe(0);
    await db.delete();
  });

  it('waits for another connection (the service worker, another tab) to let go, then the database is gone', async () => {
    const name = 'wipe-held-db';
    const other = await new Promise<IDBDatabase>((resolve) => {
      const req = indexedDB.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('outbox');
      req.onsuccess = () => resolve(req.result);
    });
    // It lets go a little after being asked, as a busy worker does: the delete is blocked meanwhile.
    let asked = false;
    other.onversionchange = () => {
      asked = true;
      setTimeout(() => other.close(), 50);
    };
    await wipeLocalData({ dbName: name });
    expect(asked).toBe(true);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name);
  });

  it('works where Cache Storage does not exist', async () => {
    await expect(wipeLocalData({ dbName: 'never-created' })).resolves.toBeUndefined();
  });

  it('recognises workbox precache names only', () => {
    expect(isPrecacheName('workbox-precache-v2-https://x/')).toBe(true);
    expect(isPrecacheName('workbox-runtime')).toBe(false);
  });
});
