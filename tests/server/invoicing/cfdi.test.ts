// The invoice itself: SAT's XSD accepts it (xmllint), our cadena is SAT's stylesheet's (xsltproc), the
// Sello and the timbre verify, the QR link has SAT's form, and the e-mail reaches a real SMTP server
// with the PDF and the XML. A crash at each step loses nothing and never stamps twice, and the real
// pg-boss worker takes a request from the API to 'enviada'.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { cadenaOriginal } from '../../../src/server/cfdi/cadena';
import type { PacPort } from '../../../src/server/cfdi/pac';
import { readCfdi } from '../../../src/server/cfdi/read';
import { checkCfdiSello, checkTimbre } from '../../../src/server/cfdi/seal';
import { verificationUrl } from '../../../src/server/cfdi/verification-url';
import { createApp } from '../../../src/server/app';
import { invoiceRequests, receipts } from '../../../src/server/db/schema';
import { processInvoiceRequest } from '../../../src/server/invoicing/process';
import { startInvoiceWorker } from '../../../src/server/invoicing/queue';
import { startBoss } from '../../../src/server/jobs/boss';
import { removeScratch, validateCfdi40, xsltprocText } from '../cfdi/sat-tools';
import { DRIVERS, freshIp } from '../helpers/harness';
import { attachmentOf, decodedText } from '../helpers/smtp';
import { COPEXA, copexaValues, folio, invoicingEnv, merchantTicket, requester, requestRow, type InvoicingEnv } from './invoicing-helpers';

const DAY = 86_400_000;

