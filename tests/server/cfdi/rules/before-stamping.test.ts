// The rule engine before stamping: SAT's receiver rules decide what the invoice forms accept (605 +
// D01 goes through to an invoice, 605 + G03 and a regime of the wrong person type do not), and a
// sealed invoice with any finding ends the request in 'error' with the spec's message without ever
// reaching the PAC. The Fecha is the branch's local time.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOfCfdiFecha } from '../../../../src/domain/cfdi-time-zone';
import { MSG } from '../../../../src/domain/messages';
import { invoiceRequests } from '../../../../src/server/db/schema';
import { processInvoiceRequest, type InvoiceDeps } from '../../../../src/server/invoicing/process';
import { DRIVERS } from '../../helpers/harness';
import { COPEXA, copexaValues, folio, invoicingEnv, merchantTicket, requester, requestRow, type InvoicingEnv } from '../../invoicing/invoicing-helpers';
import { depsRecordingStamps } from './recording-pac';

const DAY = 86_400_000;

describe.each(DRIVERS)('SAT rules before stamping on %s', (driver) => {
  let env: InvoicingEnv;
  let deps: InvoiceDeps;
  const sent: string[] = [];
  beforeAll(async () => {
    env = await invoicingEnv(driver);
    deps = depsRecordingStamps(env, sent);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  /** A Copexa ticket asked for from the form by a user whose account has that regime, with that Uso. */
  async function ask(regime: string, uso: string, postalCode = '44100') {
    const u = await requester(env, { taxRegime: regime });
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - 2 * DAY), postalCode });
    const r = await env.call('POST', '/form/ticket_create', {
      token: u.token, body: { usuario: { rfc: u.rfc }, company: { id: COPEXA.id }, ticket: copexaValues(t), additional_info: { uso_cfdi: uso } },
    });
    env.queued.splice(0);
    return r;
  }

  it('605 + D01 (a salaried person\'s medical bill) is accepted and stamped', async () => {
    const r = await ask('605', 'D01');
    expect(r.status, r.text).toBe(200);
    const id = r.json.response.request_id as string;
    expect(await processInvoiceRequest(deps, id)).toBe('enviada');
    const xml = new TextDecoder().decode((await env.h.files.get((await requestRow(env, id)).xmlKey!))!);
    expect(xml).toContain('RegimenFiscalReceptor="605"');
    expect(xml).toContain('UsoCFDI="D01"');
  }, 30_000);

  it('the forms refuse what SAT refuses: 605 + G03 with the S01 message, a régimen of the wrong person type', async () => {
    expect(await ask('605', 'G03')).toMatchObject({ status: 422, json: { errors: [MSG.regimeOnlyS01] } });
    expect(await ask('601', 'G03')).toMatchObject({ status: 422, json: { errors: [MSG.regimeInvalid] } });
  }, 30_000);

  it('a sealed invoice with a finding ends in error with the spec\'s message and never reaches the PAC', async () => {
    const cases = [
      // A persona física's receiver data changed after the request to a persona moral's regime.
      { receiver: { regimen_fiscal: '601' }, error: MSG.invoiceRejected },
      // 616 accepts no Uso but S01 for a sale: the spec's S01 message.
      { receiver: { regimen_fiscal: '616', uso_cfdi: 'G03' }, error: MSG.regimeOnlyS01 },
    ];
    for (const c of cases) {
      const r = await ask('612', 'G03');
      expect(r.status, r.text).toBe(200);
      const id = r.json.response.request_id as string;
      const row = await requestRow(env, id);
      await env.h.database.db.update(invoiceRequests).set({ receiver: { ...row.receiver, ...c.receiver } }).where(eq(invoiceRequests.id, id));
      const before = sent.length;
      expect(await processInvoiceRequest(deps, id)).toBe('rejected');
      expect(sent.length).toBe(before);
      expect(await requestRow(env, id)).toMatchObject({ status: 'error', error: c.error, uuid: null, sealedXmlKey: null });
    }
  }, 30_000);

  it('an invoice issued by a Tijuana branch carries Tijuana\'s local time', async () => {
    const r = await ask('612', 'G03', '22000');
    expect(r.status, r.text).toBe(200);
    const id = r.json.response.request_id as string;
    const before = Date.now();
    expect(await processInvoiceRequest(deps, id)).toBe('enviada');
    const xml = new TextDecoder().decode((await env.h.files.get((await requestRow(env, id)).xmlKey!))!);
    expect(xml).toContain('LugarExpedicion="22000"');
    const fecha = /\sFecha="([^"]+)"/.exec(xml)![1]!;
    const at = instantOfCfdiFecha(fecha, '22000').getTime();
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
  }, 30_000);
});
