// An invoice request's PDF: an anonymous request's id is its holder's only handle, so it stays the
// capability; a signed-in user's request opens only for that user, with the session in a header or through
// a signed short-lived link from POST /api/v3/file_links (kind 'invoice_pdf'). Anyone else gets a Spanish
// 404, a bad link the file links' 404 and an expired one their 410; the status never hands others a path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_TTL_MS } from '../../../src/domain/file-links';
import { MSG } from '../../../src/domain/messages';
import { DRIVERS } from '../helpers/harness';
import { invoicingEnv, merchantTicket, MOVIL_NORTE, requester, requestRow, type InvoicingEnv } from './invoicing-helpers';

const DAY = 86_400_000;
const EMPRESA = { rfc: 'EKU9003173C9', firstName: null, lastName: null, name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' };
const RECEIVER = {
  client: 0, email: 'dueno.pdf@example.com', rfc: 'EKU9003173C9', uso_cfdi: 'G03', nombre: 'ESCUELA KEMPER URGATE',
  regimen_fiscal_receptor: '601', codigo_postal: '42501',
};

describe.each(DRIVERS)('invoice request PDF access on %s', (driver) => {
  let env: InvoicingEnv;
  let owner: Awaited<ReturnType<typeof requester>>;
  let other: Awaited<ReturnType<typeof requester>>;
  let owned: string;
  let anonymous: string;

  const reference = () => `${Date.now()}${Math.floor(Math.random() * 1e11)}`.slice(0, 24).padEnd(24, '7');
  const movilTicket = () => merchantTicket(env, { companyId: MOVIL_NORTE, ticketNumber: reference(), issuedAt: new Date(Date.now() - DAY), postalCode: '64000' });
  const pdfPath = (id: string) => `/api/v33/invoice_requests/${id}/pdf`;
  const mint = (token: string | undefined, id: string) => env.call('POST', '/api/v3/file_links', { token, body: { kind: 'invoice_pdf', id } });
  const isPdf = (r: { status: number; text: string; headers: Headers }) => r.status === 200 && r.headers.get('content-type') === 'application/pdf' && r.text.startsWith('%PDF-');

  beforeAll(async () => {
    env = await invoicingEnv(driver);
    owner = await requester(env, EMPRESA);
    other = await requester(env, { ...EMPRESA, rfc: 'XIQB891116QE4', name: null, firstName: 'BERENICE', lastName: 'XIMO QUEZADA', zipCode: '88965', taxRegime: '612' });
    const mine = await env.call('POST', `/api/v33/tickets/${(await movilTicket()).ref}/invoice4`, { body: { ...RECEIVER, client: owner.clientId }, token: owner.token });
    expect(mine.status, mine.text).toBe(202);
    owned = mine.json.response.request_id;
    const anon = await env.call('POST', `/api/v33/tickets/${(await movilTicket()).ref}/invoice4`, { body: { ...RECEIVER, email: 'anonimo.pdf@example.com' } });
    expect(anon.status, anon.text).toBe(202);
    anonymous = anon.json.response.request_id;
    await env.drain();
    expect(await requestRow(env, owned)).toMatchObject({ status: 'enviada', userId: owner.userId });
    expect(await requestRow(env, anonymous)).toMatchObject({ status: 'enviada', userId: null });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it("refuses a user's invoice PDF to a caller without a session and to another user, with a Spanish 404", async () => {
    const none = await env.call('GET', pdfPath(owned));
    expect([none.status, none.json]).toEqual([404, { errors: [MSG.notFound] }]);
    const foreign = await env.call('GET', pdfPath(owned), { token: other.token });
    expect([foreign.status, foreign.json]).toEqual([404, { errors: [MSG.notFound] }]);
    // The same answer as for a request that does not exist.
    const missing = await env.call('GET', pdfPath('00000000-0000-4000-8000-000000000000'));
    expect([missing.status, missing.json]).toEqual([404, { errors: [MSG.notFound] }]);
  });

  it("serves it to its owner with the session in a header, kept by no cache", async () => {
    const res = await env.call('GET', pdfPath(owned), { token: owner.token });
    expect(isPdf(res), res.text.slice(0, 200)).toBe(true);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('mints a short-lived link for the owner only, which opens the PDF without a session', async () => {
    const r = await mint(owner.token, owned);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const url = r.json.response.url as string;
    expect(url).toMatch(new RegExp(`^/api/v33/invoice_requests/${owned}/pdf\\?link=${owner.userId}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(url).not.toContain(owner.token);
    const opened = await env.call('GET', url);
    expect(isPdf(opened), opened.text.slice(0, 200)).toBe(true);

    const foreign = await mint(other.token, owned);
    expect([foreign.status, foreign.json]).toEqual([404, { errors: [MSG.notFound] }]);
    // An anonymous request is no one's to sign for, and a malformed id is a 404 too.
    const anon = await mint(owner.token, anonymous);
    expect([anon.status, anon.json]).toEqual([404, { errors: [MSG.notFound] }]);
    const bad = await mint(owner.token, 'nope');
    expect([bad.status, bad.json]).toEqual([404, { errors: [MSG.notFound] }]);
    const signedOut = await mint(undefined, owned);
    expect([signedOut.status, signedOut.json]).toEqual([401, { errors: [MSG.unauthorized] }]);
  });

  it("refuses an altered, misdirected or another user's link with the file links' 404, and an expired one with 410", async () => {
    const url = (await mint(owner.token, owned)).json.response.url as string;
    const link = new URL(url, 'http://x').searchParams.get('link')!;
    const [, exp, sig] = link.split('.') as [string, string, string];
    const refused = [
      `${pdfPath(owned)}?link=${other.userId}.${exp}.${sig}`,
      `${pdfPath(owned)}?link=${owner.userId}.${Number(exp) + 3600}.${sig}`,
      `${pdfPath(owned)}?link=`,
      // the link of the owned request does not open another request
      `${pdfPath(anonymous)}?link=${link}`,
    ];
    for (const path of refused) {
      const res = await env.call('GET', path);
      expect([res.status, res.json], path).toEqual([404, { errors: [MSG.fileLinkInvalid] }]);
    }
    // Expiry, on the harness's app (same database and secret) whose clock the test moves.
    const fresh = await env.h.call('POST', '/api/v3/file_links', { token: owner.token, body: { kind: 'invoice_pdf', id: owned } });
    expect(fresh.status, fresh.text).toBe(200);
    env.h.advance(FILE_LINK_TTL_MS - 10_000);
    expect((await env.h.app.request(fresh.json.response.url)).status).toBe(200);
    env.h.advance(11_000);
    const expired = await env.h.app.request(fresh.json.response.url);
    expect([expired.status, await expired.json()]).toEqual([410, { errors: [MSG.fileLinkExpired] }]);
  });

  it('still serves an anonymous request by its id alone, and advertises its pdf_url to anyone', async () => {
    const res = await env.call('GET', pdfPath(anonymous));
    expect(isPdf(res), res.text.slice(0, 200)).toBe(true);
    const status = await env.call('GET', `/api/v33/invoice_requests/${anonymous}`);
    expect(status.json.response.pdf_url).toBe(pdfPath(anonymous));
  });

  it("advertises a user's pdf_url only to that user", async () => {
    const mine = await env.call('GET', `/api/v33/invoice_requests/${owned}`, { token: owner.token });
    expect(mine.json.response.pdf_url).toBe(pdfPath(owned));
    const theirs = await env.call('GET', `/api/v33/invoice_requests/${owned}`, { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.json.response.pdf_url).toBeNull();
    const nobody = await env.call('GET', `/api/v33/invoice_requests/${owned}`);
    expect(nobody.json.response.pdf_url).toBeNull();
  });
});
