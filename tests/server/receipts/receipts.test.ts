import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { createEntry, ownerWithRfc, spending, type Owner } from '../tickets/ticket-fixtures';
import { attachReceipt, fixtureXml, tinyPdf } from './receipt-fixtures';

const UUID_A = '11111111-2222-4333-8444-555555555555';
const UUID_B = 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE';

describe.each(DRIVERS)('receipts on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  let b: Owner;
  const ids = {} as Record<'withA' | 'withB' | 'plain' | 'other', string>;
  const receiptIds = {} as Record<'a' | 'b' | 'other', string>;
  const xmlA = fixtureXml('cfdi40-ingreso-eku-descuento-stamped.xml');
  const xmlB = fixtureXml('cfdi33-ingreso-traslados-retenciones-stamped.xml');

  beforeAll(async () => {
    h = await createHarness(driver);
    a = await ownerWithRfc(h);
    b = await ownerWithRfc(h, 'XIQB891116QE4');
    ids.withA = (await createEntry(h, a, spending({ date: '2026/07/07', amount: '1160' }))).id;
    ids.withB = (await createEntry(h, a, spending({ date: '2026/07/08', amount: '58.50' }))).id;
    ids.plain = (await createEntry(h, a, spending({ date: '2026/07/09' }))).id;
    ids.other = (await createEntry(h, b, spending({ date: '2026/07/09' }))).id;
    receiptIds.a = await attachReceipt(h, a, ids.withA, { uuid: UUID_A, xml: xmlA });
    receiptIds.b = await attachReceipt(h, a, ids.withB, { uuid: UUID_B, xml: xmlB, facts: { rfcIssuer: 'AAA010101AAA', amountMxn: '58.50' } });
    receiptIds.other = await attachReceipt(h, b, ids.other, { uuid: UUID_A });
  });
  afterAll(async () => h?.close());

  const get = (path: string, token: string) => h.app.request(path, { headers: { 'x-access-token': token } });
  const archive = (tickets: string[], token: string) =>
    h.app.request(`/api/v3/receipts/archive?${tickets.map((t) => `tickets[]=${t}`).join('&')}&access_token=${token}`);

  it('lists the receipt on its ticket (spec §3 Receipt), with the receiver’s name (ours: an issued invoice’s row names its client)', async () => {
    const list = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=7`, { token: a.token });
    const byId = new Map(list.json.response.tickets.map((t: { ticket_id: string }) => [t.ticket_id, t]));
    expect(byId.get(ids.withA)).toMatchObject({
      receipt: {
        receipt_id: receiptIds.a, rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'GODE561231GR8', name_receiver: 'EMMA GOMEZ DIAZ',
        emission_date: '2026-07-07T10:00:00', uuid: UUID_A, imp_tras: '160.00', imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
      },
    });
    expect(byId.get(ids.plain)).toMatchObject({ receipt: null });
  });

  it('serves the XML byte for byte, as a download, only to its owner', async () => {
    const res = await get(`/receipt_xml?receipt_id=${receiptIds.a}`, a.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="EKU9003173C9_${UUID_A}.xml"`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(xmlA);
    // The same CFDI UUID in another user's account is theirs: a's token cannot read it.
    const other = await get(`/receipt_xml?receipt_id=${receiptIds.other}`, a.token);
    expect(other.status).toBe(404);
    expect((await other.json()).errors).toEqual([MSG.receiptNotFound]);
    expect((await get(`/receipt_xml?receipt_id=nope`, a.token)).status).toBe(404);
    expect((await h.app.request(`/receipt_xml?receipt_id=${receiptIds.a}`)).status).toBe(401);
  });

  it('serves the imported PDF inline by access_token', async () => {
    const res = await h.app.request(`/receipt_pdf?receipt_id=${receiptIds.b}&access_token=${a.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(tinyPdf(UUID_B));
  });

  it('zips the PDF and XML of the selected tickets that have a receipt', async () => {
    const res = await archive([ids.withA, ids.plain, ids.withB], a.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="facturas-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    expect(Object.keys(zip.files).sort()).toEqual(
      [`EKU9003173C9_${UUID_A}.pdf`, `EKU9003173C9_${UUID_A}.xml`, `AAA010101AAA_${UUID_B}.pdf`, `AAA010101AAA_${UUID_B}.xml`].sort(),
    );
    expect(await zip.file(`EKU9003173C9_${UUID_A}.xml`)!.async('uint8array')).toEqual(xmlA);
    expect(await zip.file(`AAA010101AAA_${UUID_B}.xml`)!.async('uint8array')).toEqual(xmlB);
    expect(await zip.file(`AAA010101AAA_${UUID_B}.pdf`)!.async('uint8array')).toEqual(tinyPdf(UUID_B));
  });

  it("refuses with the spec's message when no selected ticket has a receipt, and never leaks another user's", async () => {
    for (const selection of [[ids.plain], [ids.other], [ids.plain, ids.other]]) {
      const res = await archive(selection, a.token);
      expect(res.status).toBe(404);
      expect((await res.json()).errors).toEqual([MSG.archiveNoReceipts]);
    }
    // Mixed: only a's own receipt is in the zip.
    const zip = await JSZip.loadAsync(await (await archive([ids.other, ids.withA], a.token)).arrayBuffer());
    expect(Object.keys(zip.files)).toHaveLength(2);
    const bad = await archive(['not-a-uuid'], a.token);
    expect(bad.status).toBe(400);
    expect((await h.app.request('/api/v3/receipts/archive')).status).toBe(401);
  });

  it('deleting a ticket forgets its receipt and files', async () => {
    const id = (await createEntry(h, a, spending({ date: '2026/07/10' }))).id;
    const receiptId = await attachReceipt(h, a, id, { uuid: '99999999-2222-4333-8444-555555555555' });
    const del = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [id] } });
    expect(del.json.response).toEqual({ deleted: 1 });
    expect((await get(`/receipt_xml?receipt_id=${receiptId}`, a.token)).status).toBe(404);
    // The same CFDI can be stored again (re-import after a mistaken delete).
    const again = (await createEntry(h, a, spending({ date: '2026/07/10' }))).id;
    const second = await attachReceipt(h, a, again, { uuid: '99999999-2222-4333-8444-555555555555' });
    expect(second).not.toBe(receiptId);
  });
});
