// The payment e-mails (Spanish, branded): a receipt for every successful charge, and a notice when a renewal fails.
import { displayDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { renderMail } from '../mail/layout';
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
  /** The app's public address (PUBLIC_URL): the receipt's 'Ver mi plan' button; none without it. */
  appUrl?: string;
}

/** Where the plan is managed (Perfil), when the caller knows the app's public address (PUBLIC_URL). */
const profileAction = (appUrl: string | undefined, label: string) =>
  appUrl ? { action: { label, href: `${appUrl.replace(/\/$/, '')}/#/subscription` } } : {};

export function receiptMail(r: ReceiptInput): MailMessage {
  const card = r.cardBrand ? `${r.cardBrand}${r.cardLast4 ? ` terminación ${r.cardLast4}` : ''}` : 'tu tarjeta';
  const amount = `${formatMoney(r.amount)} MXN`;
  const body = renderMail({
    preview: `Recibo de tu pago de ${amount} por el plan ${r.planName}.`,
    greeting: 'Hola:',
    intro: [['Gracias por tu pago. Tu plan ', { strong: r.planName }, ' está activo hasta el ', { strong: displayDate(r.until) }, '.'], 'Este es tu recibo:'],
    facts: [
      ['Plan', r.planName],
      ['Importe (IVA incluido)', amount],
      ['Tarjeta', card],
      ['Fecha', displayDate(r.at)],
      ['Folio del pago', r.paymentId.toUpperCase()],
    ],
    ...profileAction(r.appUrl, 'Ver mi plan'),
    footer: 'Recibes este correo porque se hizo un cargo a tu tarjeta por tu plan de Cuentas Claras.',
  });
  return { to: r.to, subject: `Recibo de tu pago: ${r.planName}`, ...body };
}

export function renewalFailedMail(to: string, planName: string, graceUntil: Date | null, appUrl?: string): MailMessage {
  const body = renderMail({
    preview: `No pudimos cobrar la renovación de tu plan ${planName}.`,
    greeting: 'Hola:',
    intro: [
      ['No pudimos cobrar la renovación de tu plan ', { strong: planName }, '.'],
      graceUntil
        ? `Conservarás tu plan hasta el ${displayDate(graceUntil)}; lo intentaremos de nuevo cada día. Verifica tu tarjeta o cámbiala desde tu Perfil.`
        : 'Tu cuenta regresó al plan Gratuito. Puedes contratar de nuevo desde tu Perfil cuando quieras.',
    ],
    ...profileAction(appUrl, graceUntil ? 'Revisar mi tarjeta' : 'Ver planes'),
    footer: 'Recibes este correo porque tienes un plan de pago en Cuentas Claras.',
  });
  return { to, subject: 'No pudimos renovar tu plan de Cuentas Claras', ...body };
}
