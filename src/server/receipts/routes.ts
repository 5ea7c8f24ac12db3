// Receipt endpoints (DESIGN §3): the files of one receipt, a zip of many, and sharing them by e-mail.
// The files answer the session header (or access_token, kept for other API clients), or a signed
// short-lived link that POST /api/v3/file_links makes for one file (http/file-links.ts): the app never puts
// the session token in a URL. A company's manager may also download its active collaborators' received
// invoices (spec §6; company/host-access.ts).
import { Hono } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { ArchiveQuery, ShareReceiptsBody } from '../../domain/receipt-share';
import { FileLinkBody, filePath, type FileLink } from '../../domain/file-links';
import type { AppEnv, Services } from '../context';
import type { Db } from '../db/client';
import { caller, requireAuth } from '../http/auth';
import { fileReader, signFileLink } from '../http/file-links';
import { markSecretResponse } from '../http/idempotency';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { archiveName, archiveStream, entryBase } from './archive';
import { ownReceipt, receiptPdf, receiptsOfTickets, receiptXml, type ReceiptFileRow } from '../cfdi/receipts';
import { shareLimit, shareReceipts } from './share';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';

const ReceiptIdParam = v.pipe(v.string(MSG.receiptNotFound), v.uuid(MSG.receiptNotFound));
const TicketIdParam = v.pipe(v.string(MSG.notFound), v.uuid(MSG.notFound));

function receiptIdOf(raw: string | undefined): string {
  const id = v.safeParse(ReceiptIdParam, raw ?? '');
  if (!id.success) throw fail(404, MSG.receiptNotFound);
  return id.output.toLowerCase();
}

/** Private, and revalidated: a receipt's bytes never change, but it can be deleted. */
const fileHeaders = (type: string, name: string, etag: string, download: boolean) => ({
  'Content-Type': type,
  'Content-Disposition': `${download ? 'attachment' : 'inline'}; filename="${name}"`,
  'Cache-Control': 'private, no-cache',
  ETag: etag,
});

/** Who may open the files other areas own (handed in by the composition root). */
export interface FileAccess {
  /** Throws 404 unless the ticket is the caller's and has an image (tickets). */
  ownImage(db: Db, userId: number, ticketId: string): Promise<void>;
  /** The invoice request's id when its PDF is the caller's; throws otherwise (invoicing). */
  ownInvoiceRequest(s: Services, userId: number, rawId: string): Promise<string>;
  /** A received invoice of a collaborator of a company the caller manages, else null (company). */
  hostedReceipt(db: Db, userId: number, receiptId: string): Promise<ReceiptFileRow | null>;
}

/** The caller's own receipt, else a received invoice of a collaborator of a company they manage (spec §6); else 404. */
async function readableReceipt(s: Services, access: FileAccess, userId: number, receiptId: string): Promise<ReceiptFileRow> {
  try {
    return await ownReceipt(s.db, userId, receiptId);
  } catch (err) {
    const hosted = await access.hostedReceipt(s.db, userId, receiptId);
    if (hosted) return hosted;
    throw err;
  }
}

