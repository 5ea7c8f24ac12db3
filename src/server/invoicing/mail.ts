// The e-mail that delivers an invoice: our voice, Spanish, the PDF and the XML attached.
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mailer';

export interface InvoiceMailInput {
  to: string;
  merchantName: string;
  uuid: string;
  /** Formatted money, e.g. "$1,234.50". */
  total: string;
  receiverRfc: string;
  /** SAT's verification link (the QR on the PDF). */
  verificationUrl: string;
  pdf: Uint8Array;
  xml: Uint8Array;
}

export function invoiceMail(m: InvoiceMailInput): MailMessage {
  const text = [
    'Hola:',
    '',
    `Aquí está la factura de tu compra en ${m.merchantName} por ${m.total}, a nombre del RFC ${m.receiverRfc}.`,
    'Te adjuntamos el PDF y el XML; guarda el XML, es el comprobante fiscal que vale ante el SAT.',
    '',
    `Folio fiscal (UUID): ${m.uuid}`,
    `Verifícala en el SAT: ${m.verificationUrl}`,
    '',
    'También la encontrarás en Cuentas Claras, en el listado de facturas del mes en que hiciste tu compra.',
    '',
    'Cuentas Claras',
  ].join('\n');
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">
<p>Hola:</p>
<p>Aquí está la factura de tu compra en <strong>${escapeHtml(m.merchantName)}</strong> por <strong>${escapeHtml(m.total)}</strong>, a nombre del RFC ${escapeHtml(m.receiverRfc)}.</p>
<p>Te adjuntamos el PDF y el XML; guarda el XML, es el comprobante fiscal que vale ante el SAT.</p>
<p>Folio fiscal (UUID): <strong>${escapeHtml(m.uuid)}</strong><br><a href="${escapeHtml(m.verificationUrl)}" style="color:#0f766e">Verificar en el SAT</a></p>
<p>También la encontrarás en Cuentas Claras, en el listado de facturas del mes en que hiciste tu compra.</p>
<p>Cuentas Claras</p>
</body></html>`;
  return {
    to: m.to,
    subject: `Tu factura de ${m.merchantName}`,
    text,
    html,
    attachments: [
      { filename: `factura-${m.uuid}.pdf`, contentType: 'application/pdf', content: m.pdf },
      { filename: `factura-${m.uuid}.xml`, contentType: 'application/xml', content: m.xml },
    ],
  };
}
