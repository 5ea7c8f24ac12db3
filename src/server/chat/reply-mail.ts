// The e-mail a user gets when support answers in the chat: the reply itself, when support works and a
// link that opens the chat again (the address we send from takes no replies).
import { SUPPORT_HOURS } from '../../domain/chat';
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mailer';

/** `#/home?soporte=abrir` opens the chat panel (after signing in, if needed). */
export const supportChatLink = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/#/home?soporte=abrir`;

export function supportReplyMail(to: string, reply: string, link: string): MailMessage {
  const text = [
    'Hola:',
    '',
    'Soporte de Cuentas Claras respondió tu mensaje:',
    '',
    reply,
    '',
    `Para contestar, abre el chat de soporte: ${link}`,
    `Te respondemos ${SUPPORT_HOURS}. Este correo no recibe respuestas.`,
    '',
    'Cuentas Claras',
  ].join('\n');
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">
<p>Hola:</p>
<p>Soporte de Cuentas Claras respondió tu mensaje:</p>
<blockquote style="white-space:pre-wrap;border-left:3px solid #0f766e;margin:0;padding-left:1em">${escapeHtml(reply)}</blockquote>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#0f766e;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none">Abrir el chat</a></p>
<p style="color:#4b5563">Te respondemos ${escapeHtml(SUPPORT_HOURS)}. Este correo no recibe respuestas: contesta desde el chat.</p>
<p>Cuentas Claras</p>
</body></html>`;
  return { to, subject: 'Soporte de Cuentas Claras te respondió', text, html };
}
