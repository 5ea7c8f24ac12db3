// GET /dev/mailbox: the embedded mailbox as a server-rendered page (no script, everything escaped).
// Mounted only when SMTP_URL is not set.
import { desc } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { mailMessages } from '../db/schema';
import { escapeHtml } from './html';

const LINK_RE = /https?:\/\/[^\s<>"']+/g;
const PAGE_SIZE = 50;

function links(text: string): string[] {
  return [...new Set(text.match(LINK_RE) ?? [])];
}

export function devMailboxRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/dev/mailbox', async (c) => {
    const rows = await s.db.select().from(mailMessages).orderBy(desc(mailMessages.id)).limit(PAGE_SIZE);
    const items = rows
      .map((m) => {
        const anchors = links(m.text)
          .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
          .join('');
        return `<article>
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">Para: ${escapeHtml(m.to)} · ${escapeHtml(m.createdAt.toISOString())}</p>
<pre>${escapeHtml(m.text)}</pre>
${anchors ? `<ul>${anchors}</ul>` : ''}
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
  return app;
}
