// 'Reimprimir' of an invoice already asked for. Signed out, the request is an anonymous one and its id
// is its capability: a plain link. Signed in, it may be the user's own, whose PDF opens only through a
// short-lived signed link (the same file-link path as the dashboard's files): a tab opened inside the
// click, pointed at the link once it arrives; offline or on failure it closes and a toast says why.
import { useState } from 'react';
import { hasSession } from '../../../offline/session';
import { browserOpenFileDeps, openFile } from '../../api/file-links';
import { invoicePdfLink, invoicePdfUrl } from '../../api/invoicing';
import { toast } from '../../ui/toast-store';

const deps = { ...browserOpenFileDeps((message) => void toast.error(message)), request: (target: { id: string }) => invoicePdfLink(target.id) };

export function ReprintAction({ requestId }: { requestId: string }) {
  const signedIn = hasSession();
  const [busy, setBusy] = useState(false);
  if (!signedIn) {
    return (
      <a className="btn btn--primary" href={invoicePdfUrl(requestId)} target="_blank" rel="noopener">
        Reimprimir
      </a>
    );
  }
  const onClick = () => {
    if (busy) return;
    setBusy(true);
    // Synchronously inside the click: the new tab must be opened before the first await.
    void openFile({ kind: 'invoice_pdf', id: requestId }, deps).finally(() => setBusy(false));
  };
  return (
    <button type="button" className="btn btn--primary" aria-busy={busy || undefined} onClick={onClick}>
      {busy && <span className="spinner" aria-hidden="true" />}
      <span>Reimprimir</span>
    </button>
  );
}
