import { createStore, del, get, set } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/offline/db';
import { deviceFlag, installId, setDeviceFlag } from '../../src/offline/device-token';
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

/** A Web Storage area (Node has none): enough of the Storage interface for the wipe and the install id. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k: string) => map.get(k) ?? null,
    key: (i: number) => [...map.keys()][i] ?? null,
    removeItem: (k: string) => void map.delete(k),
    setItem: (k: string, v: string) => void map.set(k, String(v)),
  };
}

describe('logout leaves Web Storage empty (spec §1), the install id stays with the device', () => {
  afterEach(() => {
    delete (globalThis as { localStorage?: Storage }).localStorage;
    delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
  });

  it('clears localStorage and sessionStorage; the id earlier versions kept there moves to the device store and survives', async () => {
    const local = memoryStorage();
    const session = memoryStorage();
    Object.assign(globalThis, { localStorage: local, sessionStorage: session });
    local.setItem('cc-device-id', '6f1c2a8e-1111-4222-8333-944455556666');
    local.setItem('cc.pwa.ios-hint-dismissed', '1');
    local.setItem('cc.pwa.persist-asked-at', '1700000000000');
    session.setItem('anything', 'x');

    const id = await installId();
    expect(id).toBe('6f1c2a8e-1111-4222-8333-944455556666');
    expect(local.getItem('cc-device-id')).toBeNull();

    await wipeLocalData({ dbName: 'wipe-web-storage' });
    expect(local.length).toBe(0);
    expect(session.length).toBe(0);
    expect(await installId()).toBe(id);
  });

  it('what the router saves as the page unloads (its scroll positions) is emptied too', async () => {
    const session = memoryStorage();
    const page = new EventTarget(); // the window's events, which Node's global lacks
    const events = { addEventListener: page.addEventListener.bind(page), dispatchEvent: page.dispatchEvent.bind(page) };
    Object.assign(globalThis, { localStorage: memoryStorage(), sessionStorage: session, ...events });
    try {
      // The router's listener was added at start, before logout.
      page.addEventListener('pagehide', () => session.setItem('tsr-scroll-restoration-v1_3', '{"/home":{}}'));
      await wipeLocalData({ dbName: 'wipe-pagehide' });
      page.dispatchEvent(new Event('pagehide'));
      expect(session.length).toBe(0);
    } finally {
      for (const k of Object.keys(events)) delete (globalThis as Record<string, unknown>)[k];
    }
  });

  it('a fresh install gets a random id once, and the same one afterwards', async () => {
    await del('install-id', createStore('cuentas-claras-device', 'kv'));
    const first = await installId();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await installId()).toBe(first);
  });
});

describe('device flags', () => {
  it('are kept in the device store, across logout, and read back as written', async () => {
    expect(await deviceFlag('cc.pwa.ios-hint-dismissed')).toBeNull();
    await setDeviceFlag('cc.pwa.ios-hint-dismissed', '1');
    await wipeLocalData({ dbName: 'wipe-flags' });
    expect(await deviceFlag('cc.pwa.ios-hint-dismissed')).toBe('1');
  });
});
