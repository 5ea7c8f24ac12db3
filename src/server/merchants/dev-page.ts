// GET /dev/merchant-tickets (development tools: embedded demo, loopback clients; http/dev-only.ts): the demo merchants and, per
// merchant, its registered tickets with everything a person needs to try each flow — the values to
// type in its form, and the QR a phone can scan. Server-rendered, no script, everything escaped.
import { asc, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import QRCode from 'qrcode';
import { FORMAS_PAGO } from '../../domain/invoicing';
import { MX_TZ } from '../../domain/mexico-time';
import { MERCHANTS } from '../../domain/merchants';
import type { AppEnv, Services } from '../context';
import { companies, merchantTickets } from '../db/schema';
import { escapeHtml } from '../mail/html';
import { mexicoToday } from '../../domain/merchant-fields';
import { merchantFields } from './fields';
import { merchantTicketQr } from './merchant-tickets';
import { defineRoute, pathParam } from '../http/route';

const PAGE = 30;
const LOCAL = new Intl.DateTimeFormat('es-MX', { timeZone: MX_TZ, dateStyle: 'medium', timeStyle: 'short' });

const page = (title: string, body: string) => `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Cuentas Claras</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1f2937}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:.5rem;text-align:left;vertical-align:top}
.qr svg{width:140px;height:140px}.meta{color:#4b5563;font-size:.875rem}a{color:#0f766e}code{font-size:.95em}
img.logo{width:40px;height:40px;vertical-align:middle;margin-right:.5rem}</style></head>
<body>${body}</body></html>`;

export function devMerchantTicketsRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  defineRoute(app, { method: 'get', path: '/dev/merchant-tickets', summary: 'Tickets de demostración de cada comercio con su QR (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' }, async (c) => {
    c.header('Cache-Control', 'no-store');
    const counts = await s.db
      .select({ id: companies.id, short: companies.shortName, name: companies.name, logo: companies.logo, n: sql<number>`count(${merchantTickets.id})::int` })
      .from(companies)
      .leftJoin(merchantTickets, eq(merchantTickets.companyId, companies.id))
      .where(eq(companies.kind, 'merchant'))
      .groupBy(companies.id)
      .orderBy(asc(companies.id));
    const rows = counts
      .map((m) => `<tr><td><img class="logo" src="${escapeHtml(m.logo)}" alt="">${escapeHtml(m.name)}</td><td><code>${escapeHtml(m.short)}</code> · company[id]=${m.id}</td><td><a href="/dev/merchant-tickets/${encodeURIComponent(m.short)}">${m.n} tickets</a></td></tr>`)
      .join('');
    return c.html(page('Tickets de comercios', `<h1>Tickets de comercios (desarrollo)</h1>
<p>Los tickets de demostración de cada comercio: úsalos en sus formularios o escanea su QR desde «Facturar ticket → Escanear código».</p>
<table><thead><tr><th>Comercio</th><th>Identificador</th><th>Tickets</th></tr></thead><tbody>${rows}</tbody></table>`));
  });

  defineRoute(app, { method: 'get', path: '/dev/merchant-tickets/{short_name}', names: { short_name: 'short' }, summary: 'Los tickets de un comercio con los valores de su formulario y su QR (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html', params: { short_name: '*short_name del comercio' } }, async (c) => {
    c.header('Cache-Control', 'no-store');
    const short = pathParam(c, 'short');
    const [m] = await s.db.select().from(companies).where(eq(companies.shortName, short));
    if (!m || m.kind !== 'merchant') return c.notFound();
    const entry = MERCHANTS.find((x) => x.short_name === short);
    const fields = await merchantFields(s.db, m.id);
    const tickets = await s.db.select().from(merchantTickets).where(eq(merchantTickets.companyId, m.id)).orderBy(desc(merchantTickets.issuedAt)).limit(PAGE);
    const form = entry?.anonymous ? `/#/ticket/form-anonymous/${short}` : `/#/ticket/form/${short}`;
    const body = await Promise.all(
      tickets.map(async (t) => {
        const qr = merchantTicketQr(s.config.publicUrl, short, t);
        const svg = await QRCode.toString(qr, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
        const facts = fields
          .filter((f) => f.meaning !== 'label')
          .map((f) => {
            const value =
              f.meaning === 'ticket_number' ? t.ticketNumber
              : f.meaning === 'date' ? mexicoToday(t.issuedAt)
              : f.meaning === 'amount' ? t.total
              : f.meaning === 'venue' ? t.venue
              : f.meaning === 'check' ? t.checkCode
              : '(cualquier valor válido)';
            return `<li>${escapeHtml(f.field_name)}: <code>${escapeHtml(value)}</code></li>`;
          })
          .join('');
        const state = t.invoiceRequestId ? 'con solicitud de factura' : 'sin facturar';
        return `<tr><td><ul>${facts}</ul><p class="meta">${escapeHtml(LOCAL.format(t.issuedAt))} · ${escapeHtml(FORMAS_PAGO[t.formaPago] ?? t.formaPago)} · ${state}<br>
ref <code>${escapeHtml(t.ref)}</code> · <a href="/#/tickets?ref=${encodeURIComponent(t.ref)}">ver ticket</a> · <a href="${escapeHtml(qr)}">abrir el QR</a></p></td>
<td class="qr" aria-label="Código QR del ticket ${escapeHtml(t.ticketNumber)}">${svg}</td></tr>`;
      }),
    );
    return c.html(page(m.name, `<p><a href="/dev/merchant-tickets">← Todos los comercios</a></p>
<h1><img class="logo" src="${escapeHtml(m.logo)}" alt="">${escapeHtml(m.name)}</h1>
<p class="meta">${escapeHtml(m.legalName)} · RFC ${escapeHtml(m.rfc)} · Régimen ${escapeHtml(m.taxRegime)} · CP ${escapeHtml(m.postalCode)} · company[id]=${m.id}</p>
<p>Formulario: <a href="${escapeHtml(form)}">${escapeHtml(form)}</a>. Sus tickets más recientes (hasta ${PAGE}):</p>
<table><thead><tr><th>Datos para el formulario</th><th>QR</th></tr></thead><tbody>${body.join('')}</tbody></table>`));
  });
  return app;
}
