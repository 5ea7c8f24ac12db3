// The development tools (/dev/mailbox with every reset link, mail attachments, merchant tickets, the
// simulated SAT portal) exist only in the embedded demo and answer only a browser on this machine: the
// socket's own address, never X-Forwarded-For, and nothing a proxy or tunnel relayed.
import type { NetworkInterfaceInfo } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { createApp } from '../../../src/server/app';
import { listenOrigin, readEnv } from '../../../src/server/config';
import { mailMessages, satPortalAccounts } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { createHarness, DRIVERS, socketEnv, type Harness } from '../helpers/harness';

/** One value for each setting that means "this is not the embedded demo". */
const PRODUCTION: Record<string, string> = {
  DATABASE_URL: 'postgres://cc@db.internal:5432/cuentas',
  SMTP_URL: 'smtp://mail.example.mx:587',
  PUBLIC_URL: 'https://cuentasclaras.example.mx',
  NODE_ENV: 'production',
};

describe('readEnv: dev tools, bind address and the base of links', () => {
  it('the embedded demo: dev tools on, bound to 127.0.0.1, links to localhost on its port', () => {
    const env = readEnv({});
    expect(env.app.devTools).toBe(true);
    expect(env.host).toBe('127.0.0.1');
    expect(env.app.publicUrl).toBe('http://localhost:8080');
    expect(readEnv({ PORT: '9090' }).app.publicUrl).toBe('http://localhost:9090');
    // Empty values are unset (the e2e harness passes DATABASE_URL='' and SMTP_URL='').
    expect(readEnv({ DATABASE_URL: '', SMTP_URL: '', PUBLIC_URL: '', NODE_ENV: 'test' }).app.devTools).toBe(true);
  });

  it.each(Object.entries(PRODUCTION))('%s turns the dev tools off and binds every interface', (name, value) => {
    const env = readEnv({ [name]: value });
    expect(env.app.devTools).toBe(false);
    expect(env.host).toBeUndefined();
    expect(readEnv({ [name]: value, HOST: '10.0.0.4' }).host).toBe('10.0.0.4');
  });

  it('HOST=0.0.0.0 (a phone on the LAN) keeps the dev tools for this machine and links to the LAN address', () => {
    const env = readEnv({ HOST: '0.0.0.0' });
    expect(env.host).toBe('0.0.0.0');
    expect(env.app.devTools).toBe(true);
    const nic = (address: string, family: 'IPv4' | 'IPv6', internal: boolean): NetworkInterfaceInfo =>
      ({ address, family, internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;
    const interfaces = { lo: [nic('127.0.0.1', 'IPv4', true)], eth0: [nic('fe80::1', 'IPv6', false), nic('192.168.1.20', 'IPv4', false)] };
    expect(listenOrigin('0.0.0.0', 8080, interfaces)).toBe('http://192.168.1.20:8080');
    expect(listenOrigin('::', 8080, { lo: interfaces.lo })).toBe('http://localhost:8080');
    expect(listenOrigin('127.0.0.1', 3000, {})).toBe('http://127.0.0.1:3000');
    expect(listenOrigin('::1', 3000, {})).toBe('http://[::1]:3000');
    expect(readEnv({ HOST: '127.0.0.1', PORT: '3000' }).app.publicUrl).toBe('http://127.0.0.1:3000');
    expect(listenOrigin('fd00::5', 80, {})).toBe('http://[fd00::5]:80');
    expect(listenOrigin('cuentas.lan', 8080, {})).toBe('http://cuentas.lan:8080');
  });

  it('PUBLIC_URL is the base of links, without a trailing slash; anything but http(s) stops the start', () => {
    expect(readEnv({ PUBLIC_URL: 'https://cc.example.mx/app/' }).app.publicUrl).toBe('https://cc.example.mx/app');
    expect(readEnv({ PUBLIC_URL: 'https://cc.example.mx' }).app.publicUrl).toBe('https://cc.example.mx');
    for (const bad of ['cuentasclaras.mx', 'javascript:alert(1)']) {
      expect(() => readEnv({ PUBLIC_URL: bad })).toThrow(`PUBLIC_URL debe ser una dirección http(s) completa, por ejemplo https://cuentasclaras.mx (se recibió «${bad}»)`);
    }
  });
});

describe.each(DRIVERS)('dev tools over HTTP on %s', (driver) => {
  let h: Harness;
  let mailId: number;
  const PDF = Buffer.from('%PDF-1.4 factura de alguien más');

  interface From {
    /** The socket's peer address; null = a request with no socket information at all. */
    socket?: string | null;
    headers?: Record<string, string>;
  }
  /** The four dev tools, as `from` would call them; `app` defaults to the harness's (dev tools on). */
  async function callAll(from: From, app = h.app): Promise<Response[]> {
    const env = from.socket === null ? undefined : socketEnv(from.socket ?? '127.0.0.1');
    const get = (path: string) => app.request(path, { headers: from.headers }, env);
    const form = new FormData();
    form.set('rfc', 'GODE561231GR8');
    form.set('ciec', 'Intruso2026');
    return Promise.all([
      get('/dev/mailbox'),
      get(`/dev/mailbox/${mailId}/attachments/0`),
      get('/dev/merchant-tickets'),
      app.request('/dev/sat-portal', { method: 'POST', body: form, headers: from.headers }, env),
    ]);
  }
  async function expectNotFound(responses: Response[]): Promise<void> {
    for (const r of responses) {
      expect(r.status, r.url).toBe(404);
      expect(await r.json(), r.url).toEqual({ errors: [MSG.notFound] });
    }
    // The portal account was not opened (or overwritten).
    expect(await h.database.db.select().from(satPortalAccounts).where(eq(satPortalAccounts.rfc, 'GODE561231GR8'))).toEqual([]);
  }

  beforeAll(async () => {
    h = await createHarness(driver);
    const [row] = await h.database.db
      .insert(mailMessages)
      .values({ to: 'ana@example.com', subject: 'Tu factura', text: 'Adjunta.', attachments: [{ filename: 'factura.pdf', contentType: 'application/pdf', base64: PDF.toString('base64') }] })
      .returning({ id: mailMessages.id });
    mailId = row!.id;
  }, 180_000);
  afterAll(async () => h?.close());

  it.each([
    ['a LAN address (the demo with HOST=0.0.0.0)', { socket: '192.168.1.20' }],
    ['an IPv4-mapped LAN address', { socket: '::ffff:10.0.0.7' }],
    ['an IPv6 address', { socket: '2001:db8::7' }],
    ['a remote socket claiming 127.0.0.1 in X-Forwarded-For (TRUST_PROXY is on)', { socket: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } }],
    ['a proxy on this machine relaying a client (X-Forwarded-For)', { socket: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.4' } }],
    ['a tunnel on this machine relaying a client (Forwarded)', { socket: '::1', headers: { forwarded: 'for=198.51.100.4;proto=https' } }],
    ['a tunnel on this machine relaying a client (X-Real-IP)', { socket: '127.0.0.1', headers: { 'x-real-ip': '198.51.100.4' } }],
    ['a request without socket information', { socket: null }],
  ] satisfies [string, From][])('answers the JSON 404 to %s', async (_label, from) => {
    await expectNotFound(await callAll(from));
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('serves a browser on this machine (%s)', async (socket) => {
    const [mailbox, attachment, merchants, portal] = await callAll({ socket });
    expect(mailbox!.status).toBe(200);
    expect(await mailbox!.text()).toContain('<h1>Buzón de desarrollo</h1>');
    expect(attachment!.status).toBe(200);
    expect(Buffer.from(await attachment!.arrayBuffer())).toEqual(PDF);
    expect(merchants!.status).toBe(200);
    expect(await merchants!.text()).toContain('<h1>Tickets de comercios (desarrollo)</h1>');
    expect(portal!.status).toBe(200);
    expect(await portal!.text()).toContain('Cuenta del portal guardada para <code>GODE561231GR8</code>.');
    await h.database.db.delete(satPortalAccounts).where(eq(satPortalAccounts.rfc, 'GODE561231GR8'));
    // The harness's own calls, as a browser on this machine.
    expect((await h.call('GET', '/dev/mailbox', { direct: true, socket })).status).toBe(200);
  });

  it.each(Object.entries(PRODUCTION))('with %s set, the app answers the JSON 404 even to this machine', async (name, value) => {
    const config = readEnv({ [name]: value }).app;
    const app = createApp({ db: h.database.db, mailer: devMailboxMailer(h.database.db), config });
    await expectNotFound(await callAll({ socket: '127.0.0.1' }, app));
  });
});
