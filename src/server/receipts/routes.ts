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
import { parseBracketedQuery } from '../http/bracketed-query';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { archiveName, archiveStream, entryBase } from './archive';
import { ownReceipt, receiptPdf, receiptsOfTickets, receiptXml, type ReceiptFileRow } from '../cfdi/receipts';
import { ShareLimiter, shareReceipts } from './share';

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
  const limiter = new ShareLimiter();

  app.get('/receipt_xml', async (c) => {
    const { userId, id } = await fileReader(c, s, 'receipt_xml', () => receiptIdOf(c.req.query('receipt_id')));
    const row = await readableReceipt(s, access, userId, id);
    const etag = `"x-${row.id}"`;
    // An XML shown inline could be rendered on our origin: always a download (with a type browsers won't run).
    const headers = fileHeaders('application/xml; charset=utf-8', `${entryBase(row)}.xml`, etag, true);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const bytes = await receiptXml(s.files, row);
    return c.body(bytes, 200, { ...headers, 'Content-Length': String(bytes.byteLength) });
  });

  app.get('/receipt_pdf', async (c) => {
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
  app.post('/api/v3/file_links', auth, async (c) => {
    const body = parseWith(FileLinkBody, c.get('body'));
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

  app.get('/api/v3/receipts/archive', auth, async (c) => {
    const q = parseWith(ArchiveQuery, parseBracketedQuery(new URL(c.req.url).searchParams));
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

  app.post('/api/v2/send_receipt_email', auth, async (c) => {
    const body = parseWith(ShareReceiptsBody, c.get('body'));
    await shareReceipts({ db: s.db, files: s.files, mailer: s.mailer, limiter, now: s.clock() }, caller(c).userId, body);
    return ok(c, { sent: true });
  });

  return app;
}
