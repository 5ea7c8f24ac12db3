// The invoicing endpoints: asking for an invoice (ticket form, multi-ticket form, invoice4), where a
// request is (status, PDF, resend, retry), and the SAT-QR lookup and import.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { MANUAL_COMPANY_ID } from '../../domain/ticket';
import { filePath } from '../../domain/file-links';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { invoiceRequests } from '../db/schema';
import { authOf, caller, requireAuth } from '../http/auth';
import { parseBracketedQuery } from '../http/bracketed-query';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { IpLimiter } from '../lib/ip-limiter';
import { requestFromForm, requestFromInvoice4, requestFromMulti } from './channels';
import { importIssuedCfdi, lookupCfdi, type ImportCfdiBatch } from './lookup';
import { pdfReadableBy, readableInvoiceRequest } from './pdf-access';
import { maskEmail } from '../lib/mask-email';
import type { MerchantSide } from './ports';
import type { InvoiceQueue } from './queue';
import { invoiceFiles, resendInvoice } from './resend';
import { CfdiImportBody, Invoice4Body, MerchantTicketCreateBody, MultiTicketCreateBody } from './schemas';

const RequestId = v.pipe(v.string(), v.uuid());
/** Re-mails per request and per address: a person may ask again, a script may not mail-bomb. */
const RESENDS_PER_REQUEST = { limit: 3, windowMs: 60 * 60_000 };
const RESENDS_PER_IP = { limit: 20, windowMs: 60 * 60_000 };
/** Refacturar attempts per ticket: its owner needs one or two; guessing a check code needs millions. */
const REFACTURAS_PER_TICKET = { limit: 20, windowMs: 60 * 60_000 };

