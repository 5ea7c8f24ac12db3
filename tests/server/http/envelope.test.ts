import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { createApp } from '../../../src/server/app';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('envelope and errors on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('answers malformed JSON with 400 and the Spanish message', async () => {
    const r = await h.call('POST', '/api/v2/login', { raw: '{"user": {"login": "demo",' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ errors: [MSG.badJson] });
  });

  it('answers wrong types with the schema message and ignores unknown fields', async () => {
    const wrong = await h.call('POST', '/api/v2/login', { body: { user: { login: 5, password: 'x' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ errors: [MSG.loginEmpty] });
    const extra = await h.call('POST', '/api/v2/login', {
      body: { user: { login: 'demo', password: 'cuentasclaras', admin: true }, device: { device: 'web', x: 1 }, otro: [1, 2] },
    });
    expect(extra.status).toBe(200);
    expect(Object.keys(extra.json.response).sort()).toEqual(['device_token', 'email', 'token', 'user_id', 'username']);
  });

  it('refuses bodies over 1 MB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ user: { login: 'demo', password: 'x'.repeat(1024 * 1024) } });
    const declared = await h.call('POST', '/api/v2/login', { raw: big });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({ errors: [MSG.bodyTooLarge] });
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ > 20) ctrl.close();
        else ctrl.enqueue(chunk);
      },
    });
    const res = await h.app.request('/api/v2/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ errors: [MSG.bodyTooLarge] });
  });

  it('answers an unknown API path with 404 in the envelope', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/no_existe'],
      ['POST', '/api/v9/algo'],
      ['GET', '/no/existe.json'],
    ] as const) {
      const r = await h.call(method, path, method === 'POST' ? { body: {} } : {});
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.notFound] });
    }
  });

  it('turns an unexpected failure into 500 with the generic message and no stack trace', async () => {
    const app = createApp({
      db: h.database.db,
      mailer: {
        send: async () => {
          throw new Error('smtp caído en /srv/secret.ts:12');
        },
      },
    });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const res = await app.request('/api/v2/password_reset', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { login: 'demo' } }),
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ errors: [MSG.generic] });
      expect(text).not.toContain('secret');
      expect(quiet).toHaveBeenCalled();
    } finally {
      quiet.mockRestore();
    }
  });
});
