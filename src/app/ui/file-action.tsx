// A row's PDF / XML / ticket-image action: a button (there is no URL to show until the server signs
// one), reachable by keyboard and named for screen readers; a spinner while the link is being made.
import { useState } from 'react';
import type { FileTarget } from '../../domain/file-links';
import { browserOpenFileDeps, openFile } from '../api/file-links';
import { TicketIcon, type TicketIconName } from './ticket-icons';
import { toast } from './toast-store';

const deps = browserOpenFileDeps((message) => void toast.error(message));

export function FileAction({ target, label, name, icon }: { target: FileTarget; label: string; name: string; icon: TicketIconName }) {
  const [busy, setBusy] = useState(false);
  const onClick = () => {
    if (busy) return;
    setBusy(true);
    // Synchronously inside the click: the new tab must be opened before the first await.
    void openFile(target, deps).finally(() => setBusy(false));
  };
  return (
    // Not disabled while busy: that would drop the keyboard focus; a second click is ignored instead.
    <button type="button" className="btn btn--ghost btn--small" aria-label={name} aria-busy={busy || undefined} onClick={onClick}>
      {busy ? <span className="spinner" aria-hidden="true" /> : <TicketIcon name={icon} />}
      <span>{label}</span>
    </button>
  );
}
