// The Spanish e-mails of the accounts and receipts areas, in the branded layout (layout.ts): the password
// reset and 'Compartir'.
import type { MailMessage } from './mailer';
import { renderMail } from './layout';

export function passwordResetMail(to: string, username: string, link: string): MailMessage {
  const body = renderMail({
    preview: 'Elige una nueva contraseña para tu cuenta. El enlace vale por 1 hora.',
    greeting: `Hola, ${username}:`,
    intro: ['Recibimos una solicitud para restablecer la contraseña de tu cuenta de Cuentas Claras.', 'Usa este botón para elegir una nueva contraseña:'],
    action: { label: 'Elegir una nueva contraseña', href: link },
    outro: ['El enlace vale por 1 hora y solo funciona una vez.', 'Si no fuiste tú, ignora este correo: tu contraseña no cambiará.'],
    footer: 'Recibes este correo porque alguien pidió restablecer la contraseña de tu cuenta de Cuentas Claras.',
  });
  return { to, subject: 'Restablece tu contraseña de Cuentas Claras', ...body };
}

export interface ShareMailInput {
  to: string;
  /** The sender's own address: gets a copy, and replies go there. */
  senderEmail: string;
  senderName: string;
  message: string;
  count: number;
  /** Spending and income apart, in words ('gastos por $1,234.50 e ingresos por $500.00'); null when none has an amount. */
  totals: string | null;
  uuids: string[];
}

/** 'Compartir' (spec §5): the selected invoices to someone, with the user's message; a copy to the user. */
export function shareReceiptsMail(input: ShareMailInput): MailMessage {
  const who = input.senderName ? `${input.senderName} (${input.senderEmail})` : input.senderEmail;
  const name = input.senderName || input.senderEmail;
  const noun = input.count === 1 ? 'una factura' : `${input.count} facturas`;
  const body = renderMail({
    preview: `${name} te envía ${noun} con su PDF y su XML.`,
    greeting: 'Hola:',
    intro: [
      [{ strong: who }, ` te envía ${noun}`, ...(input.totals ? [': ', { strong: input.totals }] : []), '.'],
      input.count === 1 ? 'Encontrarás adjuntos su PDF y su XML.' : 'Encontrarás adjuntos el PDF y el XML de cada una.',
    ],
    quote: { label: 'Su mensaje:', text: input.message },
    facts: input.uuids.map((u, i) => [input.uuids.length === 1 ? 'Folio fiscal (UUID)' : `Folio fiscal ${i + 1}`, u] as const),
    // A long name would make a three-line button.
    action: { label: name.length <= 24 ? `Responder a ${name}` : 'Responder',  href: `mailto:${encodeURIComponent(input.senderEmail).replace(/%40/g, '@')}` },
    footer: `Te escribimos porque ${who} usó Cuentas Claras para enviarte sus facturas. Si respondes, tu respuesta le llega a esa persona.`,
  });
  return {
    to: input.to,
    cc: input.senderEmail,
    replyTo: input.senderEmail,
    subject: input.count === 1 ? `${name} te compartió una factura` : `${name} te compartió ${input.count} facturas`,
    ...body,
  };
}
