import { clear, set } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { kvStore } from '../../src/offline/kv-store';
import { DEFAULT_PREFS, loadPrefs, savePrefs } from '../../src/offline/prefs';

beforeEach(async () => {
  await clear(kvStore());
});

describe('prefs', () => {
  it('defaults when nothing is stored', async () => {
    expect(await loadPrefs()).toEqual(DEFAULT_PREFS);
  });

  it('merges and persists changes', async () => {
    await savePrefs({ sidebarPinned: true });
    await savePrefs({ defaultAccountIndex: 2, lastRoute: '/home' });
    expect(await loadPrefs()).toEqual({ sidebarPinned: true, defaultAccountIndex: 2, lastRoute: '/home' });
  });

  it('ignores stored values of the wrong type', async () => {
    await set('prefs', { sidebarPinned: 'yes', defaultAccountIndex: -1, lastRoute: 5 }, kvStore());
    expect(await loadPrefs()).toEqual(DEFAULT_PREFS);
  });
});

describe('concurrent changes', () => {
  it('two changes saved at once both survive', async () => {
    await Promise.all([savePrefs({ sidebarPinned: true }), savePrefs({ lastRoute: '/add-client' })]);
    expect(await loadPrefs()).toMatchObject({ sidebarPinned: true, lastRoute: '/add-client' });
  });
});

describe('preloaded at start-up', () => {
  // A fresh module each time: the preload is kept per page (module state).
  const freshPrefs = async () => {
    vi.resetModules();
    return import('../../src/offline/prefs');
  };

  it('hands the stored prefs to the first reader, once', async () => {
    const stored = { sidebarPinned: true, defaultAccountIndex: 1, lastRoute: '/annual' };
    await set('prefs', stored, kvStore());
    const prefs = await freshPrefs();
    expect(prefs.takePreloadedPrefs()).toBeNull(); // nothing asked for yet
    const fresh = await freshPrefs();
    expect(await fresh.preloadPrefs()).toEqual(stored);
    expect(fresh.takePreloadedPrefs()).toEqual(stored);
    expect(fresh.takePreloadedPrefs()).toBeNull();
  });

  it('gives nothing once a change has been saved: the preloaded answer may be older than it', async () => {
    await set('prefs', { defaultAccountIndex: 1 }, kvStore());
    const prefs = await freshPrefs();
    const early = prefs.preloadPrefs();
    await prefs.savePrefs({ defaultAccountIndex: 3 });
    await early;
    expect(prefs.takePreloadedPrefs()).toBeNull();
    expect((await prefs.loadPrefs()).defaultAccountIndex).toBe(3);
  });
});
