// GET /api/openapi.json and GET /api/docs (the same document as a server-rendered page, no script).
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { defineRoute } from '../http/route';
import { escapeHtml } from '../mail/html';
import { openApiDocument, type Endpoint } from './document';

function docsPage(doc: Record<string, unknown>, endpoints: readonly Endpoint[]): string {
  const info = doc.info as { title: string; version: string; description: string };
  const paths = doc.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
  const sections = endpoints.map((e) => {
    const op = paths[e.path]?.[e.method];
    const body = op?.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
    const req = body ? Object.values(body.content)[0] : undefined;
    const ok = op?.responses[String(e.status ?? 200)] as { content?: Record<string, { schema?: unknown }> } | undefined;
    const okSchema = ok?.content?.['application/json']?.schema;
    const codes = Object.keys(op?.responses ?? {}).join(', ');
    return `<section id="${escapeHtml(e.method + e.path)}">
<h3><span class="m">${e.method.toUpperCase()}</span> <code>${escapeHtml(e.path)}</code></h3>
<p>${escapeHtml(e.summary)}${e.auth ? ' · <strong>requiere token</strong>' : ''}</p>
${req ? `<details><summary>Cuerpo</summary><pre>${escapeHtml(JSON.stringify(req.schema, null, 2))}</pre></details>` : ''}
${okSchema ? `<details><summary>Respuesta</summary><pre>${escapeHtml(JSON.stringify(okSchema, null, 2))}</pre></details>` : ''}
<p class="codes">Códigos: ${escapeHtml(codes)}</p>
</section>`;
  }).join('\n');
  return `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:56rem;margin:1rem auto;padding:0 1rem;color:#1f2937}
section{border-top:1px solid #e5e7eb;padding:.5rem 0}.m{display:inline-block;min-width:3.5rem;color:#0f766e}
pre{background:#f3f4f6;padding:.5rem;overflow:auto;font-size:.8rem}.codes{color:#4b5563;font-size:.875rem}</style></head>
<body><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.description)}</p>
<p><a href="/api/openapi.json">openapi.json</a></p>
${sections}
</body></html>`;
}

/** The document of `endpoints()` (every route the app defines, handed in by the composition root; read on first request). */
export function openApiRoutes(endpoints: () => readonly Endpoint[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let doc: Record<string, unknown> | undefined;
  let page: string | undefined;
  const document = () => (doc ??= openApiDocument(endpoints()));
  defineRoute(app, { method: 'get', path: '/api/openapi.json', summary: 'Este documento', tag: 'Documentación', auth: false, contentType: 'application/json' }, (c) =>
    c.json(document()),
  );
  defineRoute(app, { method: 'get', path: '/api/docs', summary: 'Este documento en HTML', tag: 'Documentación', auth: false, contentType: 'text/html' }, (c) =>
    c.html((page ??= docsPage(document(), endpoints()))),
  );
  return app;
}
