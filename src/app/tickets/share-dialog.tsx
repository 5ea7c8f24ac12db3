// 'Compartir' (spec §2 toolbar, §5 sharing): recipient (required, valid), optional message, the count of the
// selected receipts with the spending and income totals apart (credit notes subtract), and a note that a
// copy goes to the user's own e-mail. Online only: the server attaches the files, so there is nothing to
// queue on the phone.
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { checkShareForm, SHARE_MESSAGE_MAX, shareSummary, type ShareForm, type ShareTotals } from '../../domain/receipt-share';
import { getSession } from '../../offline/session';
import { ApiError } from '../../offline/http';
import { sendReceiptsByEmail } from '../api/receipts';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { Modal } from '../ui/overlay';
import { TextArea } from '../ui/text-area';
import { toast } from '../ui/toast-store';
import { useOnChange } from '../ui/use-on-change';
import { useOnline } from '../use-online';

export interface ShareSelection {
  ticketIds: string[];
  /** MXN, spending and income apart. */
  totals: ShareTotals;
}

/** How many receipts, then the spending and the income totals each on its own line (never one sum of both). */
export function ShareSummary({ count, totals }: { count: number; totals: ShareTotals }) {
  const summary = shareSummary(count, totals);
  return (
    <div className="share__summary" role="status">
      <p>{summary.heading}</p>
      {summary.lines.length > 0 && (
        <dl className="share__totals">
          {summary.lines.map((l) => (
            <div key={l.label}>
              <dt>{l.label}</dt>
              <dd>{l.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {summary.note && <p className="muted">{summary.note}</p>}
    </div>
  );
}

const EMPTY: ShareForm = { email: '', message: '' };

export function ShareDialog({ open, selection, senderName, onClose, onSent }: {
  open: boolean;
  selection: ShareSelection;
  senderName: string;
  onClose: () => void;
  onSent: () => void;
}) {
  const online = useOnline();
  const [form, setForm] = useState<ShareForm>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const session = getSession();
  const count = selection.ticketIds.length;

  // Each opening starts without the last error.
  useOnChange(open, (nowOpen) => {
    if (nowOpen) setError(null);
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = checkShareForm(form, count);
    if (problem) {
      setError(problem);
      emailRef.current?.focus();
      return;
    }
    setError(null);
    setSending(true);
    try {
      await sendReceiptsByEmail(session?.token ?? '', selection.ticketIds, form, senderName);
      toast.success(MSG.shareSent);
      setForm(EMPTY); // spec §8: fields cleared on success
      onSent();
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setSending(false);
    }
  };

  const emailError = error === MSG.shareMessageTooLong ? null : error;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={TXT.shareTitle}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="primary" type="submit" form="share-form" loading={sending} disabled={!online}>
            Enviar
          </Button>
        </>
      }
    >
      <form id="share-form" className="stack" noValidate onSubmit={submit}>
        <ShareSummary count={count} totals={selection.totals} />
        <TextField
          label="Correo de destino"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          inputRef={emailRef}
          value={form.email}
          error={emailError}
          data-autofocus
          onChange={(e) => setForm({ ...form, email: e.target.value })}
        />
        <TextArea
          label="Mensaje (opcional)"
          rows={4}
          maxLength={SHARE_MESSAGE_MAX}
          value={form.message}
          error={error === MSG.shareMessageTooLong ? error : null}
          onChange={(e) => setForm({ ...form, message: e.target.value })}
        />
        <p className="muted">{TXT.shareCopyNote(session?.email ?? '')}</p>
        {!online && (
          <p className="notice notice--info" role="status">
            {TXT.shareOffline}
          </p>
        )}
      </form>
    </Modal>
  );
}
