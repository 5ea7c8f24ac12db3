// Invoicing end to end with PAC=finkok, pointed at a local fake of Finkok's services: the server's own PAC
// selection (pac-select.ts) builds the adapter from the environment, a merchant ticket is invoiced through
// the API (stamped by "Finkok", its receipt and ticket in the books), and refacturar cancels the old CFDI
// at Finkok with motive 01 and the new UUID, signed with the merchant's CSD found by its RFC.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinkokPac } from '../../../src/server/cfdi/finkok-pac';
import { checkTimbre } from '../../../src/server/cfdi/seal';
import { invoiceRequests, receipts } from '../../../src/server/db/schema';
import { processInvoiceRequest } from '../../../src/server/invoicing/process';
import { pacFromEnv } from '../../../src/server/pac-select';
import { DRIVERS } from '../helpers/harness';
import { invoicingEnv, merchantTicket, MOVIL_NORTE, movilNorteValues, requester, requestRow, type InvoicingEnv } from '../invoicing/invoicing-helpers';
import { startFakeFinkok, type FakeFinkok } from './finkok-fake';

const ACCOUNT = { username: 'cuentas@example.com', password: 'Finkok-demo-1' };
const DAY = 86_400_000;
const EMPRESA = { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' };
const RECEIVER = {
  email: 'dueno@example.com', rfc: 'EKU9003173C9', uso_cfdi: 'G03', nombre: 'ESCUELA KEMPER URGATE', regimen_fiscal_receptor: '601', codigo_postal: '42501',
};

describe.each(DRIVERS)('invoicing with PAC=finkok on %s', (driver) => {
  let env: InvoicingEnv;
  let fake: FakeFinkok;
  let pac: FinkokPac;
  beforeAll(async () => {
    fake = await startFakeFinkok(ACCOUNT);
    env = await invoicingEnv(driver);
    const selected = pacFromEnv(env.h.database.db, env.h.files, { PAC: 'finkok', FINKOK_USERNAME: ACCOUNT.username, FINKOK_PASSWORD: ACCOUNT.password, FINKOK_URL: fake.url });
    expect(selected).toBeInstanceOf(FinkokPac);
    pac = selected as FinkokPac;
    env.deps.pac = pac;
  }, 240_000);
  afterAll(async () => {
    await env?.close();
    await fake?.close();
  });

  const reference = () => `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7');
  const invoice4 = (ref: string, body: Record<string, unknown>, token?: string) => env.call('POST', `/api/v33/tickets/${ref}/invoice4`, { body, token });

  it('a ticket invoiced through the API is stamped by Finkok; refacturar cancels the old CFDI there (01 + FolioSustitucion), acuse kept', async () => {
    const u = await requester(env, EMPRESA);
    const t = await merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: reference(), issuedAt: new Date(Date.now() - DAY), postalCode: '64000', checkCode: 'QRK9X2' });
    const stampsBefore = fake.stampCount();
    const first = await invoice4(t.ref, { ...RECEIVER, client: u.clientId }, u.token);
    expect(first.status, first.text).toBe(202);
    await env.drain();
    const old = await requestRow(env, first.json.response.request_id);
    expect(old).toMatchObject({ status: 'enviada', uuid: expect.stringMatching(/^[0-9A-F-]{36}$/) });
    expect(fake.stampCount()).toBe(stampsBefore + 1);
    const xml = new TextDecoder().decode((await env.h.files.get(old.xmlKey!))!);
    expect(checkTimbre(xml, fake.sandbox.certificate)).toMatchObject({ ok: true });

    // The job run again after a crash between Finkok's answer and keeping it: the same timbre, none more.
    await env.h.database.db.update(invoiceRequests).set({ xmlKey: null, status: 'solicitada' }).where(eq(invoiceRequests.id, old.id));
    await processInvoiceRequest(env.deps, old.id);
    expect(fake.stampCount()).toBe(stampsBefore + 1);
    expect((await requestRow(env, old.id)).uuid).toBe(old.uuid);

    const re = await invoice4(t.ref, { ...RECEIVER, uso_cfdi: 'G01', client: u.clientId, refactura: 1, check: t.checkCode, total: t.total, ticket: movilNorteValues(t) }, u.token);
    expect(re.status, re.text).toBe(202);
    fake.calls.length = 0;
    await env.drain();
    const now = await requestRow(env, re.json.response.request_id);
    expect(now).toMatchObject({ status: 'enviada', replacesId: old.id });
    expect(fake.calls).toEqual(['stamp', 'cancel']);
    expect(await pac.cancellationStatus(old.uuid!)).toMatchObject({ state: 'cancelada', motive: '01', replacement: now.uuid });
    expect(await pac.acuse(old.uuid!)).toContain(old.uuid!);
    const [oldReceipt] = await env.h.database.db.select().from(receipts).where(eq(receipts.id, old.receiptId!));
    expect(oldReceipt).toMatchObject({ cancelStatus: 'cancelada', replacedBy: now.uuid });
  }, 120_000);
});
