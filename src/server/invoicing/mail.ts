// The e-mail that delivers an invoice: our voice and look (mail/layout.ts), the PDF and the XML attached,
// and one button: SAT's verification of the CFDI.
import { renderMail } from '../mail/layout';
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
  const body = renderMail({
    preview: `Tu factura de ${m.merchantName} por ${m.total}, con su PDF y su XML.`,
    greeting: 'Hola:',
    intro: [
      ['Aquí está la factura de tu compra en ', { strong: m.merchantName }, ' por ', { strong: m.total }, ', a nombre del RFC ', { strong: m.receiverRfc }, '.'],
      'Te adjuntamos el PDF y el XML; guarda el XML, es el comprobante fiscal que vale ante el SAT.',
    ],
    facts: [
      ['Establecimiento', m.merchantName],
      ['Total', m.total],
      ['RFC receptor', m.receiverRfc],
      ['Folio fiscal (UUID)', m.uuid],
    ],
    action: { label: 'Verificar en el SAT', href: m.verificationUrl },
    outro: ['También la encontrarás en Cuentas Claras, en el listado de facturas del mes en que hiciste tu compra.'],
    footer: 'Recibes este correo porque pediste esta factura con Cuentas Claras.',
  });
  return {
    to: m.to,
    subject: `Tu factura de ${m.merchantName}`,
    ...body,
    attachments: [
      { filename: `factura-${m.uuid}.pdf`, contentType: 'application/pdf', content: m.pdf },
      { filename: `factura-${m.uuid}.xml`, contentType: 'application/xml', content: m.xml },
    ],
  };
}
