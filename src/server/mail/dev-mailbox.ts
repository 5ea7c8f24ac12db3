// GET /dev/mailbox: the embedded mailbox as a server-rendered page (no script, everything escaped), and each
// message's HTML part as its recipient would see it.
// A development tool: mounted only in the embedded demo and answered only to loopback clients (http/dev-only.ts).
import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { defineRoute } from '../http/route';
import { mailMessages, type StoredAttachment } from '../db/schema';
import { escapeHtml } from './html';

const LINK_RE = /https?:\/\/[^\s<>"']+/g;
const PAGE_SIZE = 50;

function links(text: string): string[] {
  return [...new Set(text.match(LINK_RE) ?? [])];
}

function attachmentList(id: number, files: readonly StoredAttachment[]): string {
  if (files.length === 0) return '';
  const items = files
    .map((f, i) => `<li><a href="/dev/mailbox/${id}/attachments/${i}">${escapeHtml(f.filename)}</a> (${Math.ceil((f.base64.length * 3) / 4 / 1024)} KB)</li>`)
    .join('');
  return `<p class="meta">Adjuntos:</p><ul>${items}</ul>`;
}

export function devMailboxRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  defineRoute(app, { method: 'get', path: '/dev/mailbox', summary: 'Buzón de desarrollo (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' }, async (c) => {
    const rows = await s.db.select().from(mailMessages).orderBy(desc(mailMessages.id)).limit(PAGE_SIZE);
    const items = rows
      .map((m) => {
        const anchors = links(m.text)
          .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
          .join('');
        return `<article>
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">Para: ${escapeHtml(m.to)}${m.cc ? ` · Copia: ${escapeHtml(m.cc)}` : ''} · ${escapeHtml(m.createdAt.toISOString())}</p>
${m.html ? `<p><a href="/dev/mailbox/${m.id}/html">Ver el correo como lo recibe la persona (HTML)</a></p>` : ''}
<pre>${escapeHtml(m.text)}</pre>
${anchors ? `<ul>${anchors}</ul>` : ''}
${attachmentList(m.id, m.attachments)}
</article>`;
      })
      .join('\n');
    c.header('Cache-Control', 'no-store');
    return c.html(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Buzón de desarrollo · Cuentas Claras</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:1rem auto;padding:0 1rem;color:#1f2937}
article{border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;word-break:break-word}
.meta{color:#4b5563;font-size:.875rem}a{color:#0f766e}</style></head>
<body><h1>Buzón de desarrollo</h1>
<p>Los correos que envía Cuentas Claras cuando no hay un servidor SMTP configurado (SMTP_URL).</p>
${items || '<p>Todavía no hay correos.</p>'}
</body></html>`);
  });
  defineRoute(app, {
    method: 'get', path: '/dev/mailbox/{id}/html', summary: 'La parte HTML de un correo del buzón de desarrollo, como la vería quien lo recibe (solo sin SMTP_URL)', tag: 'Documentación', auth: false,
    contentType: 'text/html', errors: [404], params: { id: '*Id del correo' },
  }, async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id)) return c.notFound();
    const [row] = await s.db.select({ html: mailMessages.html }).from(mailMessages).where(eq(mailMessages.id, id));
    if (!row?.html) return c.notFound();
    // Our own templates' output (every dynamic string escaped); the app's CSP still forbids any script in it.
    c.header('Cache-Control', 'no-store');
    return c.html(row.html);
  });
  defineRoute(app, {
    method: 'get', path: '/dev/mailbox/{id}/attachments/{n}', summary: 'Un adjunto de un correo del buzón de desarrollo, como descarga (solo sin SMTP_URL)', tag: 'Documentación', auth: false,
    contentType: 'application/octet-stream', errors: [404], params: { id: '*Id del correo', n: '*Número del adjunto, desde 0' },
  }, async (c) => {
    const id = Number(c.req.param('id'));
    const n = Number(c.req.param('n'));
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(n)) return c.notFound();
    const [row] = await s.db.select({ attachments: mailMessages.attachments }).from(mailMessages).where(eq(mailMessages.id, id));
    const file = row?.attachments[n];
    if (!file) return c.notFound();
    const bytes = Buffer.from(file.base64, 'base64');
    // Always a download: an attached XML or HTML must never render on our origin.
    return c.body(bytes, 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
    });
  });

  return app;
}
