// The public receipt view of a merchant ticket (spec §7 'Receipt view', top-level rule 1): anyone holding
// the ticket's unguessable ref reads it; nothing else about the merchant or the buyer is exposed.
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import QRCode from 'qrcode';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { companies, merchantTickets } from '../db/schema';
import { fail } from '../http/errors';
import { receiptVerificationUrl, ticketXml, type ReceiptTicket } from './ticket-xml';

/** Refs are 16 characters [A-Z0-9]; the route accepts what parseScannedQr accepts. */
const REF = ':ref{[A-Z0-9]{12,32}}';
/** Spec §9: the receipt QR is 180×180. */
export const RECEIPT_QR_SIZE = 180;

export interface ReceiptRow extends ReceiptTicket {
  venueName: string;
  venueLogo: string;
}

async function findReceipt(s: Services, ref: string): Promise<ReceiptRow> {
  const [row] = await s.db
    .select({ t: merchantTickets, rfc: companies.rfc, name: companies.name, logo: companies.logo, kind: companies.kind })
    .from(merchantTickets)
    .innerJoin(companies, eq(companies.id, merchantTickets.companyId))
    .where(eq(merchantTickets.ref, ref))
    .limit(1);
  if (!row || row.kind !== 'merchant') throw fail(404, MSG.notFound);
  const t = row.t;
  return {
    ref: t.ref,
    rfc: row.rfc,
    folio: t.ticketNumber,
    issuedAt: t.issuedAt,
    postalCode: t.postalCode,
    venue: t.venue,
    formaPago: t.formaPago,
    subtotal: t.subtotal,
    tax: t.tax,
    total: t.total,
    items: t.items,
    venueName: row.name,
    venueLogo: row.logo,
  };
}

/** The receipt's QR as a 180×180 SVG. */
export async function receiptQrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: RECEIPT_QR_SIZE });
}

export function ticketViewRoutes(s: Services, _deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(`/api/v3/tickets/${REF}`, async (c) => {
    const r = await findReceipt(s, c.req.param('ref'));
    // Header values are ISO-8859-1 on the wire: the name travels percent-encoded UTF-8.
    c.header('X-Venue-Name', encodeURIComponent(r.venueName));
    c.header('X-Venue-Logo', r.venueLogo);
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Type', 'application/xml; charset=utf-8');
    return c.body(ticketXml(r));
  });

  app.get(`/api/v3/tickets/${REF}/qr.svg`, async (c) => {
    const r = await findReceipt(s, c.req.param('ref'));
    const svg = await receiptQrSvg(receiptVerificationUrl(s.config.publicUrl, r));
    c.header('Content-Type', 'image/svg+xml');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(svg);
  });

  return app;
}
