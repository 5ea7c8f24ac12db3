// While a visible ticket's invoice is still on its way (solicitada, timbrada), pull the month again every
// few seconds — only while the page is visible and online, and quietly (no 'updating' state).
import { useEffect } from 'react';
import type { AppDb } from '../../offline/db';
import { pullMonth } from '../../offline/pull';
import { useOnline } from '../use-online';
import { INVOICE_REFRESH_MS } from '../tickets/invoice-path-model';
import { api } from '../api/client';

export function useInvoiceRefresh(db: AppDb, rfc: string, year: number, month: number, anyPending: boolean): void {
  const online = useOnline();
  useEffect(() => {
    if (!anyPending || !online) return;
    let running = false;
    const tick = () => {
      if (running || document.visibilityState !== 'visible') return;
      running = true;
      // A failure just waits for the next tick; the month's own sync reports errors.
      pullMonth(db, api, rfc, year, month).catch(() => undefined).finally(() => {
        running = false;
      });
    };
    const timer = window.setInterval(tick, INVOICE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [db, rfc, year, month, anyPending, online]);
}
