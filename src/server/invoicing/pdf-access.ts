// Who may read an invoice request's PDF. An anonymous request (no user) has only its unguessable id as
// its holder's handle, so the id stays its capability. A request made by a signed-in user is that user's:
// its PDF opens only with their session in a header, or with a signed short-lived link that
// POST /api/v3/file_links made for them (http/file-links.ts). Anyone else gets the same 404 as for an id
// that does not exist, and a bad or expired link the file links' own 404 / 410.
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import type { Context } from 'hono';
import { FILE_LINK_PARAM } from '../../domain/file-links';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { invoiceRequests } from '../db/schema';
import { authOf } from '../http/auth';
import { fail } from '../http/errors';
import { checkFileLink } from '../http/file-links';

const RequestId = v.pipe(v.string(), v.uuid());

/** A request id as stored (lower case), or a 404. */
export function invoiceRequestIdOf(raw: string | undefined): string {
  const id = v.safeParse(RequestId, raw ?? '');
  if (!id.success) throw fail(404, MSG.notFound);
  return id.output.toLowerCase();
}

type RequestRow = typeof invoiceRequests.$inferSelect;

async function rowOf(s: Services, id: string): Promise<RequestRow> {
  const [row] = await s.db.select().from(invoiceRequests).where(eq(invoiceRequests.id, id));
  if (!row) throw fail(404, MSG.notFound);
  return row;
}

/** Whether this caller may be handed a working PDF path for the request (the status endpoint's pdf_url). */
export function pdfReadableBy(row: Pick<RequestRow, 'userId'>, userId: number | null): boolean {
  return row.userId === null || row.userId === userId;
}

/** The request whose PDF this call may read; 404 (or a link's 404 / 410) otherwise. */
export async function readableInvoiceRequest(c: Context<AppEnv>, s: Services): Promise<RequestRow> {
  const id = invoiceRequestIdOf(c.req.param('id'));
  const link = c.req.query(FILE_LINK_PARAM);
  if (link !== undefined) {
    // A link alone decides, as on the other file routes: checked before the row, so it tells nothing of it.
    const userId = await checkFileLink(s.db, link, 'invoice_pdf', id, s.clock());
    const row = await rowOf(s, id);
    if (row.userId !== userId) throw fail(404, MSG.notFound);
    return row;
  }
  const row = await rowOf(s, id);
  if (row.userId === null) return row;
  const user = await authOf(c, s);
  if (!user || user.userId !== row.userId) throw fail(404, MSG.notFound);
  return row;
}

/** POST /api/v3/file_links for 'invoice_pdf': the caller's own request, else the 404 its PDF route would give. */
export async function assertOwnInvoiceRequest(s: Services, userId: number, rawId: string): Promise<string> {
  const id = invoiceRequestIdOf(rawId);
  const row = await rowOf(s, id);
  if (row.userId !== userId) throw fail(404, MSG.notFound);
  return id;
}
