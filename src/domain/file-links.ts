// Short-lived signed links to one file (DESIGN §3: no secret in a URL that the app makes). A page the
// browser opens by itself (a PDF in a new tab, an XML download, a ticket image) cannot send the session
// header, so the app asks `POST /api/v3/file_links` for a link that opens only that file, only for that
// user, and only for a few minutes; the session token never appears in it.
import * as v from 'valibot';
import { MSG } from './messages';

export const FILE_LINK_KINDS = ['receipt_pdf', 'receipt_xml', 'ticket_image', 'invoice_pdf'] as const;
export type FileLinkKind = (typeof FILE_LINK_KINDS)[number];

/** Long enough to open the link just made, short enough that a leaked one is soon worthless. */
export const FILE_LINK_TTL_MS = 5 * 60_000;

/** The query parameter that carries the signed capability on the file routes. */
export const FILE_LINK_PARAM = 'link';

/** One file to open: a receipt's PDF or XML (by receipt id), a ticket's image (by ticket id), or the PDF of an invoice request (by request id). */
export interface FileTarget {
  kind: FileLinkKind;
  id: string;
}

export const FileLinkBody = v.object({
  kind: v.picklist(FILE_LINK_KINDS, MSG.fileLinkKind),
  id: v.pipe(v.string(MSG.notFound), v.maxLength(64, MSG.notFound)),
});

/** The answer of `POST /api/v3/file_links`: a same-origin path and when it stops working. */
export interface FileLink {
  url: string;
  expires_at: string;
}

/** The file route of a kind, with the resource id and (when given) the signed capability. */
export function filePath(kind: FileLinkKind, id: string, link?: string): string {
  if (kind === 'invoice_pdf') {
    const path = `/api/v33/invoice_requests/${encodeURIComponent(id)}/pdf`;
    return link === undefined ? path : `${path}?${new URLSearchParams({ [FILE_LINK_PARAM]: link }).toString()}`;
  }
  const q = new URLSearchParams(kind === 'ticket_image' ? { ticket_id: id } : { receipt_id: id });
  if (link !== undefined) q.set(FILE_LINK_PARAM, link);
  const path = kind === 'receipt_pdf' ? '/receipt_pdf' : kind === 'receipt_xml' ? '/receipt_xml' : '/api/v2/ticket_image';
  return `${path}?${q.toString()}`;
}
