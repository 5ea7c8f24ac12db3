import { clear, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
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
