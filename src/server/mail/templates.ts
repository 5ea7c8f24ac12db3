// The Spanish e-mails the API sends (plain text plus simple HTML).
import type { MailMessage } from './mailer';
import { escapeHtml } from './html';

export function passwordResetMail(to: string, username: string, link: string): MailMessage {
  const text = [
    `Hola, ${username}:`,
    '',
    'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Cuentas Claras.',
    'Abre este enlace para elegir una nueva contraseña (vale por 1 hora y solo funciona una vez):',
    '',
    link,
    '',
    'Si no fuiste tú, ignora este correo: tu contraseña no cambiará.',
    '',
    'Cuentas Claras',
  ].join('\n');
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">
<p>Hola, ${escapeHtml(username)}:</p>
<p>Recibimos una solicitud para restablecer la contraseña de tu cuenta de Cuentas Claras.</p>
<p><a href="${escapeHtml(link)}" style="color:#0f766e">Elegir una nueva contraseña</a></p>
<p>El enlace vale por 1 hora y solo funciona una vez. Si no fuiste tú, ignora este correo: tu contraseña no cambiará.</p>
<p>Cuentas Claras</p>
</body></html>`;
  return { to, subject: 'Restablece tu contraseña de Cuentas Claras', text, html };
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
  const noun = input.count === 1 ? 'una factura' : `${input.count} facturas`;
  const lines = [
    'Hola:',
    '',
    `${who} te envía ${noun}${input.totals ? `: ${input.totals}` : ''}. Encontrarás adjuntos el PDF y el XML de cada una.`,
  ];
  if (input.message) lines.push('', 'Su mensaje:', '', input.message);
  lines.push('', 'Folios fiscales (UUID):', ...input.uuids.map((u) => `- ${u}`), '', 'Enviado con Cuentas Claras');
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">
<p>Hola:</p>
<p>${escapeHtml(who)} te envía ${noun}${input.totals ? `: <strong>${escapeHtml(input.totals)}</strong>` : ''}. Encontrarás adjuntos el PDF y el XML de cada una.</p>
${input.message ? `<p>Su mensaje:</p><blockquote style="white-space:pre-wrap;border-left:3px solid #d1d5db;margin:0;padding-left:1em">${escapeHtml(input.message)}</blockquote>` : ''}
<p>Folios fiscales (UUID):</p><ul>${input.uuids.map((u) => `<li>${escapeHtml(u)}</li>`).join('')}</ul>
<p style="color:#4b5563">Enviado con Cuentas Claras</p>
</body></html>`;
  return {
    to: input.to,
    cc: input.senderEmail,
    replyTo: input.senderEmail,
    subject: input.count === 1 ? `${input.senderName || input.senderEmail} te compartió una factura` : `${input.senderName || input.senderEmail} te compartió ${input.count} facturas`,
    text: lines.join('\n'),
    html,
  };
}
