// The server never logs a query string that holds a secret (DESIGN §3): the log line of an unexpected
// error keeps the method, the path and the error, with every token, signed link or OAuth secret hidden.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { createApp } from '../../../src/server/app';
import { createDb, type Database } from '../../../src/server/db/client';
import { redactSecrets } from '../../../src/server/http/log-redact';

const TOKEN = 'tok3nSecreto0123456789abcdef';
const LINK = '7.1900000000.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('redacting secrets from what the server logs', () => {
  it('hides the values of token, link, signature and OAuth parameters, and keeps the rest', () => {
    const text = [
      `GET /receipt_pdf?receipt_id=r1&access_token=${TOKEN}&download=1`,
      `https://x.mx/a?token=${TOKEN}#frag`,
      `/api/v2/ticket_image?ticket_id=t1&link=${LINK}`,
      `/x?sig=${TOKEN}&exp=123`,
      `/api/v2/tickets?user[token]=${TOKEN}&usuario%5Btoken%5D=${TOKEN}`,
      `/oauth/access_token.json?oauth_token=${TOKEN}&oauth_verifier=${TOKEN}&client_secret=${TOKEN}`,
      `"url":"/p?password=${TOKEN}"`,
    ].join('\n');
    const out = redactSecrets(text);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(LINK);
    expect(out).toBe(
      [
        'GET /receipt_pdf?receipt_id=r1&access_token=[oculto]&download=1',
        'https://x.mx/a?token=[oculto]#frag',
        '/api/v2/ticket_image?ticket_id=t1&link=[oculto]',
        '/x?sig=[oculto]&exp=123',
        '/api/v2/tickets?user[token]=[oculto]&usuario%5Btoken%5D=[oculto]',
        '/oauth/access_token.json?oauth_token=[oculto]&oauth_verifier=[oculto]&client_secret=[oculto]',
        '"url":"/p?password=[oculto]"',
      ].join('\n'),
    );
  });

  it('leaves text without query secrets alone', () => {
    const text = 'Error: no such table: tickets\n    at /srv/app.ts:12:3 (token refused)';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('the log line of an unexpected error', () => {
  let database: Database;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    // The error path needs no tables: an empty embedded database keeps this quick.
    database = await createDb({});
    app = createApp({ db: database.db, mailer: { send: async () => ({ rejected: [] }) } });
    // A failure that quotes the request's whole URL, as a library that choked on it would.
    app.get('/zz-falla', (c) => {
      throw new Error(`no se pudo leer ${c.req.url}`, { cause: new Error(`causa: ${c.req.url}`) });
    });
  });
  afterAll(async () => database?.close());

  it('answers the generic 500 and logs the path and the error without the token of the query', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void lines.push(parts.map(String).join(' ')));
    try {
      const res = await app.request(`/zz-falla?receipt_id=r1&access_token=${TOKEN}&link=${LINK}`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ errors: [MSG.generic] });
    } finally {
      spy.mockRestore();
    }
    const logged = lines.join('\n');
    expect(logged).toContain('[api] GET /zz-falla');
    expect(logged).toContain('no se pudo leer http://localhost/zz-falla?receipt_id=r1&access_token=[oculto]&link=[oculto]');
    expect(logged).toContain('causa: http://localhost/zz-falla?receipt_id=r1&access_token=[oculto]');
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(LINK);
  });
});
