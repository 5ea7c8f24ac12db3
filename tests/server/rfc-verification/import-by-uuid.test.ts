// Importing an invoice we issued by its UUID (the SAT QR scan): only into an account that proved its RFC,
// and only with the QR's re, rr and tt matching the stored CFDI as well as the UUID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { DRIVERS } from '../helpers/harness';
import { markRfcVerifiedForTest } from '../helpers/rfc-verified';
import { invoicingEnv, merchantTicket, MOVIL_NORTE, requester, requestRow, type InvoicingEnv } from '../invoicing/invoicing-helpers';

const DAY = 86_400_000;
const ISSUER = 'EKU9003173C9';
const RECEIVER = 'XIQB891116QE4';

describe.each(DRIVERS)('import by UUID on %s', (driver) => {
  let env: InvoicingEnv;
  let uuid: string;
  let total: string;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
    const t = await merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '5'), issuedAt: new Date(Date.now() - DAY), postalCode: '64000' });
    const made = await env.call('POST', `/api/v33/tickets/${t.ref}/invoice4`, {
      body: { client: 0, email: 'cliente@example.com', rfc: RECEIVER, uso_cfdi: 'G03', nombre: 'BERENICE XIMO QUEZADA', regimen_fiscal_receptor: '612', codigo_postal: '88965' },
    });
    expect(made.status, made.text).toBe(202);
    await env.drain();
    const row = await requestRow(env, made.json.response.request_id);
    expect(row.status).toBe('enviada');
    uuid = row.uuid!;
    total = t.total;
  }, 180_000);
  afterAll(async () => {
    await env?.close();
  });

  const importIt = (token: string, body: Record<string, unknown>) => env.call('POST', '/api/v3/cfdi/import', { token, body });

  it('refuses an unverified account, even with the whole QR (403, saying how to verify)', async () => {
    const u = await requester(env);
    const r = await importIt(u.token, { uuid, re: ISSUER, rr: RECEIVER, tt: total });
    expect([r.status, r.json]).toEqual([403, { errors: [MSG.rfcNotVerifiedImport] }]);
  });

  it('refuses a verified account without the QR data, or with data that does not match', async () => {
    const u = await requester(env);
    await markRfcVerifiedForTest(env.h.database.db, u.clientId);
    const missing = MSG.cfdiImportQrMissing;
    expect(await importIt(u.token, { uuid })).toMatchObject({ status: 400, json: { errors: [missing] } });
    expect(await importIt(u.token, { uuid, re: ISSUER, rr: RECEIVER })).toMatchObject({ status: 400, json: { errors: [missing] } });
    expect(await importIt(u.token, { uuid, rr: RECEIVER, tt: total })).toMatchObject({ status: 400, json: { errors: [missing] } });
    const mismatch = { status: 422, json: { errors: [MSG.cfdiImportQrMismatch] } };
    expect(await importIt(u.token, { uuid, re: ISSUER, rr: RECEIVER, tt: '1.00' })).toMatchObject(mismatch);
    expect(await importIt(u.token, { uuid, re: 'AAA010101AAA', rr: RECEIVER, tt: total })).toMatchObject(mismatch);
    expect(await importIt(u.token, { uuid: '00000000-0000-4000-8000-000000000001', re: ISSUER, rr: RECEIVER, tt: total })).toMatchObject(mismatch);
    // An RFC the caller does not hold.
    expect(await importIt(u.token, { uuid, re: ISSUER, rr: 'CACX7605101P8', tt: total })).toMatchObject({ status: 422, json: { errors: [MSG.importNotYours] } });
  });

  it('imports with a verified account and the QR matching (the total as the QR writes it)', async () => {
    const u = await requester(env);
    await markRfcVerifiedForTest(env.h.database.db, u.clientId);
    const r = await importIt(u.token, { uuid: uuid.toLowerCase(), re: ISSUER.toLowerCase(), rr: RECEIVER, tt: String(Number(total)) });
    expect(r.status, r.text).toBe(200);
    const lookup = await env.call('GET', `/api/v3/cfdi/lookup?id=${uuid}&re=${ISSUER}&rr=${RECEIVER}&tt=${total}`, { token: u.token });
    expect(lookup.json.response).toMatchObject({ state: 'imported', ticket_id: r.json.response.ticket_id });
  });
});
