// What can be done with the selected tickets (spec §2 toolbar): Descargar (CFDI zip), Exportar (CSV),
// Compartir (e-mail) and Eliminar (with the §8 confirmation, through the outbox so it works offline).
// All are disabled while nothing is selected (spec §2).
import { useState } from 'react';
import { MSG } from '../../domain/messages';
import { shareTotals } from '../../domain/receipt-share';
import { db } from '../../offline/db';
import { getSession } from '../../offline/session';
import { deleteTickets } from '../../offline/operations/ticket-delete';
import { StorageFullError } from '../../offline/outbox';
import { ApiError } from '../../offline/http';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TicketIcon } from '../ui/ticket-icons';
import { toast } from '../ui/toast-store';
import { downloadArchive, exportTickets, selectedWithReceipts } from './downloads';
import { ShareDialog, type ShareSelection } from './share-dialog';
import './selection-actions.css';

type Busy = 'download' | 'export' | 'share' | 'delete' | null;

export function SelectionActions({ selected, companies, year, onCleared, compact }: {
  selected: ReadonlySet<string>;
  companies: ReadonlyMap<string, string>;
  /** The report's year (file name). */
  year: number;
  /** After a delete or a share: the selection is over. */
  onCleared: () => void;
  /** Icons with short labels, for the phone's bottom bar. */
  compact?: boolean;
}) {
  const [busy, setBusy] = useState<Busy>(null);
  const [confirming, setConfirming] = useState(false);
  const [share, setShare] = useState<ShareSelection | null>(null);
  const ids = [...selected];
  const none = ids.length === 0;

  const run = (what: Exclude<Busy, null>, work: () => Promise<void>) => {
    setBusy(what);
    work()
      .catch((err: unknown) => toast.error(err instanceof ApiError ? err.message : MSG.generic))
      .finally(() => setBusy(null));
  };

  const onShare = () =>
    run('share', async () => {
      const tickets = await selectedWithReceipts(ids);
      if (tickets.length === 0) throw new ApiError(MSG.archiveNoReceipts, 404);
      setShare({ ticketIds: tickets.map((t) => t.ticket_id), totals: shareTotals(tickets) });
    });

  // The report holds spending only: the toast says what it left out (income, documents with no amount).
  const onExport = () =>
    run('export', async () => {
      const done = await exportTickets(ids, companies, year);
      if (done.rows > 0 && done.left === 0) toast.success(done.text);
      else toast.warning(done.text);
    });

  const onDelete = () =>
    run('delete', async () => {
      try {
        const n = await deleteTickets(db, ids);
        toast.success(TXT.deleted(n));
        setConfirming(false);
        onCleared();
      } catch (err) {
        if (err instanceof StorageFullError) throw new ApiError(MSG.storageFull, 0);
        throw err;
      }
    });

  const label = (text: string) => (compact ? <span className="selection-actions__label">{text}</span> : text);
  return (
    <div className={compact ? 'selection-actions selection-actions--compact' : 'selection-actions'} role="group" aria-label={TXT.selectionActions}>
      <Button variant="secondary" disabled={none} loading={busy === 'download'} onClick={() => run('download', () => downloadArchive(ids))}>
        <TicketIcon name="download" />
        {label('Descargar')}
      </Button>
      <Button variant="secondary" disabled={none} loading={busy === 'export'} onClick={onExport}>
        <TicketIcon name="sheet" />
        {label('Exportar')}
      </Button>
      <Button variant="secondary" disabled={none} loading={busy === 'share'} onClick={onShare}>
        <TicketIcon name="send" />
        {label('Compartir')}
      </Button>
      <Button variant="secondary" disabled={none} onClick={() => setConfirming(true)}>
        <TicketIcon name="trash" />
        {label('Eliminar')}
      </Button>

      <ConfirmDialog
        open={confirming}
        title={TXT.deleteTitle(ids.length)}
        confirmLabel="Eliminar"
        danger
        busy={busy === 'delete'}
        onConfirm={onDelete}
        onCancel={() => setConfirming(false)}
      >
        <p>{MSG.deleteConfirm}</p>
      </ConfirmDialog>
      {share && (
        <ShareDialog
          open
          selection={share}
          senderName={getSession()?.username ?? ''}
          onClose={() => setShare(null)}
          onSent={() => {
            setShare(null);
            onCleared();
          }}
        />
      )}
    </div>
  );
}
