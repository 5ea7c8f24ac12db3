// What the user is told once an invoice request has been followed for a while.
import { MSG } from '../../../domain/messages';
import type { InvoiceRequestView } from '../../api/invoicing';

export type InvoiceOutcome = { kind: 'success'; message: string } | { kind: 'error'; message: string };

/** enviada → 'Factura enviada exitosamente.'; error → its message; still on its way → arrives within 24 h. */
export function invoiceOutcome(view: InvoiceRequestView, refactura = false): InvoiceOutcome {
  if (view.status === 'enviada') return { kind: 'success', message: MSG.invoiceSent };
  if (view.status === 'error') return { kind: 'error', message: view.error || MSG.merchantSendFailed };
  return { kind: 'success', message: refactura ? MSG.refacturaGenerated : MSG.invoiceGenerated };
}
