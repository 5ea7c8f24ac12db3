// The e-mail that tells a user what the daily SAT sync brought (only sent when something new arrived).
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mailer';

const page = (lines: string[]) =>
  `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`;

export function syncArrivedMail(to: string, rfc: string, imported: number, link: string | null): MailMessage {
  const what = imported === 1 ? '1 comprobante nuevo' : `${imported} comprobantes nuevos`;
  const lines = [
    `Descargamos del SAT ${what} de tu RFC ${rfc}.`,
    'Ya están en tus gastos e ingresos, con su XML.',
    ...(link ? [`Revísalos en ${link}`] : []),
    'Cuentas Claras',
  ];
  return { to, subject: `Tus comprobantes del SAT: ${what}`, text: lines.join('\n'), html: page(lines) };
}
