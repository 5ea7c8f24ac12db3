// Every e-mail we send, rendered: the branded HTML (one button with the right link, escaped user text, the
// layout's tables and inline styles) and a plain-text part that says the same with the link spelled out.
// Set MAIL_PREVIEW_DIR to also write each one as an HTML file (to look at them in a browser).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVITATION_TTL_DAYS } from '../../../src/domain/company';
import type { MailMessage } from '../../../src/server/mail/mailer';
import { passwordResetMail, shareReceiptsMail } from '../../../src/server/mail/templates';
import { renderMail } from '../../../src/server/mail/layout';
import { invoiceMail } from '../../../src/server/invoicing/mail';
import { invitationMail } from '../../../src/server/company/mail';
import { syncArrivedMail } from '../../../src/server/sat-sync/mail';
import { receiptMail, renewalFailedMail } from '../../../src/server/plans/mail';
import { supportChatLink, supportReplyMail } from '../../../src/server/chat/reply-mail';

const EVIL = '<script>alert("x")</script> & "Lupe" <img src=x onerror=1>';
const APP = 'https://app.cuentasclaras.mx';
const RESET_LINK = `${APP}/#/password-reset?token=abc"def&x=1`;

/** The buttons of a rendered mail: the anchors styled as our button (the bulletproof table cell's link). */
function buttons(html: string): { href: string; label: string }[] {
  return [...html.matchAll(/<a href="([^"]*)" target="_blank" rel="noopener" style="display:inline-block[^"]*">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, label: m[2]! }));
}

/** The raw user string must never reach the HTML; its escaped form must. */
function expectEscaped(html: string) {
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('<img');
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Lupe&quot; &lt;img src=x onerror=1&gt;');
}

