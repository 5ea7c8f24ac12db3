// The payment e-mails (Spanish): a receipt for every successful charge, and a notice when a renewal fails.
import { displayDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mailer';

export interface ReceiptInput {
  to: string;
  paymentId: string;
  planName: string;
  amount: number;
  cardBrand: string | null;
  cardLast4: string | null;
  at: Date;
  /** The paid period's end. */
  until: Date;
}

const page = (lines: string[]) =>
  `<!doctype html><html lang="es-MX"><body style="font-family:sans-serif;color:#1f2937">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`;

export function receiptMail(r: ReceiptInput): MailMessage {
  const card = r.cardBrand ? `${r.cardBrand}${r.cardLast4 ? ` terminación ${r.cardLast4}` : ''}` : 'tu tarjeta';
  const lines = [
    'Gracias por tu pago.',
    `Plan: ${r.planName}`,
    `Importe (IVA incluido): ${formatMoney(r.amount)} MXN`,
    `Tarjeta: ${card}`,
    `Fecha: ${displayDate(r.at)}`,
    `Folio del pago: ${r.paymentId.toUpperCase()}`,
    `Tu plan está activo hasta el ${displayDate(r.until)}.`,
    'Cuentas Claras',
  ];
  return { to: r.to, subject: `Recibo de tu pago: ${r.planName}`, text: lines.join('\n'), html: page(lines) };
}

export function renewalFailedMail(to: string, planName: string, graceUntil: Date | null): MailMessage {
  const lines = [
    `No pudimos cobrar la renovación de tu plan ${planName}.`,
    graceUntil
      ? `Conservarás tu plan hasta el ${displayDate(graceUntil)}; lo intentaremos de nuevo cada día. Verifica tu tarjeta o cámbiala desde tu Perfil.`
      : 'Tu cuenta regresó al plan Gratuito. Puedes contratar de nuevo desde tu Perfil cuando quieras.',
    'Cuentas Claras',
  ];
  return { to, subject: 'No pudimos renovar tu plan de Cuentas Claras', text: lines.join('\n'), html: page(lines) };
}
