// Signed short-lived file links (DESIGN §3: no secret in a URL that the app makes): POST /api/v3/file_links
// makes a link that opens one receipt PDF / XML or ticket image, for one user, for five minutes, without
// the session token; the file routes answer it, and refuse an expired (410) or foreign or altered (404) one.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_TTL_MS } from '../../../src/domain/file-links';
import { MSG } from '../../../src/domain/messages';
import { idempotencyKeys } from '../../../src/server/db/schema';
import { receiptPng } from '../../../src/server/demo/png';
import { activeCollaborator, insertTicket, personRfc } from '../company-view/helpers';
import { addDepartment, companyManager } from '../company/helpers';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { createEntry, ownerWithRfc, spending, uploadImage, type Owner } from '../tickets/ticket-fixtures';
import { attachReceipt, fixtureXml, tinyPdf } from './receipt-fixtures';

const UUID_A = '11111111-2222-4333-8444-555555555555';
const UUID_A2 = '22222222-2222-4333-8444-555555555555';
const UUID_B = 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE';
const UUID_HOSTED = '33333333-2222-4333-8444-555555555555';

type Kind = 'receipt_pdf' | 'receipt_xml' | 'ticket_image';

describe.each(DRIVERS)('signed file links on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  let b: Owner;
  const receipt = {} as Record<'a' | 'a2' | 'b', string>;
  const ticket = {} as Record<'aImage' | 'bImage' | 'aPlain', string>;
  const xmlA = fixtureXml('cfdi40-ingreso-eku-descuento-stamped.xml');
  const png = receiptPng(() => 0.25);

  beforeAll(async () => {
    h = await createHarness(driver);
    a = await ownerWithRfc(h);
    b = await ownerWithRfc(h, 'XIQB891116QE4');
    const withA = (await createEntry(h, a, spending({ date: '2026/07/07', amount: '1160' }))).id;
    const withA2 = (await createEntry(h, a, spending({ date: '2026/07/08' }))).id;
    const withB = (await createEntry(h, b, spending({ date: '2026/07/09' }))).id;
    receipt.a = await attachReceipt(h, a, withA, { uuid: UUID_A, xml: xmlA });
    receipt.a2 = await attachReceipt(h, a, withA2, { uuid: UUID_A2 });
    receipt.b = await attachReceipt(h, b, withB, { uuid: UUID_B });
    ticket.aImage = withA;
    ticket.bImage = withB;
    ticket.aPlain = withA2;
    expect((await uploadImage(h, a.token, withA, png)).status).toBe(204);
    expect((await uploadImage(h, b.token, withB, png)).status).toBe(204);
  });
  afterAll(async () => h?.close());

  const mint = (token: string, kind: string, id: string) => h.call('POST', '/api/v3/file_links', { token, body: { kind, id } });
  const urlOf = async (token: string, kind: Kind, id: string): Promise<string> => {
    const r = await mint(token, kind, id);
    expect(r.status, r.text).toBe(200);
    return r.json.response.url as string;
  };
  /** A request as a browser opening the link: no header, no cookie, nothing but the URL. */
  const open = (url: string) => h.app.request(url);
  const linkParam = (url: string) => new URL(url, 'http://x').searchParams.get('link') as string;
  const errorsOf = async (res: Response) => ((await res.json()) as { errors: string[] }).errors;

  it('makes a link to the PDF that opens it without the token, and holds no trace of the token', async () => {
    const r = await mint(a.token, 'receipt_pdf', receipt.a);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const { url, expires_at } = r.json.response as { url: string; expires_at: string };
    expect(url).toMatch(new RegExp(`^/receipt_pdf\\?receipt_id=${receipt.a}&link=${a.userId}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(url).not.toContain(a.token);
    expect(url).not.toContain(encodeURIComponent(a.token));
    expect(url).not.toContain('access_token');
    // Valid for five minutes (whole seconds), from now.
    const left = Date.parse(expires_at) - Date.now();
    expect(left).toBeGreaterThan(FILE_LINK_TTL_MS - 5_000);
    expect(left).toBeLessThanOrEqual(FILE_LINK_TTL_MS);

    const res = await open(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(tinyPdf(UUID_A));
  });

  it('makes links to the XML (a download, byte for byte) and to the ticket image', async () => {
    const xml = await open(await urlOf(a.token, 'receipt_xml', receipt.a));
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-disposition')).toBe(`attachment; filename="EKU9003173C9_${UUID_A}.xml"`);
    expect(new Uint8Array(await xml.arrayBuffer())).toEqual(xmlA);

    const imageUrl = await urlOf(a.token, 'ticket_image', ticket.aImage);
    expect(imageUrl).toMatch(new RegExp(`^/api/v2/ticket_image\\?ticket_id=${ticket.aImage}&link=`));
    const image = await open(imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(png);
  });

  it("refuses to make a link to another user's file, or to a ticket without an image: 404", async () => {
    const foreignReceipt = await mint(a.token, 'receipt_pdf', receipt.b);
    expect(foreignReceipt.status).toBe(404);
    expect(foreignReceipt.json.errors).toEqual([MSG.receiptNotFound]);
    const foreignXml = await mint(a.token, 'receipt_xml', receipt.b);
    expect(foreignXml.status).toBe(404);
    expect(foreignXml.json.errors).toEqual([MSG.receiptNotFound]);
    const foreignImage = await mint(a.token, 'ticket_image', ticket.bImage);
    expect(foreignImage.status).toBe(404);
    expect(foreignImage.json.errors).toEqual([MSG.notFound]);
    const noImage = await mint(a.token, 'ticket_image', ticket.aPlain);
    expect(noImage.status).toBe(404);
    expect(noImage.json.errors).toEqual([MSG.notFound]);
    const notAnId = await mint(a.token, 'receipt_pdf', 'nope');
    expect(notAnId.status).toBe(404);
    expect(notAnId.json.errors).toEqual([MSG.receiptNotFound]);
  });

  it('a link made under an Idempotency-Key is neither kept nor replayed', async () => {
    const key = `link-${driver}-${Date.now()}`;
    const first = await h.call('POST', '/api/v3/file_links', { token: a.token, body: { kind: 'receipt_pdf', id: receipt.a }, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    const rows = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows.map((r) => [r.state, r.responseBody])).toEqual([['secret', null]]);
    const again = await h.call('POST', '/api/v3/file_links', { token: a.token, body: { kind: 'receipt_pdf', id: receipt.a }, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(409);
    expect(again.text).not.toContain(linkParam(first.json.response.url));
  });

  it('asks for a session and a known kind of file', async () => {
    const anonymous = await h.call('POST', '/api/v3/file_links', { body: { kind: 'receipt_pdf', id: receipt.a } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.errors).toEqual([MSG.unauthorized]);
    const kind = await mint(a.token, 'receipt_zip', receipt.a);
    expect(kind.status).toBe(400);
    expect(kind.json.errors).toEqual([MSG.fileLinkKind]);
  });

  it('a link opens only its own file, kind and user: anything else or any alteration is a Spanish 404', async () => {
    const pdfUrl = await urlOf(a.token, 'receipt_pdf', receipt.a);
    const link = linkParam(pdfUrl);
    const [, exp, sig] = link.split('.') as [string, string, string];
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    const refused = [
      // another file of the same user
      `/receipt_pdf?receipt_id=${receipt.a2}&link=${link}`,
      // another kind of the same file
      `/receipt_xml?receipt_id=${receipt.a}&link=${link}`,
      `/api/v2/ticket_image?ticket_id=${ticket.aImage}&link=${link}`,
      // another user's file, and the link claiming to be another user's
      `/receipt_pdf?receipt_id=${receipt.b}&link=${link}`,
      `/receipt_pdf?receipt_id=${receipt.a}&link=${b.userId}.${exp}.${sig}`,
      // a later expiry, an altered signature, a malformed or empty link
      `/receipt_pdf?receipt_id=${receipt.a}&link=${a.userId}.${Number(exp) + 3600}.${sig}`,
      `/receipt_pdf?receipt_id=${receipt.a}&link=${a.userId}.${exp}.${flipped}`,
      `/receipt_pdf?receipt_id=${receipt.a}&link=${a.userId}.${exp}`,
      `/receipt_pdf?receipt_id=${receipt.a}&link=`,
    ];
    for (const url of refused) {
      const res = await open(url);
      expect(res.status, url).toBe(404);
      expect(await errorsOf(res), url).toEqual([MSG.fileLinkInvalid]);
    }
    // b's own link does not open a's file either.
    const bLink = linkParam(await urlOf(b.token, 'receipt_pdf', receipt.b));
    const crossed = await open(`/receipt_pdf?receipt_id=${receipt.a}&link=${bLink}`);
    expect(crossed.status).toBe(404);
    expect(await errorsOf(crossed)).toEqual([MSG.fileLinkInvalid]);
    // The untouched link still works.
    expect((await open(pdfUrl)).status).toBe(200);
  });

  it('a link is checked again when opened: once its ticket is deleted it is a 404, never the image', async () => {
    const id = (await createEntry(h, a, spending({ date: '2026/07/10' }))).id;
    expect((await uploadImage(h, a.token, id, png)).status).toBe(204);
    const url = await urlOf(a.token, 'ticket_image', id);
    const removed = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [id] } });
    expect(removed.status, removed.text).toBe(200);
    const res = await open(url);
    expect(res.status).toBe(404);
    expect(await errorsOf(res)).toEqual([MSG.notFound]);
  });

  it('the header token (and access_token, for other API clients) still open the files', async () => {
    const header = await h.app.request(`/receipt_pdf?receipt_id=${receipt.a}`, { headers: { 'x-access-token': a.token } });
    expect(header.status).toBe(200);
    expect(new Uint8Array(await header.arrayBuffer())).toEqual(tinyPdf(UUID_A));
    const query = await h.app.request(`/receipt_xml?receipt_id=${receipt.a}&access_token=${a.token}`);
    expect(query.status).toBe(200);
    const image = await h.app.request(`/api/v2/ticket_image?ticket_id=${ticket.aImage}`, { headers: { 'x-access-token': a.token } });
    expect(image.status).toBe(200);
    const none = await h.app.request(`/receipt_pdf?receipt_id=${receipt.a}`);
    expect(none.status).toBe(401);
    expect(await errorsOf(none)).toEqual([MSG.unauthorized]);
  });

  it('an expired link answers 410 with a Spanish message, never the file', async () => {
    const urls = await Promise.all([
      urlOf(a.token, 'receipt_pdf', receipt.a),
      urlOf(a.token, 'receipt_xml', receipt.a),
      urlOf(a.token, 'ticket_image', ticket.aImage),
    ]);
    h.advance(FILE_LINK_TTL_MS - 10_000);
    for (const url of urls) expect((await open(url)).status, url).toBe(200);
    h.advance(11_000);
    for (const url of urls) {
      const res = await open(url);
      expect(res.status, url).toBe(410);
      expect(await errorsOf(res), url).toEqual([MSG.fileLinkExpired]);
    }
    // A fresh link works again.
    expect((await open(await urlOf(a.token, 'receipt_pdf', receipt.a))).status).toBe(200);
  });

  it("lets a company's manager make a link to a collaborator's received invoice, and no one else's", async () => {
    const m = await companyManager(h);
    const area = await addDepartment(h, m, 'ventas');
    const ana = await activeCollaborator(h, m.clientId, area, personRfc());
    const spent = await insertTicket(h, ana, { amount: '1160.00', receivedAt: '2026-07-07T18:00:00Z' });
    const hosted = await attachReceipt(h, ana, spent, { uuid: UUID_HOSTED });
    const res = await open(await urlOf(m.token, 'receipt_pdf', hosted));
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(tinyPdf(UUID_HOSTED));
    const foreign = await mint(m.token, 'receipt_pdf', receipt.a);
    expect(foreign.status).toBe(404);
    expect(foreign.json.errors).toEqual([MSG.receiptNotFound]);
  });
});
