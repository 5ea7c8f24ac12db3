// The one look of every e-mail we send: the brand's mark and teal, one column at most 560 px wide that
// shrinks to a phone, tables and inline styles only (what Gmail, Outlook and Apple Mail all render), one
// button, and a plain-text part that says the same with the link spelled out. Every dynamic string is
// escaped here: templates hand in text, never HTML.
import { escapeHtml } from './html';

/** Text with some words in bold: plain strings and `{ strong }` pieces. */
export type Inline = string | { strong: string };
export type Paragraph = Inline | readonly Inline[];

export interface MailAction {
  label: string;
  href: string;
}

export interface MailContent {
  /** The inbox preview line (hidden in the body). */
  preview: string;
  /** The first line, e.g. 'Hola, Lupita:'. */
  greeting: string;
  /** Before the button. */
  intro: readonly Paragraph[];
  /** Label/value rows (a receipt's lines, an invoice's data), as a table. */
  facts?: readonly (readonly [string, string])[];
  /** Someone's own words (an invitation's text, a shared message), kept as written, quoted. */
  quote?: { label: string; text: string };
  /** The one call to action; the text part spells its link out. */
  action?: MailAction;
  /** After the button: how long a link lasts, what to do if it was not you. */
  outro?: readonly Paragraph[];
  /** The small print under the card (defaults to why they got this e-mail). */
  footer?: string;
}

export interface RenderedMail {
  html: string;
  text: string;
}

export const BRAND = {
  name: 'Cuentas Claras',
  primary: '#0f766e',
  primaryDark: '#115e59',
  text: '#1f2937',
  muted: '#4b5563',
  border: '#e5e7eb',
  page: '#f3f4f6',
  // Single quotes: the stack goes inside style="…" attributes.
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
} as const;

const DEFAULT_FOOTER = 'Recibes este correo por tu cuenta o una solicitud en Cuentas Claras. Si no esperabas este correo, puedes ignorarlo.';

const pieces = (p: Paragraph): readonly Inline[] => (typeof p === 'string' || !Array.isArray(p) ? [p as Inline] : (p as readonly Inline[]));
const inlineHtml = (p: Paragraph) =>
  pieces(p)
    .map((x) => (typeof x === 'string' ? escapeHtml(x) : `<strong style="color:${BRAND.text}">${escapeHtml(x.strong)}</strong>`))
    .join('');
const inlineText = (p: Paragraph) => pieces(p).map((x) => (typeof x === 'string' ? x : x.strong)).join('');

/** Line breaks in someone's own text survive as <br> (no pre-wrap: Outlook ignores it). */
const multiline = (s: string) => escapeHtml(s.trim()).replace(/\r?\n/g, '<br>');

const para = (p: Paragraph, color: string = BRAND.text) =>
  `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:${color}">${inlineHtml(p)}</p>`;

/** The mark of the app icon (a teal rounded square with a check) drawn with a table cell, so no image is blocked. */
const header = () => `<tr><td style="padding:24px 24px 8px">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
<td width="36" height="36" align="center" valign="middle" style="width:36px;height:36px;background:${BRAND.primary};border-radius:9px;color:#ffffff;font-size:20px;line-height:36px;font-weight:700;font-family:${BRAND.font}">&#10003;</td>
<td style="padding-left:10px;font-family:${BRAND.font};font-size:20px;line-height:36px;font-weight:700;color:${BRAND.primary}">${BRAND.name}</td>
</tr></table></td></tr>`;