describe.each(DRIVERS)('the issued CFDI on %s', (driver) => {
  let env: InvoicingEnv;
  beforeAll(async () => {
    env = await invoicingEnv(driver);
  }, 60_000);
  afterAll(async () => {
    removeScratch();
    await env?.close();
  });

  /** A Copexa ticket asked for from the form by a new user; answers the request id and the user. */
  async function asked(items?: Parameters<typeof merchantTicket>[1]['items']) {
    const u = await requester(env);
    const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - 5 * DAY), items });
    const r = await env.call('POST', '/form/ticket_create', { token: u.token, body: { usuario: { rfc: u.rfc }, company: { id: COPEXA.id }, ticket: copexaValues(t) } });
    expect(r.status, r.text).toBe(200);
    env.queued.splice(0);
    return { id: r.json.response.request_id as string, u, t };
  }

  it('validates against cfdv40.xsd, its cadena is SAT\'s, Sello and TFD verify, and the mail carries PDF and XML', async () => {
    const { id, u, t } = await asked([
      { description: 'Plumas de gel | caja', quantity: '2', unit_price: '89.90', clave_prod_serv: '44121701', clave_unidad: 'H87', iva: 'IVA16' },
      { description: 'Servicio de engargolado & enmicado', quantity: '1.5', unit_price: '33.33', clave_prod_serv: '82121500', clave_unidad: 'E48', iva: 'IVA8' },
      { description: 'Libro exento', quantity: '1', unit_price: '150.00', clave_prod_serv: '55101500', clave_unidad: 'H87', iva: 'EXENTO' },
    ]);
    expect(await processInvoiceRequest(env.deps, id)).toBe('enviada');
    const row = await requestRow(env, id);
    const xml = new TextDecoder().decode((await env.h.files.get(row.xmlKey!))!);
    const sealed = new TextDecoder().decode((await env.h.files.get(row.sealedXmlKey!))!);

    expect(validateCfdi40(sealed, 'sealed.xml')).toMatchObject({ valid: true });
    expect(validateCfdi40(xml, 'stamped.xml')).toMatchObject({ valid: true });
    expect(cadenaOriginal(xml)).toBe(xsltprocText('cfdi40', xml, 'cadena.xml'));
    expect(checkCfdiSello(xml)).toMatchObject({ ok: true });
    expect(checkTimbre(xml, env.pac.certificate)).toMatchObject({ ok: true });

    const read = readCfdi(new TextEncoder().encode(xml));
    if (!read.ok) throw new Error(read.reason);
    const c = read.cfdi;
    expect(c).toMatchObject({ total: t.total, metodoPago: 'PUE', formaPago: '04' });
    expect(c.issuer).toMatchObject({ rfc: 'EKU9003173C9', nombre: 'COMERCIALIZADORA DE PAPELERIA Y EXPENDIOS DE OCCIDENTE', regimen: '601' });
    expect(c.receiver).toMatchObject({ rfc: u.rfc, nombre: 'BERENICE XIMO QUEZADA', domicilio: '88965', regimen: '612', usoCfdi: 'G03' });
    expect(xml).toContain('LugarExpedicion="44100"');
    expect(xml).toContain('Descripcion="Plumas de gel / caja"');

    // SAT's verification expression: id, re, rr, tt without insignificant zeros, fe = last 8 of the Sello.
    const sello = /Sello="([^"]+)"/.exec(xml)![1]!;
    const tt = String(Number(t.total));
    const url = `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${row.uuid}&re=EKU9003173C9&rr=${u.rfc}&tt=${tt}&fe=${sello.slice(-8)}`;
    expect(verificationUrl(c)).toBe(url);

    const mail = env.smtp.received.find((m) => m.to.includes(u.email))!;
    expect(mail).toBeDefined();
    const text = decodedText(mail.raw);
    expect(text).toContain('Subject: Tu factura de Copexa');
    expect(text).toContain(url);
    const pdf = attachmentOf(mail.raw, `factura-${row.uuid}.pdf`)!;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const mailedXml = attachmentOf(mail.raw, `factura-${row.uuid}.xml`)!.toString('utf8');
    expect(mailedXml).toBe(xml);
    expect(validateCfdi40(mailedXml, 'mailed.xml')).toMatchObject({ valid: true });
  }, 60_000);

  it('a crash after the PAC stamped and before it was saved: the re-run gets the same UUID, one receipt, one e-mail', async () => {
    const { id, u } = await asked();
    let lost: string | undefined;
    const crashing: PacPort = {
      name: 'sandbox',
      stamp: async (xml) => {
        lost = (await env.pac.stamp(xml)).uuid;
        throw new Error('el proceso murió (prueba)');
      },
      cancel: (r) => env.pac.cancel(r),
      cancellationStatus: (u) => env.pac.cancellationStatus(u),
    };
    await expect(processInvoiceRequest({ ...env.deps, pac: crashing }, id)).rejects.toThrow('murió');
    expect(await requestRow(env, id)).toMatchObject({ status: 'solicitada', uuid: null, sealedXmlKey: expect.any(String) });
    expect(await processInvoiceRequest(env.deps, id)).toBe('enviada');
    const row = await requestRow(env, id);
    expect(row.uuid).toBe(lost);
    expect(await env.h.database.db.select().from(receipts).where(eq(receipts.uuid, lost!))).toHaveLength(1);
    // A third run does nothing.
    expect(await processInvoiceRequest(env.deps, id)).toBe('skipped');
    expect(env.smtp.received.filter((m) => m.to.includes(u.email))).toHaveLength(1);
  }, 30_000);

  it('a mail failure keeps it timbrada with the §8 message; the retry delivers it once', async () => {
    const { id, u } = await asked();
    env.smtp.refuse.add(u.email.toLowerCase());
    await expect(processInvoiceRequest(env.deps, id)).rejects.toThrow();
    const failed = await requestRow(env, id);
    expect(failed).toMatchObject({ status: 'timbrada', error: MSG.merchantSendFailed, receiptId: expect.any(String) });
    const status = await env.call('GET', `/api/v33/invoice_requests/${id}`, { token: u.token });
    expect(status.json.response).toMatchObject({ status: 'timbrada', error: MSG.merchantSendFailed, uuid: failed.uuid });
    env.smtp.refuse.clear();
    expect(await processInvoiceRequest(env.deps, id)).toBe('enviada');
    expect(await requestRow(env, id)).toMatchObject({ status: 'enviada', error: null, uuid: failed.uuid, receiptId: failed.receiptId });
    expect(env.smtp.received.filter((m) => m.to.includes(u.email))).toHaveLength(1);
  }, 30_000);

  it('the pg-boss worker takes a request from the API to enviada', async () => {
    const boss = await startBoss(env.h.database, { supervise: false });
    try {
      const queue = await startInvoiceWorker(boss, env.deps, { pollingIntervalSeconds: 0.5 });
      const app = createApp({ db: env.h.database.db, files: env.h.files, mailer: env.deps.mailer, invoicing: queue, config: { trustProxy: true } });
      const u = await requester(env);
      const t = await merchantTicket(env, { companyId: COPEXA.id, ticketNumber: folio(), issuedAt: new Date(Date.now() - DAY) });
      const res = await app.request('/form/ticket_create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': u.token, 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ usuario: { rfc: u.rfc }, company: { id: COPEXA.id }, ticket: copexaValues(t) }),
      });
      expect(res.status).toBe(200);
      const id = ((await res.json()) as { response: { request_id: string } }).response.request_id;
      const until = Date.now() + 20_000;
      let status = '';
      while (Date.now() < until && status !== 'enviada') {
        await new Promise((r) => setTimeout(r, 200));
        [{ status } = { status: '' }] = await env.h.database.db.select({ status: invoiceRequests.status }).from(invoiceRequests).where(eq(invoiceRequests.id, id));
      }
      expect(status).toBe('enviada');
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  }, 40_000);
});
