// The invoice path on a ticket row or card: three small steps, or the error with 'Reintentar'.
import { useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../../offline/http';
import { MSG } from '../../domain/messages';
import { Button } from '../ui/button';
import { toast } from '../ui/toast-store';
import { INVOICE_PATH_TXT, type InvoicePathView } from './invoice-path-model';
import './invoice-path.css';

export async function retryInvoice(requestId: string): Promise<void> {
  await api.post<unknown>(`/api/v3/invoice_requests/${encodeURIComponent(requestId)}/retry`);
}

export function InvoicePath({ path, onChanged }: { path: InvoicePathView; onChanged?: (() => void) | undefined }) {
  const [busy, setBusy] = useState(false);
  async function retry() {
    setBusy(true);
    try {
      await retryInvoice(path.requestId);
      toast.success(INVOICE_PATH_TXT.retried);
      onChanged?.();
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : MSG.generic);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="invoice-path" aria-label={path.summary} role="group">
      {path.replaced && <p className="invoice-path__note">{INVOICE_PATH_TXT.replaced}</p>}
      {!path.failed && !path.replaced && (
        <ol className="invoice-path__steps" aria-hidden="true">
          {path.steps.map((s) => (
            <li key={s.status} className={`invoice-path__step invoice-path__step--${s.state}`}>
              {s.label}
            </li>
          ))}
        </ol>
      )}
      {path.error && <p className="invoice-path__error">{path.error}</p>}
      {path.canRetry && (
        <Button className="invoice-path__retry" loading={busy} onClick={() => void retry()}>
          {INVOICE_PATH_TXT.retry}
        </Button>
      )}
    </div>
  );
}
