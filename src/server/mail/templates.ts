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
