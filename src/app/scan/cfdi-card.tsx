// A scanned CFDI verification QR: what we know of that invoice, and importing it into the account.
import { Suspense, useContext, useEffect, useState, type ComponentType } from 'react';
import { formatMoney } from '../../domain/money';
import type { CfdiQr } from '../../domain/qr-payload';
import { api } from '../api/client';
import { ApiError } from '../../offline/http';
import { LayoutContext } from '../layout/layout-context';
import { Button } from '../ui/button';
import { toast } from '../ui/toast-store';
import { MSG } from '../../domain/messages';

/** 'Importar CFDIs' (the imports feature), handed in by the composition root (screens.tsx). */
export type ImportFilesDialog = ComponentType<{ open: boolean; onClose: () => void; rfc: string; onImported: () => void }>;

/** GET /api/v3/cfdi/lookup's answer. */
export interface CfdiLookup {
  uuid: string;
  rfc_issuer: string;
  name_issuer: string;
  rfc_receiver: string;
  total: string | number;
  emission_date: string | null;
  state: 'importable' | 'imported' | 'unknown';
  ticket_id: string | null;
}

type CardState =
  | { kind: 'loading' }
  | { kind: 'found'; cfdi: CfdiLookup }
  | { kind: 'imported'; ticketId: string | null }
  | { kind: 'unknown' }
  | { kind: 'error'; message: string };

export const CFDI_TXT = {
  loading: 'Buscando la factura…',
  importable: 'Importar a mi cuenta',
  imported: 'Ya está en tus comprobantes',
  importedNow: 'Listo, importamos la factura a tus comprobantes.',
  unknown: 'No tenemos esta factura. Si tienes su XML, puedes importarlo.',
  importFiles: 'Importar CFDIs',
  retry: 'Reintentar',
  issuer: 'Emisor',
  total: 'Total',
  date: 'Fecha',
  uuid: 'Folio fiscal (UUID)',
} as const;

export function lookupParams(qr: CfdiQr): Record<string, string> {
  return { id: qr.uuid, re: qr.re, rr: qr.rr, tt: qr.tt };
}

const errorText = (e: unknown) => (e instanceof ApiError ? e.message : MSG.generic);

export function CfdiCard({ qr, onDone, importDialog: ImportDialog }: { qr: CfdiQr; onDone: () => void; importDialog?: ImportFilesDialog | undefined }) {
  const [busy, setBusy] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The card for one lookup (QR and attempt); another lookup is still loading.
  const [card, setCard] = useState<{ qr: CfdiQr; attempt: number; state: CardState } | null>(null);
  const state: CardState = card && card.qr === qr && card.attempt === attempt ? card.state : { kind: 'loading' };
  const setState = (next: CardState) => setCard({ qr, attempt, state: next });
  const layout = useContext(LayoutContext);

  useEffect(() => {
    const ctrl = new AbortController();
    const show = (next: CardState) => setCard({ qr, attempt, state: next });
    api
      .get<CfdiLookup>('/api/v3/cfdi/lookup', lookupParams(qr), ctrl.signal)
      .then((cfdi) => show(cfdi.state === 'unknown' ? { kind: 'unknown' } : { kind: 'found', cfdi }))
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        if (e instanceof ApiError && e.status === 404) show({ kind: 'unknown' });
        else show({ kind: 'error', message: errorText(e) });
      });
    return () => ctrl.abort();
  }, [qr, attempt]);

  async function importIt(uuid: string) {
    setBusy(true);
    try {
      // The server imports someone else's CFDI only with the QR's RFCs and total as well as its UUID.
      const r = await api.post<{ ticket_id: string }>('/api/v3/cfdi/import', { uuid, re: qr.re, rr: qr.rr, tt: qr.tt });
      setState({ kind: 'imported', ticketId: r.ticket_id });
      toast.success(CFDI_TXT.importedNow);
    } catch (e) {
      toast.error(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return <CfdiCardView state={state} busy={busy} onImport={importIt} onRetry={() => setAttempt((n) => n + 1)} onImportFiles={layout && ImportDialog ? () => setImportOpen(true) : null}>
    {importOpen && layout?.selected && ImportDialog && (
      <Suspense fallback={null}>
        <ImportDialog open={importOpen} onClose={() => { setImportOpen(false); onDone(); }} rfc={layout.selected.rfc} onImported={() => layout.retrySync()} />
      </Suspense>
    )}
  </CfdiCardView>;
}

/** Presentational part (rendered statically in tests). */
export function CfdiCardView({ state, busy, onImport, onRetry, onImportFiles, children }: {
  state: CardState;
  busy: boolean;
  onImport: (uuid: string) => void;
  onRetry: () => void;
  onImportFiles: (() => void) | null;
  children?: React.ReactNode;
}) {
  switch (state.kind) {
    case 'loading':
      return <p className="scan-status" role="status">{CFDI_TXT.loading}</p>;
    case 'error':
      return (
        <div className="scan-cfdi">
          <p className="scan-error" role="alert">{state.message}</p>
          <Button onClick={onRetry}>{CFDI_TXT.retry}</Button>
        </div>
      );
    case 'unknown':
      return (
        <div className="scan-cfdi">
          <p role="status">{CFDI_TXT.unknown}</p>
          {onImportFiles && <Button variant="primary" onClick={onImportFiles}>{CFDI_TXT.importFiles}</Button>}
          {children}
        </div>
      );
    case 'imported':
      return <p className="scan-cfdi scan-ok" role="status">{CFDI_TXT.imported}</p>;
    case 'found': {
      const c = state.cfdi;
      return (
        <div className="scan-cfdi">
          <dl className="scan-cfdi__facts">
            <dt>{CFDI_TXT.issuer}</dt>
            <dd>{c.name_issuer}<br /><span className="tabular">{c.rfc_issuer}</span></dd>
            <dt>{CFDI_TXT.total}</dt>
            <dd className="tabular scan-cfdi__total">{formatMoney(c.total)}</dd>
            <dt>{CFDI_TXT.date}</dt>
            <dd className="tabular">{c.emission_date?.slice(0, 10) ?? '—'}</dd>
            <dt>{CFDI_TXT.uuid}</dt>
            <dd className="tabular scan-cfdi__uuid">{c.uuid}</dd>
          </dl>
          {c.state === 'imported' ? (
            <p className="scan-ok" role="status">{CFDI_TXT.imported}</p>
          ) : (
            <Button variant="primary" block loading={busy} onClick={() => onImport(c.uuid)}>{CFDI_TXT.importable}</Button>
          )}
        </div>
      );
    }
  }
}

export type { CardState as CfdiCardState };
