// The invitation e-mail (spec §4 'Collaborator invitation'): the company's own text, then the single-use
// join link and how long it lasts.
import { INVITATION_TTL_DAYS } from '../../domain/company';
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mailer';

export interface InvitationMailInput {
  to: string;
  firstName: string;
  companyName: string;
  /** What the company wrote (may be empty). */
  emailText: string;
  link: string;
}

export function invitationMail(m: InvitationMailInput): MailMessage {
  const custom = m.emailText.trim();
  const text = [
    `Hola, ${m.firstName}:`,
    '',
    `${m.companyName} te invita a unirte como colaborador en Cuentas Claras.`,
    ...(custom ? ['', custom] : []),
    '',
    `Abre este enlace para aceptar la invitación (vale por ${INVITATION_TTL_DAYS} días y solo funciona una vez):`,
    '',
    m.link,
    '',
    'Al aceptar, la empresa podrá ver tu perfil, tus datos fiscales y las facturas recibidas del RFC que elijas; nunca tus contraseñas.',
    '',
    'Cuentas Claras',
  ].join('\n');
  const paragraphs = custom
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('\n');
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">
<p>Hola, ${escapeHtml(m.firstName)}:</p>
<p>${escapeHtml(m.companyName)} te invita a unirte como colaborador en Cuentas Claras.</p>
${paragraphs}
<p><a href="${escapeHtml(m.link)}" style="color:#0f766e">Aceptar la invitación</a></p>
<p>El enlace vale por ${INVITATION_TTL_DAYS} días y solo funciona una vez. Al aceptar, la empresa podrá ver tu perfil, tus datos fiscales y las facturas recibidas del RFC que elijas; nunca tus contraseñas.</p>
<p>Cuentas Claras</p>
</body></html>`;
  return { to: m.to, subject: `${m.companyName} te invita a Cuentas Claras`, text, html };
}
