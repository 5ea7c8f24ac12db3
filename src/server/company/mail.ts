// The invitation e-mail (spec §4 'Collaborator invitation'), branded: the company's own text quoted, then
// the single-use join link as the one button, and how long it lasts.
import { INVITATION_TTL_DAYS } from '../../domain/company';
import { renderMail } from '../mail/layout';
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
  const body = renderMail({
    preview: `${m.companyName} te invita a unirte como colaborador en Cuentas Claras.`,
    greeting: `Hola, ${m.firstName}:`,
    intro: [[{ strong: m.companyName }, ' te invita a unirte como colaborador en Cuentas Claras.']],
    quote: { label: `Mensaje de ${m.companyName}:`, text: m.emailText },
    action: { label: 'Aceptar la invitación', href: m.link },
    outro: [
      `El enlace vale por ${INVITATION_TTL_DAYS} días y solo funciona una vez.`,
      'Al aceptar, la empresa podrá ver tu perfil, tus datos fiscales y las facturas recibidas del RFC que elijas; nunca tus contraseñas.',
    ],
    footer: `Recibes este correo porque ${m.companyName} te invitó con esta dirección. Si no la conoces, ignora este correo.`,
  });
  return { to: m.to, subject: `${m.companyName} te invita a Cuentas Claras`, ...body };
}
