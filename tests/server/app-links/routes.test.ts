// The store links the login screen may show: only the ones the server is configured with, https only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoreUrl, readEnv } from '../../../src/server/config';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const APP_STORE = 'https://apps.apple.com/mx/app/cuentas-claras/id000000000';

describe.each(DRIVERS)('GET /api/v2/app_links on %s', (driver) => {
  let bare: Harness;
  let withStore: Harness;
  beforeAll(async () => {
    bare = await createHarness(driver);
    withStore = await createHarness(driver, { appStoreUrl: APP_STORE });
  });
  afterAll(async () => {
    await bare?.close();
    await withStore?.close();
  });

  it('answers null for every store that is not configured, without a session', async () => {
    const r = await bare.call('GET', '/api/v2/app_links');
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual({ app_store_url: null, play_store_url: null });
  });

  it('gives the configured store page, and only that one', async () => {
    const r = await withStore.call('GET', '/api/v2/app_links');
    expect(r.json.response).toEqual({ app_store_url: APP_STORE, play_store_url: null });
  });
});

describe('APP_STORE_URL and PLAY_STORE_URL', () => {
  it('are read once into the config; unset or empty means no link', () => {
    expect(readEnv({ PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=mx.cuentasclaras' }).app).toMatchObject({
      appStoreUrl: undefined,
      playStoreUrl: 'https://play.google.com/store/apps/details?id=mx.cuentasclaras',
    });
    expect(readEnv({ APP_STORE_URL: ' ' }).app.appStoreUrl).toBeUndefined();
  });

  it('refuse anything but a full https address, in Spanish, naming the variable', () => {
    for (const bad of ['apps.apple.com/x', 'http://apps.apple.com/x', 'javascript:alert(1)', 'https//x']) {
      expect(() => parseStoreUrl('APP_STORE_URL', bad)).toThrow(/APP_STORE_URL debe ser una dirección https/);
    }
  });
});
