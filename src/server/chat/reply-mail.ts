// The e-mail a user gets when support answers in the chat: the reply itself, when support works and a
// link that opens the chat again (the address we send from takes no replies).
import { SUPPORT_HOURS } from '../../domain/chat';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../mail/mailer';

/** `#/home?soporte=abrir` opens the chat panel (after signing in, if needed). */
export const supportChatLink = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/#/home?soporte=abrir`;

export function supportReplyMail(to: string, reply: string, link: string): MailMessage {
  const body = renderMail({
    preview: 'Soporte de Cuentas Claras respondió tu mensaje.',
    greeting: 'Hola:',
    intro: ['Soporte de Cuentas Claras respondió tu mensaje.'],
    quote: { label: 'Respuesta de soporte:', text: reply },
    action: { label: 'Abrir el chat', href: link },
    outro: [`Te respondemos ${SUPPORT_HOURS}. Este correo no recibe respuestas: contesta desde el chat.`],
    footer: 'Recibes este correo porque escribiste al chat de soporte de Cuentas Claras.',
  });
  return { to, subject: 'Soporte de Cuentas Claras te respondió', ...body };
}
