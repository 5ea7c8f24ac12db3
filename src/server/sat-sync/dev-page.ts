// GET /dev/sat-portal (development tools: embedded demo, loopback clients; http/dev-only.ts): the simulated SAT portal's accounts and a
// form to open one for any RFC with a CIEC, so a tester can connect an account of their own. CIECs are
// stored hashed, so the page shows the demo's documented ones only. Server-rendered, everything escaped.
import { asc } from 'drizzle-orm';
import { Hono } from 'hono';
import { isValidRfc } from '../../domain/rfc';
import { SAT_PASSWORD_MAX, SAT_PASSWORD_MIN } from '../../domain/sat-sync';
import type { AppEnv, Services } from '../context';
import { satPortalAccounts } from '../db/schema';
import { escapeHtml } from '../mail/html';
import { DEMO_SAT_CIECS, openPortalAccount } from './simulated-portal';
import { defineRoute } from '../http/route';

const page = (body: string) => `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Portal del SAT simulado · Cuentas Claras</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:1rem auto;padding:0 1rem;color:#1f2937}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:.5rem;text-align:left}
label{display:block;margin:.5rem 0}.error{color:#b91c1c}</style></head><body>${body}</body></html>`;

export function devSatPortalRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const render = async (note = '') => {
    const rows = await s.db.select().from(satPortalAccounts).orderBy(asc(satPortalAccounts.rfc));
    const list = rows
      .map((r) => `<tr><td><code>${escapeHtml(r.rfc)}</code></td><td>${DEMO_SAT_CIECS[r.rfc] ? `<code>${escapeHtml(DEMO_SAT_CIECS[r.rfc]!)}</code> (demo)` : '(guardada con hash)'}</td></tr>`)
      .join('');
    return page(`<h1>Portal del SAT simulado (desarrollo)</h1>
<p>Cuentas del portal: el RFC y su contraseña del SAT (CIEC). Cada día el portal tiene comprobantes nuevos de cada RFC.</p>
${note}
<table><thead><tr><th>RFC</th><th>CIEC</th></tr></thead><tbody>${list}</tbody></table>
<h2>Abrir o cambiar una cuenta</h2>
<form method="post" enctype="multipart/form-data" action="/dev/sat-portal">
<label>RFC <input name="rfc" required maxlength="13" autocomplete="off"></label>
<label>CIEC <input name="ciec" required minlength="${SAT_PASSWORD_MIN}" maxlength="${SAT_PASSWORD_MAX}" autocomplete="off"></label>
<button type="submit">Guardar</button></form>`);
  };

  defineRoute(app, { method: 'get', path: '/dev/sat-portal', summary: 'Portal del SAT simulado: sus cuentas y un formulario para abrir una (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' }, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.html(await render());
  });

  defineRoute(app, { method: 'post', path: '/dev/sat-portal', summary: 'Abrir una cuenta del portal del SAT simulado con un RFC y una CIEC (formulario; solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' }, async (c) => {
    c.header('Cache-Control', 'no-store');
    const form = await c.req.formData().catch(() => null);
    const rfc = String(form?.get('rfc') ?? '').trim().toUpperCase();
    const ciec = String(form?.get('ciec') ?? '');
    if (!isValidRfc(rfc) || ciec.length < SAT_PASSWORD_MIN || ciec.length > SAT_PASSWORD_MAX) {
      return c.html(await render('<p class="error">RFC o CIEC inválidos.</p>'), 400);
    }
    await openPortalAccount(s.db, rfc, ciec);
    return c.html(await render(`<p>Cuenta del portal guardada para <code>${escapeHtml(rfc)}</code>.</p>`));
  });

  return app;
}