export function receiptRoutes(s: Services, access: FileAccess): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const limiter = shareLimit(s.limits);

  defineRoute(app, {
    method: 'get', path: '/receipt_xml', summary: 'El XML de un comprobante propio, byte por byte, como descarga (con el token, o con `link`: un enlace firmado de POST /api/v3/file_links)', tag: 'Comprobantes', auth: true, contentType: 'application/xml', errors: [404, 410],
    params: { receipt_id: '*receipt_id del ticket', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  }, async (c) => {
    const { userId, id } = await fileReader(c, s, 'receipt_xml', () => receiptIdOf(c.req.query('receipt_id')));
    const row = await readableReceipt(s, access, userId, id);
    const etag = `"x-${row.id}"`;
    // An XML shown inline could be rendered on our origin: always a download (with a type browsers won't run).
    const headers = fileHeaders('application/xml; charset=utf-8', `${entryBase(row)}.xml`, etag, true);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const bytes = await receiptXml(s.files, row);
    return c.body(bytes, 200, { ...headers, 'Content-Length': String(bytes.byteLength) });
  });

  defineRoute(app, {
    method: 'get', path: '/receipt_pdf', summary: 'El PDF de un comprobante propio: el importado o, si no hay, uno generado del XML con el QR de verificación del SAT', tag: 'Comprobantes', auth: true, contentType: 'application/pdf', errors: [404, 410, 422],
    params: { receipt_id: '*receipt_id del ticket', download: '`1` para descargarlo en lugar de abrirlo', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  }, async (c) => {
    const { userId, id } = await fileReader(c, s, 'receipt_pdf', () => receiptIdOf(c.req.query('receipt_id')));
    const row = await readableReceipt(s, access, userId, id);
    const etag = `"p-${row.id}"`;
    const headers = fileHeaders('application/pdf', `${entryBase(row)}.pdf`, etag, c.req.query('download') === '1');
    if (c.req.header('if-none-match') === etag && row.pdfKey) return c.body(null, 304, headers);
    const bytes = await receiptPdf(s.db, s.files, row);
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Length': String(bytes.byteLength) });
  });

  // A link that opens one file the caller may read (their own, or a collaborator's received invoice for
  // a manager, or the PDF of an invoice they asked for); anything else is a 404, as the file route would answer.
  defineRoute(app, {
    method: 'post', path: '/api/v3/file_links', summary: 'Un enlace firmado que abre, sin el token de sesión, un solo archivo propio (el PDF o el XML de un comprobante, o la imagen de un ticket) durante 5 minutos: para abrirlo en otra pestaña o descargarlo', tag: 'Comprobantes', auth: true, body: FileLinkBody,
    response: v.object({ url: v.pipe(v.string(), v.description('ruta en este servidor, con el enlace en `link`')), expires_at: v.pipe(v.string(), v.description('ISO 8601: desde entonces responde 410')) }), errors: [404],
  }, auth, async (c, { body }) => {
    const userId = caller(c).userId;
    let id: string;
    if (body.kind === 'ticket_image') {
      const parsed = v.safeParse(TicketIdParam, body.id);
      if (!parsed.success) throw fail(404, MSG.notFound);
      id = parsed.output.toLowerCase();
      await access.ownImage(s.db, userId, id);
    } else if (body.kind === 'invoice_pdf') {
      id = await access.ownInvoiceRequest(s, userId, body.id);
    } else {
      id = receiptIdOf(body.id);
      await readableReceipt(s, access, userId, id);
    }
    const { link, expiresAt } = await signFileLink(s.db, body.kind, userId, id, s.clock());
    const answer: FileLink = { url: filePath(body.kind, id, link), expires_at: expiresAt.toISOString() };
    c.header('Cache-Control', 'no-store');
    // A file link is a capability: never kept in the idempotency table nor replayed.
    markSecretResponse(c);
    return ok(c, answer);
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/receipts/archive', summary: 'Un zip con el PDF y el XML de los tickets propios elegidos que tienen comprobante (hasta 500), enviado conforme se arma', tag: 'Comprobantes', auth: true, contentType: 'application/zip', errors: [400, 404], query: ArchiveQuery,
    params: { 'tickets[]': '*ticket_id (uno por parámetro)' },
  }, auth, async (c, { query: q }) => {
    const rows = await receiptsOfTickets(s.db, caller(c).userId, q.tickets);
    if (rows.length === 0) throw fail(404, MSG.archiveNoReceipts);
    return new Response(archiveStream(s.db, s.files, rows), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${archiveName(s.clock())}"`,
        'Cache-Control': 'no-store',
        'X-Receipt-Count': String(rows.length),
      },
    });
  });

  defineRoute(app, {
    method: 'post', path: '/api/v2/send_receipt_email', summary: 'Enviar por correo el PDF y el XML de los comprobantes de tickets propios (hasta 50), con copia al correo del usuario; 20 envíos por hora', tag: 'Comprobantes', auth: true, body: ShareReceiptsBody, response: R.ShareSent, errors: [400, 422, 429, 502],
  }, auth, async (c, { body }) => {
    await shareReceipts({ db: s.db, files: s.files, mailer: s.mailer, limiter, now: s.clock() }, caller(c).userId, body);
    return ok(c, { sent: true });
  });

  return app;
}
