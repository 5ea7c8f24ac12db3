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
import { defineRoute, pathParam } from '../http/route';

/** Refs are 16 characters [A-Z0-9]; the route accepts what parseScannedQr accepts. */
/** A merchant ticket's public reference, as the path takes it. */
const REF = { ref: '[A-Z0-9]{12,32}' };
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

  defineRoute(app, {
    method: 'get', path: '/api/v3/tickets/{ref}', patterns: REF, tag: 'Tickets de comercios', auth: false, contentType: 'application/xml', errors: [404],
    summary:
    'Vista pública de un ticket de comercio: el ticket en XML (<Ticket rfc folio fecha lugar formaPago subtotal impuestos total venue> con un <Concepto descripcion cantidad importe/> por renglón); ' +
    'encabezados X-Venue-Name (nombre del comercio, UTF-8 codificado con %) y X-Venue-Logo (ruta del logo)',
    params: { ref: '*Referencia del ticket (16 caracteres A-Z 0-9)', format: '`json`' },
  }, async (c) => {
    const r = await findReceipt(s, pathParam(c, 'ref'));
    // Header values are ISO-8859-1 on the wire: the name travels percent-encoded UTF-8.
    c.header('X-Venue-Name', encodeURIComponent(r.venueName));
    c.header('X-Venue-Logo', r.venueLogo);
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Type', 'application/xml; charset=utf-8');
    return c.body(ticketXml(r));
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/tickets/{ref}/qr.svg', patterns: REF, tag: 'Tickets de comercios', auth: false, contentType: 'image/svg+xml', errors: [404],
    summary: 'QR de 180×180 (SVG) con el enlace de verificación {origen}/#/tickets?ref={ref}&rfc={rfc}&folio={folio}',
    params: { ref: '*Referencia del ticket' },
  }, async (c) => {
    const r = await findReceipt(s, pathParam(c, 'ref'));
    const svg = await receiptQrSvg(receiptVerificationUrl(s.config.publicUrl, r));
    c.header('Content-Type', 'image/svg+xml');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(svg);
  });

  return app;
}