export function invoicingRoutes(s: Services, deps: AppDeps, importCfdiBatch: ImportCfdiBatch, merchants: MerchantSide): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const perRequest = new IpLimiter(RESENDS_PER_REQUEST.limit, RESENDS_PER_REQUEST.windowMs);
  const perIp = new IpLimiter(RESENDS_PER_IP.limit, RESENDS_PER_IP.windowMs);
  const refacturas = new IpLimiter(REFACTURAS_PER_TICKET.limit, REFACTURAS_PER_TICKET.windowMs);

  const queue = (): InvoiceQueue => {
    if (!deps.invoicing) throw fail(503, MSG.generic);
    return deps.invoicing;
  };
  const requestRow = async (c: Context<AppEnv>) => {
    const id = v.safeParse(RequestId, c.req.param('id'));
    if (!id.success) throw fail(404, MSG.notFound);
    const [row] = await s.db.select().from(invoiceRequests).where(eq(invoiceRequests.id, id.output.toLowerCase()));
    if (!row) throw fail(404, MSG.notFound);
    return row;
  };

  // The merchant branch of 'create ticket' (the manual branch is in tickets/routes.ts and passes on).
  app.post('/form/ticket_create', auth, async (c) => {
    const body = parseWith(MerchantTicketCreateBody, c.get('body'));
    if (body.company.id === MANUAL_COMPANY_ID) throw fail(404, MSG.notFound);
    const q = queue();
    const made = await requestFromForm(s.db, merchants, caller(c).userId, body, s.clock());
    if (!made.replay) await q.enqueue(made.requestId);
    return ok(c, { ticket: { ticket_id: made.ticketId }, request_id: made.requestId });
  });

  app.post('/form/ticket_create_multi', auth, async (c) => {
    const body = parseWith(MultiTicketCreateBody, c.get('body'));
    const q = queue();
    const made = await requestFromMulti(s.db, merchants, caller(c).userId, body, s.clock());
    if (!made.replay) await q.enqueue(made.requestId);
    return ok(c, { ticket: { ticket_id: made.ticketId }, request_id: made.requestId });
  });

  app.post('/api/v33/tickets/:ref/invoice4', async (c) => {
    const body = parseWith(Invoice4Body, c.get('body'));
    const q = queue();
    // A session counts on the anonymous form too: the invoice is then the user's, to refacturar only by them.
    const user = await authOf(c, s);
    const now = s.clock();
    const made = await requestFromInvoice4(s.db, merchants, c.req.param('ref'), {
      userId: user?.userId ?? null,
      refacturaAttempt: (ticketId) => refacturas.take(ticketId, now.getTime()),
    }, body, now);
    if (!made.replay) await q.enqueue(made.requestId);
    return ok(c, { request_id: made.requestId, status: 'solicitada' as const }, 202);
  });

  app.get('/api/v33/invoice_requests/:id', async (c) => {
    const row = await requestRow(c);
    const user = await authOf(c, s);
    const own = user !== null && row.userId === user.userId;
    return ok(c, {
      request_id: row.id,
      status: row.status,
      error: row.error,
      // By unguessable id anyone may see where it is; only its owner sees the full address.
      email: own ? row.email : maskEmail(row.email),
      uuid: row.uuid,
      // A user's request's PDF is theirs alone: no one else is handed a path to it (pdf-access.ts).
      pdf_url: row.xmlKey && pdfReadableBy(row, user?.userId ?? null) ? filePath('invoice_pdf', row.id) : null,
    });
  });

  app.get('/api/v33/invoice_requests/:id/pdf', async (c) => {
    const row = await readableInvoiceRequest(c, s);
    if (!row.xmlKey || row.status === 'sustituida') throw fail(404, MSG.notFound);
    const { pdf } = await invoiceFiles(s.db, s.files, row);
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="factura-${row.uuid}.pdf"`,
      // A user's PDF is kept by no cache: the same path without a session must not find it there.
      'Cache-Control': row.userId === null ? 'private, max-age=3600' : 'private, no-store',
    });
  });

  app.post('/api/v33/invoice_requests/:id/resend', async (c) => {
    const row = await requestRow(c);
    if (row.status === 'sustituida') throw fail(404, MSG.notFound);
    if (!row.xmlKey) throw fail(409, MSG.invoiceInFlight);
    const now = s.clock().getTime();
    if (!perIp.take(c.get('ip'), now) || !perRequest.take(row.id, now)) {
      throw fail(429, MSG.resendLimited, { 'Retry-After': String(Math.max(perIp.retryAfter(c.get('ip'), now), perRequest.retryAfter(row.id, now))) });
    }
    const status = await resendInvoice({ db: s.db, files: s.files, mailer: s.mailer, clock: s.clock }, row);
    return ok(c, { status });
  });

  app.post('/api/v3/invoice_requests/:id/retry', auth, async (c) => {
    const row = await requestRow(c);
    if (row.userId !== caller(c).userId) throw fail(404, MSG.notFound);
    const q = queue();
    const retryable = row.status === 'error' || (row.status === 'timbrada' && row.error !== null);
    if (!retryable) throw fail(409, row.status === 'solicitada' ? MSG.invoiceInFlight : MSG.ticketAlreadyInvoiced);
    // A stamped request resumes where it stopped. An unstamped one is stamped from its kept document,
    // unless that document was refused (then it is built again, with a new Fecha).
    const refused = row.error === MSG.invoiceRejected;
    const set = row.xmlKey ? { error: null } : { status: 'solicitada', error: null, ...(refused ? { sealedXmlKey: null } : {}) };
    const changed = await s.db.update(invoiceRequests).set({ ...set, updatedAt: s.clock() })
      .where(and(eq(invoiceRequests.id, row.id), eq(invoiceRequests.status, row.status))).returning({ status: invoiceRequests.status });
    if (changed.length === 0) throw fail(409, MSG.invoiceInFlight);
    await q.enqueue(row.id);
    return ok(c, { request_id: row.id, status: changed[0]!.status }, 202);
  });

  app.get('/api/v3/cfdi/lookup', auth, async (c) => {
    const q = parseBracketedQuery(new URL(c.req.url).searchParams);
    const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : '');
    if (!/^[0-9A-Fa-f-]{36}$/.test(str('id'))) throw fail(400, MSG.qrNotRecognized);
    return ok(c, await lookupCfdi(s.db, s.files, caller(c).userId, { uuid: str('id'), re: str('re'), rr: str('rr'), tt: str('tt') }));
  });

  app.post('/api/v3/cfdi/import', auth, async (c) => {
    const body = parseWith(CfdiImportBody, c.get('body'));
    return ok(c, { ticket_id: await importIssuedCfdi(s.db, s.files, importCfdiBatch, caller(c).userId, body, s.clock()) });
  });

  return app;
}
