// Bad input gets a clear Spanish 4xx: control characters (NUL…) are refused where text comes in (JSON
// bodies, query strings, path segments, data headers, multipart fields), validation never answers in
// valibot's English, legacy '' in optional numbers reads as absent, and an unexpected database error is
// logged without the request's values.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MSG } from '../../../src/domain/messages';
import { manualTicketPayload } from '../../../src/domain/spending-form';
import { createApp } from '../../../src/server/app';
import { tickets } from '../../../src/server/db/schema';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { createHarness, DRIVERS, freshIp, type ApiResult, type Harness } from '../helpers/harness';
import { income, ownerWithRfc, pngOfSize, spending, uploadImage, type Owner } from '../tickets/ticket-fixtures';

const ENGLISH = /Invalid|Expected|received/;
const controlIn = (field: string) => `El campo «${field}» contiene caracteres no permitidos. Quítalos e intenta de nuevo.`;
/** A value that must never reach a log line. */
const SECRET = 'sk_live_NoLoDigas4f9c';

describe.each(DRIVERS)('input hygiene on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  let logged: MockInstance<typeof console.error>;
  const logText = () => logged.mock.calls.map((args) => args.map((x) => (x instanceof Error ? `${x.stack} ${String(x.cause)}` : String(x))).join(' ')).join('\n');

  beforeAll(async () => {
    h = await createHarness(driver);
    a = await ownerWithRfc(h);
  });
  afterAll(async () => h?.close());
  beforeEach(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  const refused = (r: ApiResult, message: string) => {
    expect(r.status, r.text).toBe(400);
    expect(r.json).toEqual({ errors: [message] });
    expect(logText()).not.toContain(SECRET);
  };

  describe('control characters', () => {
    it('refuses a NUL in a ticket note, and stores nothing', async () => {
      const body = manualTicketPayload(spending({ note: `nota ${SECRET}\u0000` }), a.rfc, newId());
      refused(await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body }), controlIn('additional_info.note'));
      expect(await h.database.db.select().from(tickets).where(eq(tickets.id, body.additional_info.ticket_id))).toHaveLength(0);
    });

    it('refuses a NUL in a chat message, a tax account name and a sign-in', async () => {
      refused(await h.call('POST', '/api/v3/chat/messages', { token: a.token, body: { body: `hola ${SECRET}\u0000` } }), controlIn('body'));
      refused(
        await h.call('POST', '/new_client', { token: a.token, body: { client: { rfc: 'EKU9003173C9', name: `Escuela\u0000${SECRET}` } } }),
        controlIn('client.name'),
      );
      refused(await h.call('POST', '/api/v2/login', { body: { user: { login: `demo\u0000${SECRET}`, password: 'x' } } }), controlIn('user.login'));
      refused(
        await h.call('POST', '/api/v2/create_user', { body: { user: { username: `ana${SECRET}\u0000`, email: 'ana@example.com', password: 'contraseña-segura-1' } } }),
        controlIn('user.username'),
      );
    });

    it('refuses the other C0 controls (escape, backspace, form feed, in values and keys) but keeps tab and line breaks', async () => {
      for (const c of ['\u0001', '\u001b', '\b', '\f', '\u000b', '\u001f']) {
        refused(await h.call('POST', '/api/v3/chat/messages', { token: a.token, body: { body: `a${c}b` } }), controlIn('body'));
      }
      refused(await h.call('POST', '/api/v2/login', { body: { user: { ['login\u0000']: 'demo', password: 'x' } } }), controlIn('user'));
      refused(await h.call('POST', '/api/v2/login', { raw: '"\\u0000"' }), MSG.requestControlChars);
      const note = 'línea 1\n\tlínea 2\r\nfin';
      const body = manualTicketPayload(spending({ note }), a.rfc, newId());
      const ok = await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body });
      expect(ok.status, ok.text).toBe(200);
      const [row] = await h.database.db.select({ note: tickets.note }).from(tickets).where(eq(tickets.id, body.additional_info.ticket_id));
      expect(row?.note).toBe(note);
    });

    it('refuses control characters in a query string, a path segment and a data header', async () => {
      refused(
        await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}%00${SECRET}&date[year]=2026&date[month]=1`, { token: a.token }),
        controlIn('usuario[rfc_owner]'),
      );
      refused(await h.call('GET', `/api/v3/chat?after=%1B${SECRET}`, { token: a.token }), controlIn('after'));
      refused(await h.call('GET', `/api/v3/analytics/spending/${a.rfc}%00${SECRET}/2026`, { token: a.token }), MSG.requestControlChars);
      refused(
        await h.call('POST', '/api/v3/chat/messages', { token: a.token, body: { body: 'hola' }, headers: { 'Idempotency-Key': `k\u0001${SECRET}` } }),
        MSG.requestControlChars,
      );
      // An encoded percent sign is text, not a control character.
      expect((await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=1&x=%2500`, { token: a.token })).status).toBe(200);
    });

    it('refuses control characters in multipart text fields and file names', async () => {
      const created = await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body: manualTicketPayload(spending(), a.rfc, newId()) });
      const ticketId = created.json.response.ticket.ticket_id as string;
      const form = new FormData();
      form.append('images[0]', new Blob([new Uint8Array(pngOfSize(64))], { type: 'image/png' }), 'recibo.png');
      form.append('comentario', `hola\u0000${SECRET}`);
      const res = await h.app.request(`/tickets/${ticketId}/attach_image`, { method: 'POST', headers: { 'x-access-token': a.token }, body: form });
      refused({ status: res.status, json: await res.json(), text: '', headers: res.headers }, controlIn('comentario'));
      const named = await uploadImage(h, a.token, ticketId, pngOfSize(64), { name: 'recibo\u001b.png' });
      expect(named.status).toBe(400);
      expect(named.json).toEqual({ errors: [controlIn('images[0]')] });
      expect((await uploadImage(h, a.token, ticketId, pngOfSize(64))).status).toBe(204);
    });

    it("refuses control characters in the import's account field and file names, and queues nothing", async () => {
      const queued: unknown[] = [];
      const app = createApp({ db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), imports: { enqueue: async (job) => void queued.push(job) }, config: { trustProxy: true } });
      const send = async (name: string, rfc?: string) => {
        const form = new FormData();
        form.append('file', new Blob([new TextEncoder().encode('<cfdi/>')]), name);
        if (rfc !== undefined) form.append('rfc', rfc);
        const res = await app.request(`/api/v3/users/${a.userId}/files`, { method: 'POST', headers: { 'x-access-token': a.token, 'x-forwarded-for': freshIp() }, body: form });
        return { status: res.status, json: await res.json(), text: '', headers: res.headers } as ApiResult;
      };
      refused(await send('factura.xml', `${a.rfc}\u0000${SECRET}`), controlIn('rfc'));
      refused(await send(`factura\u0000${SECRET}.xml`), controlIn('file'));
      expect(queued).toEqual([]);
      expect((await send('factura.xml', a.rfc)).status).toBe(200);
    });
  });

  describe('validation speaks Spanish', () => {
    it('answers invalid bodies on several routes with Spanish messages, never English', async () => {
      const cases: [string, string, unknown, number, string][] = [
        ['POST', '/api/v2/login', {}, 400, MSG.loginEmpty],
        ['POST', '/api/v2/login', 5, 400, MSG.loginEmpty],
        ['POST', '/api/v2/create_user', { usuario: {} }, 400, MSG.accountEmpty],
        ['POST', '/api/v2/password_reset', [], 400, MSG.resetLoginEmpty],
        ['POST', '/api/v2/password_reset/confirm', {}, 400, 'El campo «token» es obligatorio.'],
        ['POST', '/form/ticket_create?format=json', {}, 400, 'El campo «usuario» es obligatorio.'],
        ['POST', '/form/ticket_create?format=json', { ...manualTicketPayload(spending(), a.rfc, newId()), ticket: [{ form_configuration_id: {}, value: 'x' }] }, 400, 'El campo «ticket[0].form_configuration_id» no tiene un valor válido.'],
        ['POST', '/api/v3/chat/messages', 7, 422, MSG.badJson],
      ];
      const lat = manualTicketPayload(spending(), a.rfc, newId()) as unknown as { additional_info: Record<string, unknown> };
      lat.additional_info.latitude = 'norte';
      cases.push(['POST', '/form/ticket_create?format=json', lat, 400, 'El campo «additional_info.latitude» no tiene un valor válido.']);
      for (const [method, path, body, status, message] of cases) {
        const r = await h.call(method, path, { token: a.token, body });
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(status);
        expect(r.json, `${path} ${JSON.stringify(body)}`).toEqual({ errors: [message] });
        expect(r.text).not.toMatch(ENGLISH);
      }
    });

    it('documents the optional numbers as the API reads them (a number, a numeric string, or null)', async () => {
      const r = await h.call('GET', '/api/openapi.json');
      expect(r.status).toBe(200);
      const info = r.json.paths['/form/ticket_create'].post.requestBody.content['application/json'].schema.anyOf[0].properties.additional_info;
      const types = (s: unknown): string[] => JSON.stringify(s).match(/"type":"\w+"/g) ?? [];
      for (const field of ['latitude', 'longitude', 'income_meta_tag']) {
        expect(types(info.properties[field]).sort(), field).toEqual(['"type":"null"', '"type":"number"', '"type":"string"']);
      }
      expect(info.properties.ticket_type.default).toBe(2);
    });
  });

  describe("legacy '' in optional numbers", () => {
    it("creates a ticket sent with latitude, longitude and income_meta_tag as ''", async () => {
      const body = manualTicketPayload(spending(), a.rfc, newId()) as unknown as { additional_info: Record<string, unknown> & { ticket_id: string } };
      Object.assign(body.additional_info, { latitude: '', longitude: '', income_meta_tag: '', ticket_status: '' });
      const r = await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body });
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual({ response: { ticket: { ticket_id: body.additional_info.ticket_id } } });
      const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, body.additional_info.ticket_id));
      expect(row).toMatchObject({ latitude: null, longitude: null, incomeMetaTagId: null, metaTagId: 1, statusId: 3 });

      const earning = manualTicketPayload(income(), a.rfc, newId()) as unknown as { additional_info: Record<string, unknown> & { ticket_id: string } };
      Object.assign(earning.additional_info, { latitude: '19.4326', longitude: '-99.1332', meta_tag: '' });
      const r2 = await h.call('POST', '/form/ticket_create?format=json', { token: a.token, body: earning });
      expect(r2.status, r2.text).toBe(200);
      const [row2] = await h.database.db.select().from(tickets).where(eq(tickets.id, earning.additional_info.ticket_id));
      expect(row2).toMatchObject({ latitude: 19.4326, longitude: -99.1332, metaTagId: null, incomeMetaTagId: 2 });
    });
  });

  describe('logging', () => {
    it('logs an unexpected database error by class, code and constraint, without the values of the query', async () => {
      await h.database.db.execute(sql.raw(`ALTER TABLE chat_messages ADD CONSTRAINT zz_hygiene_probe CHECK (body NOT LIKE '%sk_live%')`));
      try {
        const r = await h.call('POST', '/api/v3/chat/messages', { token: a.token, body: { body: `mi clave ${SECRET}` } });
        expect(r.status).toBe(500);
        expect(r.json).toEqual({ errors: [MSG.generic] });
      } finally {
        await h.database.db.execute(sql.raw('ALTER TABLE chat_messages DROP CONSTRAINT zz_hygiene_probe'));
      }
      const text = logText();
      expect(text).toContain('[api] POST /api/v3/chat/messages DrizzleQueryError');
      expect(text).toContain('23514');
      expect(text).toContain('zz_hygiene_probe');
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/params|insert into/i);
    });
  });
});