function expectBranded(m: MailMessage) {
  expect(m.html).toMatch(/^<!doctype html>\n<html lang="es-MX">/);
  expect(m.html).toContain('Cuentas Claras</td>');
  expect(m.html).toContain('#0f766e');
  expect(m.html).toContain('role="presentation"');
  expect(m.html).not.toMatch(/<style|<link|class="/);
  expect(m.text).not.toMatch(/<(p|table|td|strong|a|br)\b/);
  expect(m.text).toContain('Cuentas Claras');
}

const preview = (name: string, m: MailMessage) => {
  const dir = process.env.MAIL_PREVIEW_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.html`), m.html ?? '');
  writeFileSync(join(dir, `${name}.txt`), m.text);
};

describe('branded e-mails', () => {
  it('password reset: one button to the link, escaped, the link in the text part', () => {
    const m = passwordResetMail('lupe@example.com', EVIL, RESET_LINK);
    preview('reset', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toEqual([{ href: `${APP}/#/password-reset?token=abc&quot;def&amp;x=1`, label: 'Elegir una nueva contraseña' }]);
    expect(m.text).toContain(`Hola, ${EVIL}:`);
    expect(m.text).toContain(`Elegir una nueva contraseña:\n${RESET_LINK}\n`);
    expect(m.text).toContain('vale por 1 hora');
    expect(m.subject).toBe('Restablece tu contraseña de Cuentas Claras');
  });

  it('invitation: the company’s own words quoted, one button to the join link', () => {
    const link = `${APP}/#/join/tok123`;
    const m = invitationMail({ to: 'ana@example.com', firstName: EVIL, companyName: 'Abarrotes <b>Don Pepe</b>', emailText: `Bienvenida.\n${EVIL}`, link });
    preview('invitation', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(m.html).toContain('Abarrotes &lt;b&gt;Don Pepe&lt;/b&gt;');
    expect(m.html).not.toContain('<b>');
    expect(m.html).toContain('Bienvenida.<br>&lt;script&gt;');
    expect(buttons(m.html!)).toEqual([{ href: link, label: 'Aceptar la invitación' }]);
    expect(m.text).toContain(`Aceptar la invitación:\n${link}`);
    expect(m.text).toContain(`Mensaje de Abarrotes <b>Don Pepe</b>:\n\nBienvenida.\n${EVIL}`);
    expect(m.text).toContain(`vale por ${INVITATION_TTL_DAYS} días`);
  });

  it('invitation without a text of the company: no empty quote', () => {
    const m = invitationMail({ to: 'a@example.com', firstName: 'Ana', companyName: 'ACME', emailText: '  ', link: `${APP}/#/join/t` });
    expect(m.html).not.toContain('Mensaje de ACME');
    expect(m.text).not.toContain('Mensaje de ACME');
  });

  it('invoice: the data as a table, one button to SAT’s verification, the files attached', () => {
    const verify = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=A-1&re=EKU9003173C9&rr=XAXX010101000&tt=1.00&fe=abcd1234';
    const m = invoiceMail({
      to: 'lupe@example.com', merchantName: EVIL, uuid: '6F1C2E3A-0000-4000-8000-000000000001', total: '$1,234.50', receiverRfc: 'XAXX010101000',
      verificationUrl: verify, pdf: new Uint8Array([1]), xml: new Uint8Array([2]),
    });
    preview('invoice', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toEqual([{ href: verify.replace(/&/g, '&amp;'), label: 'Verificar en el SAT' }]);
    expect(m.html).toContain('Folio fiscal (UUID)</td>');
    expect(m.text).toContain('Folio fiscal (UUID): 6F1C2E3A-0000-4000-8000-000000000001');
    expect(m.text).toContain(`Verificar en el SAT:\n${verify}`);
    expect(m.attachments?.map((a) => a.filename)).toEqual(['factura-6F1C2E3A-0000-4000-8000-000000000001.pdf', 'factura-6F1C2E3A-0000-4000-8000-000000000001.xml']);
  });

  it('shared receipts: the sender’s message quoted, one button to answer them', () => {
    const m = shareReceiptsMail({
      to: 'contador@example.com', senderEmail: 'lupe@example.com', senderName: EVIL, message: `Hola.\n${EVIL}`, count: 2,
      totals: 'gastos por $1,234.50', uuids: ['UUID-1', 'UUID-2'],
    });
    preview('share', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toHaveLength(1);
    expect(buttons(m.html!)).toEqual([{ href: 'mailto:lupe@example.com', label: 'Responder' }]);
    expect(m.html).toContain('También puedes escribir a <a href="mailto:lupe@example.com"');
    const short = shareReceiptsMail({ to: 'c@example.com', senderEmail: 'l@example.com', senderName: 'Lupita', message: '', count: 1, totals: null, uuids: ['U'] });
    expect(buttons(short.html!)).toEqual([{ href: 'mailto:l@example.com', label: 'Responder a Lupita' }]);
    expect(short.html).not.toContain('Su mensaje');
    expect(m.text).toContain('Su mensaje:\n\nHola.\n');
    expect(m.text).toContain('Folio fiscal 2: UUID-2');
    expect(m.text).toContain('mailto:lupe@example.com');
    expect(m).toMatchObject({ cc: 'lupe@example.com', replyTo: 'lupe@example.com' });
  });

  it('SAT sync: one button into the app, or none when the server has no public address', () => {
    const m = syncArrivedMail('lupe@example.com', EVIL, 3, `${APP}/#/`);
    preview('sat-sync', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toEqual([{ href: `${APP}/#/`, label: 'Revisar mis comprobantes' }]);
    expect(m.text).toContain(`Revisar mis comprobantes:\n${APP}/#/`);
    expect(m.subject).toBe('Tus comprobantes del SAT: 3 comprobantes nuevos');
    const none = syncArrivedMail('lupe@example.com', 'XAXX010101000', 1, null);
    expect(buttons(none.html!)).toEqual([]);
    expect(none.text).toContain('1 comprobante nuevo');
  });

  it('payment receipt: the lines as a table, the plan button when the app address is known', () => {
    const at = new Date('2026-11-20T18:00:00Z');
    const until = new Date('2026-12-20T18:00:00Z');
    const base = { to: 'lupe@example.com', paymentId: 'ch_abc', planName: EVIL, amount: 103.24, cardBrand: 'Visa', cardLast4: '4242', at, until };
    const m = receiptMail({ ...base, appUrl: `${APP}/` });
    preview('payment-receipt', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toEqual([{ href: `${APP}/#/subscription`, label: 'Ver mi plan' }]);
    expect(m.text).toContain('Importe (IVA incluido): $103.24 MXN');
    expect(m.text).toContain('Tarjeta: Visa terminación 4242');
    expect(m.text).toContain('Folio del pago: CH_ABC');
    expect(m.text).toContain('está activo hasta el 2026-12-20.');
    expect(buttons(receiptMail(base).html!)).toEqual([]);
  });

  it('renewal failure: says what happens next', () => {
    const m = renewalFailedMail('lupe@example.com', 'Premium', new Date('2026-12-01T12:00:00Z'), APP);
    preview('renewal-failed', m);
    expectBranded(m);
    expect(m.text).toContain('Conservarás tu plan');
    expect(buttons(m.html!)).toEqual([{ href: `${APP}/#/subscription`, label: 'Revisar mi tarjeta' }]);
    expect(renewalFailedMail('l@example.com', 'Premium', null).text).toContain('regresó al plan Gratuito');
  });

  it('support reply: the reply quoted as written, one button that opens the chat', () => {
    const m = supportReplyMail('lupe@example.com', EVIL, supportChatLink(`${APP}/`));
    preview('support-reply', m);
    expectBranded(m);
    expectEscaped(m.html!);
    expect(buttons(m.html!)).toEqual([{ href: `${APP}/#/home?soporte=abrir`, label: 'Abrir el chat' }]);
    expect(m.text).toContain(`Abrir el chat:\n${APP}/#/home?soporte=abrir`);
  });

  it('the layout escapes every piece it is handed and keeps at most one button', () => {
    const { html, text } = renderMail({
      preview: EVIL, greeting: EVIL, intro: [[EVIL, { strong: EVIL }]], facts: [[EVIL, EVIL]], quote: { label: EVIL, text: EVIL },
      action: { label: EVIL, href: 'https://x.example/" onclick="x' }, outro: [EVIL], footer: EVIL,
    });
    expectEscaped(html);
    expect(html).not.toContain('" onclick="');
    expect(buttons(html)).toHaveLength(1);
    expect(text.split(EVIL).length - 1).toBeGreaterThanOrEqual(7);
    expect(() => renderMail({ preview: '', greeting: 'Hola:', intro: [], action: { label: 'x', href: 'javascript:alert(1)' } })).toThrow(/not http/);
  });
});