const factsHtml = (facts: MailContent['facts']) =>
  facts && facts.length
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse">${facts
        .map(
          ([k, v]) =>
            `<tr><td style="padding:8px 12px 8px 0;border-bottom:1px solid ${BRAND.border};font-size:14px;line-height:20px;color:${BRAND.muted};vertical-align:top">${escapeHtml(k)}</td><td style="padding:8px 0;border-bottom:1px solid ${BRAND.border};font-size:14px;line-height:20px;color:${BRAND.text};text-align:right;word-break:break-word">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : '';

const quoteHtml = (q: MailContent['quote']) =>
  q && q.text.trim()
    ? `${para(q.label, BRAND.muted)}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px"><tr><td style="border-left:4px solid ${BRAND.primary};background:#f0fdfa;padding:12px 16px;font-size:16px;line-height:24px;color:${BRAND.text};word-break:break-word">${multiline(q.text)}</td></tr></table>`
    : '';

/** The link spelled out under the button, for a client that does not open it. */
function fallbackLine(href: string): string {
  const mail = /^mailto:/i.exec(href) ? decodeURIComponent(href.slice('mailto:'.length)) : null;
  if (mail) return `También puedes escribir a <a href="${escapeHtml(href)}" style="color:${BRAND.primary};word-break:break-all">${escapeHtml(mail)}</a>.`;
  return `Si el botón no funciona, copia este enlace en tu navegador:<br><a href="${escapeHtml(href)}" style="color:${BRAND.primary};word-break:break-all">${escapeHtml(href)}</a>`;
}

/** A bulletproof button: a table cell with the colour (Outlook ignores an anchor's padding). */
const buttonHtml = (a: MailAction | undefined) =>
  a
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px"><tr><td align="center" bgcolor="${BRAND.primary}" style="border-radius:8px;background:${BRAND.primary}">
<a href="${escapeHtml(a.href)}" target="_blank" rel="noopener" style="display:inline-block;padding:14px 28px;font-family:${BRAND.font};font-size:16px;line-height:20px;font-weight:700;color:#ffffff;text-decoration:none;border-radius:8px">${escapeHtml(a.label)}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:${BRAND.muted}">${fallbackLine(a.href)}</p>`
    : '';

function renderHtml(m: MailContent): string {
  const body = [
    para(m.greeting),
    ...m.intro.map((p) => para(p)),
    factsHtml(m.facts),
    quoteHtml(m.quote),
    buttonHtml(m.action),
    ...(m.outro ?? []).map((p) => para(p, BRAND.muted)),
  ].join('\n');
  return `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="x-apple-disable-message-reformatting"><meta name="color-scheme" content="light"><title>${escapeHtml(BRAND.name)}</title></head>
<body style="margin:0;padding:0;background:${BRAND.page};font-family:${BRAND.font};color:${BRAND.text}">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(m.preview)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${BRAND.page}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border:1px solid ${BRAND.border};border-radius:12px;border-top:4px solid ${BRAND.primary}">
${header()}
<tr><td style="padding:16px 24px 8px;font-family:${BRAND.font}">
${body}
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px"><tr><td style="padding:16px 24px;font-family:${BRAND.font};font-size:12px;line-height:18px;color:${BRAND.muted};text-align:center">${escapeHtml(m.footer ?? DEFAULT_FOOTER)}<br>${BRAND.name} · Cuentas claras, amistades largas</td></tr></table>
</td></tr></table>
</body></html>`;
}

function renderText(m: MailContent): string {
  const lines: string[] = [m.greeting, ''];
  for (const p of m.intro) lines.push(inlineText(p), '');
  if (m.facts?.length) lines.push(...m.facts.map(([k, v]) => `${k}: ${v}`), '');
  if (m.quote?.text.trim()) lines.push(m.quote.label, '', m.quote.text.trim(), '');
  if (m.action) lines.push(`${m.action.label}:`, m.action.href, '');
  for (const p of m.outro ?? []) lines.push(inlineText(p), '');
  lines.push('—', BRAND.name, m.footer ?? DEFAULT_FOOTER);
  return lines.join('\n');
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** Both parts of a branded e-mail from the same content. A button's link must be http(s) or mailto. */
export function renderMail(m: MailContent): RenderedMail {
  if (m.action && !SAFE_LINK.test(m.action.href)) throw new Error(`mail: refusing a button link that is not http(s) or mailto: ${m.action.href.slice(0, 40)}`);
  return { html: renderHtml(m), text: renderText(m) };
}
