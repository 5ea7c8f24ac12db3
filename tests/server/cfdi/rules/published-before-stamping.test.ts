// Before stamping, the rules that need published data use what the server keeps: a merchant whose RFC
// is on SAT's Cancelados list (inactive_rfcs) cannot issue — CFDI40138, as a PAC would answer —, so the
// request ends in error with the spec's message and nothing reaches the PAC; the same RFC on another
// list (69-B) is not cancelled and the invoice is stamped.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../../src/domain/messages';
import { inactiveRfcs } from '../../../../src/server/db/schema';
import { processInvoiceRequest, type InvoiceDeps } from '../../../../src/server/invoicing/process';
import { merchantSide } from '../../../../src/server/wiring';
import { DRIVERS } from '../../helpers/harness';
import { COPEXA, copexaValues, folio, invoicingEnv, merchantTicket, requester, requestRow, type InvoicingEnv } from '../../invoicing/invoicing-helpers';
import { depsRecordingStamps } from './recording-pac';

const DAY = 86_400_000;

describe.each(DRIVERS)('published data before stamping on %s', (driver) => {
  let env: InvoicingEnv;
  let deps: InvoiceDeps;
  let merchantRfc: string;
  const sent: string[] = [];
  beforeAll(async () => {
    env = await invoicingEnv(driver);
    deps = depsRecordingStamps(env, sent);
    merchantRfc = (await merchantSide.issuerOf(env.h.database.db, COPEXA.id))!.rfc;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  async function ask(): Promise<string> {
    const u = await requester(env, { taxRegime: '612' });
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - 2 * DAY), postalCode: '44100' });
    const r = await env.call('POST', '/form/ticket_create', {
      token: u.token, body: { usuario: { rfc: u.rfc }, company: { id: COPEXA.id }, ticket: copexaValues(t), additional_info: { uso_cfdi: 'G03' } },
    });
    env.queued.splice(0);
    expect(r.status, r.text).toBe(200);
    return r.json.response.request_id as string;
  }

  it('a merchant on SAT\'s Cancelados list: error with the spec\'s message, nothing sent to the PAC', async () => {
    const id = await ask();
    await env.h.database.db.insert(inactiveRfcs).values({ rfc: merchantRfc, list: 'Cancelados' });
    try {
      const before = sent.length;
      expect(await processInvoiceRequest(deps, id)).toBe('rejected');
      expect(sent.length).toBe(before);
      expect(await requestRow(env, id)).toMatchObject({ status: 'error', error: MSG.invoiceRejected, uuid: null, sealedXmlKey: null });
    } finally {
      await env.h.database.db.delete(inactiveRfcs).where(eq(inactiveRfcs.rfc, merchantRfc));
    }
  }, 60_000);

  it('the same merchant on the 69-B list (registered, not cancelled) is stamped', async () => {
    const id = await ask();
    await env.h.database.db.insert(inactiveRfcs).values({ rfc: merchantRfc, list: '69-B' });
    try {
      expect(await processInvoiceRequest(deps, id)).toBe('enviada');
    } finally {
      await env.h.database.db.delete(inactiveRfcs).where(eq(inactiveRfcs.rfc, merchantRfc));
    }
  }, 60_000);
});
