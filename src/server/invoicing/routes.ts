// The invoicing endpoints: asking for an invoice (ticket form, multi-ticket form, invoice4), where a
// request is (status, PDF, resend, retry), and the SAT-QR lookup and import.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { filePath } from '../../domain/file-links';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { invoiceRequests } from '../db/schema';
import { authOf, caller, requireAuth } from '../http/auth';
import { parseBracketedQuery } from '../http/bracketed-query';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { requestFromForm, requestFromInvoice4, requestFromMulti } from './channels';
import { importIssuedCfdi, lookupCfdi, type ImportCfdiBatch } from './lookup';
import { pdfReadableBy, readableInvoiceRequest } from './pdf-access';
import { maskEmail } from '../lib/mask-email';
import type { MerchantSide } from './ports';
import type { InvoiceQueue } from './queue';
import { invoiceFiles, resendInvoice } from './resend';
import { CfdiImportBody, CfdiImported, CfdiLookup, Invoice4Body, MerchantTicketCreateBody, MultiTicketCreateBody, RequestAccepted, RequestState, StatusOnly, TicketCreated } from './schemas';
import { defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const TAG = 'Facturación de tickets';
const requestIdParam = { id: '*Id de la solicitud de factura (UUID)' };

const RequestId = v.pipe(v.string(), v.uuid());
/** Re-mails per request and per address: a person may ask again, a script may not mail-bomb. */
const RESENDS_PER_REQUEST = { limit: 3, windowMs: 60 * 60_000 };
const RESENDS_PER_IP = { limit: 20, windowMs: 60 * 60_000 };
/** Refacturar attempts per ticket: its owner needs one or two; guessing a check code needs millions. */
const REFACTURAS_PER_TICKET = { limit: 20, windowMs: 60 * 60_000 };

/** A merchant's ticket posted to POST /form/ticket_create: an invoice request (tickets/routes.ts owns the route and calls this). */
export function formTicketRequest(s: Services, deps: AppDeps, merchants: MerchantSide) {
  return {
    body: MerchantTicketCreateBody,
    response: TicketCreated,
    // The route validated the body with MerchantTicketCreateBody (it names a merchant, never the manual company).
    async handle(c: Context<AppEnv>, parsed: unknown): Promise<Response> {
      const body = parsed as v.InferOutput<typeof MerchantTicketCreateBody>;
      if (!deps.invoicing) throw fail(503, MSG.generic);
      const made = await requestFromForm(s.db, merchants, caller(c).userId, body, s.clock());
      if (!made.replay) await deps.invoicing.enqueue(made.requestId);
      return ok(c, { ticket: { ticket_id: made.ticketId }, request_id: made.requestId });
    },
  };
}

export function invoicingRoutes(s: Services, deps: AppDeps, importCfdiBatch: ImportCfdiBatch, merchants: MerchantSide): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const perRequest = s.limits('invoice-resend-request', RESENDS_PER_REQUEST.limit, RESENDS_PER_REQUEST.windowMs);
  const perIp = s.limits('invoice-resend-ip', RESENDS_PER_IP.limit, RESENDS_PER_IP.windowMs);
  const refacturas = s.limits('refactura-ticket', REFACTURAS_PER_TICKET.limit, REFACTURAS_PER_TICKET.windowMs);

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

  defineRoute(app, {
    method: 'post', path: '/form/ticket_create_multi', tag: TAG, auth: true, body: MultiTicketCreateBody, response: TicketCreated,
    summary: 'Una sola factura para 2 a 10 tickets del mismo comercio', errors: [404, 409, 422, 503],
  }, auth, async (c, { body }) => {
    const q = queue();
    const made = await requestFromMulti(s.db, merchants, caller(c).userId, body, s.clock());
    if (!made.replay) await q.enqueue(made.requestId);
    return ok(c, { ticket: { ticket_id: made.ticketId }, request_id: made.requestId });
  });

  defineRoute(app, {
    method: 'post', path: '/api/v33/tickets/{ref}/invoice4', tag: TAG, auth: false, body: Invoice4Body, response: RequestAccepted, status: 202,
    summary: 'Solicitar la factura del ticket con esa referencia: formulario anónimo (client 0, solo en comercios que lo ofrecen) o del comercio con sesión (client = id de tu RFC); refactura 1 sustituye la factura anterior si se demuestra el ticket (check: su código de facturación, el de su QR, y total; ticket: sus campos, si se envían, deben coincidir) y, si la solicitó una cuenta, solo con la sesión de esa cuenta',
    params: { ref: '*Referencia pública del ticket (16 caracteres)' }, errors: [401, 403, 404, 409, 422, 429, 503],
  }, async (c, { body }) => {
    const q = queue();
    // A session counts on the anonymous form too: the invoice is then the user's, to refacturar only by them.
    const user = await authOf(c, s);
    const now = s.clock();
    const made = await requestFromInvoice4(s.db, merchants, pathParam(c, 'ref'), {
      userId: user?.userId ?? null,
      refacturaAttempt: (ticketId) => refacturas.take(ticketId, now.getTime()),
    }, body, now);
    if (!made.replay) await q.enqueue(made.requestId);
    return ok(c, { request_id: made.requestId, status: 'solicitada' as const }, 202);
  });

  defineRoute(app, {
    method: 'get', path: '/api/v33/invoice_requests/{id}', tag: TAG, auth: false, response: RequestState, params: requestIdParam, errors: [404],
    summary: 'Dónde está la factura: solicitada → timbrada → enviada, o el error (correo enmascarado y, si la pidió una cuenta, pdf_url null salvo para su dueño)',
  }, async (c) => {
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

  defineRoute(app, {
    method: 'get', path: '/api/v33/invoice_requests/{id}/pdf', tag: TAG, auth: false, contentType: 'application/pdf', errors: [404, 410],
    params: { ...requestIdParam, link: 'enlace firmado de POST /api/v3/file_links (kind invoice_pdf), en lugar del token (vencido: 410)' },
    summary: 'El PDF de la factura, ya timbrada: la de una solicitud anónima con su id; la de una cuenta solo para esa cuenta (con el token, o con `link`)',
  }, async (c) => {
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

  defineRoute(app, {
    method: 'post', path: '/api/v33/invoice_requests/{id}/resend', tag: TAG, auth: false, response: StatusOnly, params: requestIdParam, errors: [404, 409, 429],
    summary: 'Reenviar la factura (PDF y XML) al correo registrado en la solicitud',
  }, async (c) => {
    const row = await requestRow(c);
    if (row.status === 'sustituida') throw fail(404, MSG.notFound);
    if (!row.xmlKey) throw fail(409, MSG.invoiceInFlight);
    const now = s.clock().getTime();
    if (!(await perIp.take(c.get('ip'), now)) || !(await perRequest.take(row.id, now))) {
      throw fail(429, MSG.resendLimited, { 'Retry-After': String(Math.max(perIp.retryAfter(c.get('ip'), now), perRequest.retryAfter(row.id, now))) });
    }
    const status = await resendInvoice({ db: s.db, files: s.files, mailer: s.mailer, clock: s.clock }, row);
    return ok(c, { status });
  });

  defineRoute(app, {
    method: 'post', path: '/api/v3/invoice_requests/{id}/retry', tag: TAG, auth: true, response: RequestAccepted, status: 202, params: requestIdParam, errors: [404, 409, 503],
    summary: 'Reintentar una solicitud con error (solo su dueño)',
  }, auth, async (c) => {
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

  defineRoute(app, {
    method: 'get', path: '/api/v3/cfdi/lookup', tag: TAG, auth: true, response: CfdiLookup, errors: [400],
    summary: 'Buscar el CFDI de un QR de verificación del SAT: importable (lo emitimos), imported (ya está en tu cuenta) o unknown',
    params: { id: '*UUID', re: 'RFC emisor', rr: 'RFC receptor', tt: 'Total' },
  }, auth, async (c) => {
    const q = parseBracketedQuery(new URL(c.req.url).searchParams);
    const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : '');
    if (!/^[0-9A-Fa-f-]{36}$/.test(str('id'))) throw fail(400, MSG.qrNotRecognized);
    return ok(c, await lookupCfdi(s.db, s.files, caller(c).userId, { uuid: str('id'), re: str('re'), rr: str('rr'), tt: str('tt') }));
  });

  defineRoute(app, {
    method: 'post', path: '/api/v3/cfdi/import', tag: TAG, auth: true, body: CfdiImportBody, response: CfdiImported, errors: [403, 404, 422],
    summary: 'Importar a tu cuenta un CFDI que emitimos, con los datos de su QR del SAT: UUID, re, rr y tt (400 si faltan, 422 si no coinciden con el CFDI). Solo a cuentas con el RFC verificado (403), como en Importar CFDIs',
  }, auth, async (c, { body }) => {
    return ok(c, { ticket_id: await importIssuedCfdi(s.db, s.files, importCfdiBatch, caller(c).userId, body, s.clock()) });
  });

  return app;
}
