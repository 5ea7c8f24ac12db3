// The demo's CFDI: real, sealed CFDI 4.0 between the demo's two accounts, filed in both
// (spending for the receiver, income for the issuer), whose files the receipt endpoints serve.
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mexicoCityDate } from '../../../src/domain/mexico-time';
import { checkCfdiSello } from '../../../src/server/cfdi/seal';
import { receipts, tickets } from '../../../src/server/db/schema';
import { demoInvoices, seedDemoInvoices } from '../../../src/server/demo/demo-invoices';
import { createHarness, type Harness } from '../helpers/harness';

// A fixed day (Mexico City, 22 November) keeps the counts exact: 11 tuitions (5th) + 11 fees (20th).
const NOW = new Date('2026-11-22T18:00:00Z');

describe('demo invoices', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness('pglite');
    expect(await seedDemoInvoices(h.database.db, h.files, NOW)).toBe(22);
    const login = await h.call('POST', '/api/v2/login', { body: { user: { login: 'demo', password: 'cuentasclaras' } } });
    token = login.json.response.token;
  });
  afterAll(async () => h?.close());

  it('makes one tuition and one fee invoice a month up to today, and only once', async () => {
    const list = demoInvoices(NOW);
    expect(list.filter((i) => i.input.serie === 'COL')).toHaveLength(11);
    expect(list.filter((i) => i.input.serie === 'H')).toHaveLength(11);
    // Before the 5th and the 20th of a month, that month's invoices do not exist yet.
    expect(demoInvoices(new Date('2026-03-04T18:00:00Z')).map((i) => `${i.input.serie}${i.input.folio}`)).toEqual(['COL202601', 'H1', 'COL202602', 'H2']);
    expect(await seedDemoInvoices(h.database.db, h.files, NOW)).toBe(0);
    expect(await h.database.db.select().from(receipts)).toHaveLength(44);
  });

  it('files each CFDI in both accounts: spending for the receiver, income for the issuer', async () => {
    const month = (rfc: string) => h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=2026&date[month]=11`, { token });
    const school = (await month('EKU9003173C9')).json.response.tickets.filter((t: { receipt: unknown }) => t.receipt);
    const berenice = (await month('XIQB891116QE4')).json.response.tickets.filter((t: { receipt: unknown }) => t.receipt);
    const tuition = berenice.find((t: { ticket_type_id: number }) => t.ticket_type_id === 2);
    expect(tuition).toMatchObject({
      ticket_status_name: 'facturado', amount: '3450.00', company_short_name: 'cfdi', ticket_number: 'COL202611', tags: [{ tag_id: 12, tag_name: 'Educación' }],
      receipt: { rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'XIQB891116QE4', emission_date: '2026-11-05T09:30:00', imp_tras: '0.00', metodo_pago: 'PUE' },
    });
    const tuitionIncome = school.find((t: { ticket_type_id: number }) => t.ticket_type_id === 3);
    expect(tuitionIncome).toMatchObject({ amount: '3450.00', income_meta_tag_id: 3, receipt: { uuid: tuition.receipt.uuid } });
    // The fee: 8,500 + 16% IVA − 10% ISR − two thirds of the IVA withheld.
    const fee = school.find((t: { ticket_type_id: number }) => t.ticket_type_id === 2);
    expect(fee).toMatchObject({ amount: '8103.33', tags: [{ tag_id: 18 }], receipt: { rfc_issuer: 'XIQB891116QE4', imp_tras: '1360.00', imp_ret: '1756.67' } });
    expect(berenice.find((t: { ticket_type_id: number }) => t.ticket_type_id === 3)).toMatchObject({ income_meta_tag_id: 2, receipt: { uuid: fee.receipt.uuid } });
    const [row] = await h.database.db.select({ receivedAt: tickets.receivedAt }).from(tickets).where(eq(tickets.id, tuition.ticket_id));
    expect(mexicoCityDate(row!.receivedAt)).toEqual({ year: 2026, month: 11, day: 5 });
  });

  it('serves sealed XML and a PDF rendered from it, and zips them', async () => {
    const list = await h.call('GET', '/api/v2/tickets?usuario[rfc_owner]=XIQB891116QE4&date[year]=2026&date[month]=11', { token });
    const withReceipt = list.json.response.tickets.filter((t: { receipt: unknown }) => t.receipt);
    const receiptId = withReceipt[0].receipt.receipt_id;
    const xml = await (await h.app.request(`/receipt_xml?receipt_id=${receiptId}&access_token=${token}`)).text();
    expect(checkCfdiSello(xml).ok).toBe(true);
    const pdf = await h.app.request(`/receipt_pdf?receipt_id=${receiptId}&access_token=${token}`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    // Rendered once, then kept: the second answer is the same bytes.
    const again = new Uint8Array(await (await h.app.request(`/receipt_pdf?receipt_id=${receiptId}&access_token=${token}`)).arrayBuffer());
    expect(again).toEqual(bytes);
    const ids = withReceipt.map((t: { ticket_id: string }) => `tickets[]=${t.ticket_id}`).join('&');
    const zip = await JSZip.loadAsync(await (await h.app.request(`/api/v3/receipts/archive?${ids}&access_token=${token}`)).arrayBuffer());
    expect(Object.keys(zip.files)).toHaveLength(withReceipt.length * 2);
  });
});
