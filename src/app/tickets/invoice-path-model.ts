// 'Where is my invoice?': the path of a ticket's invoice request, step by step —
// solicitada → timbrada → enviada a {email} — or the error in plain Spanish.
import { INVOICE_PATH, invoiceStepLabel, type InvoiceRequestStatus, type TicketInvoice } from '../../domain/invoicing';

export interface InvoiceStep {
  status: InvoiceRequestStatus;
  label: string;
  state: 'done' | 'current' | 'todo';
}

export interface InvoicePathView {
  requestId: string;
  steps: InvoiceStep[];
  /** The request's Spanish error, when there is one (a failed request, or a mail the job keeps retrying). */
  error: string | null;
  /** The request failed (the steps give way to its error). */
  failed: boolean;
  /** A failed request, or a stamped one whose e-mail failed, can be retried by the user (POST …/retry). */
  canRetry: boolean;
  /** Still moving on its own: the dashboard refreshes while such a ticket is visible. */
  pending: boolean;
  /** Replaced by a refacturación: no steps to show. */
  replaced: boolean;
  /** One line for screen readers and the card's summary. */
  summary: string;
}

export const INVOICE_PATH_TXT = {
  title: 'Tu factura',
  retry: 'Reintentar',
  failed: 'No pudimos generar tu factura',
  replaced: 'Sustituida por una refacturación',
  retried: 'Listo, volvemos a intentar tu factura.',
} as const;

export function invoicePath(inv: TicketInvoice | null | undefined): InvoicePathView | null {
  if (!inv) return null;
  const reached = INVOICE_PATH.indexOf(inv.status);
  const steps: InvoiceStep[] = INVOICE_PATH.map((status, i) => ({
    status,
    label: invoiceStepLabel(status, inv.email),
    // The last step reached is 'current' until the path ends with 'enviada'; a failed request shows
    // only its error (we do not know which step failed, the server retries from where it was).
    state: reached === -1 ? 'todo' : i < reached || inv.status === 'enviada' ? 'done' : i === reached ? 'current' : 'todo',
  }));
  const error = inv.error?.trim() || (inv.status === 'error' ? INVOICE_PATH_TXT.failed : null);
  const pending = inv.status === 'solicitada' || inv.status === 'timbrada';
  let summary: string;
  if (inv.status === 'error') summary = `${INVOICE_PATH_TXT.title}: ${error ?? INVOICE_PATH_TXT.failed}`;
  else if (inv.status === 'sustituida') summary = `${INVOICE_PATH_TXT.title}: ${INVOICE_PATH_TXT.replaced}`;
  else summary = `${INVOICE_PATH_TXT.title}: ${steps.filter((s) => s.state !== 'todo').map((s) => s.label).join(' → ')}${error ? `. ${error}` : ''}`;
  return { requestId: inv.request_id, steps, error, failed: inv.status === 'error', canRetry: inv.status === 'error' || (inv.status === 'timbrada' && !!inv.error), pending, replaced: inv.status === 'sustituida', summary };
}

/** How often a visible pending request is checked again (ms). */
export const INVOICE_REFRESH_MS = 5_000;
