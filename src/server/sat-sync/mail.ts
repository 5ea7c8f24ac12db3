// The e-mail that tells a user what the daily SAT sync brought (only sent when something new arrived), in
// the branded layout; its button opens the app (PUBLIC_URL) when the server knows its public address.
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../mail/mailer';

export function syncArrivedMail(to: string, rfc: string, imported: number, link: string | null): MailMessage {
  const what = imported === 1 ? '1 comprobante nuevo' : `${imported} comprobantes nuevos`;
  const body = renderMail({
    preview: `Descargamos del SAT ${what} de tu RFC ${rfc}.`,
    greeting: 'Hola:',
    intro: [['Descargamos del SAT ', { strong: what }, ' de tu RFC ', { strong: rfc }, '.'], 'Ya están en tus gastos e ingresos, con su XML.'],
    ...(link ? { action: { label: 'Revisar mis comprobantes', href: link } } : {}),
    outro: ['Revisamos el SAT cada día y solo te escribimos cuando llega algo nuevo.'],
    footer: 'Recibes este correo porque activaste la sincronización con el SAT en Cuentas Claras.',
  });
  return { to, subject: `Tus comprobantes del SAT: ${what}`, ...body };
}
