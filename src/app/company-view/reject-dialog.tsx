// 'Rechazar' asks for the reason the collaborator will see on the ticket (≤ REJECTION_REASON_MAX).
import { useState, type FormEvent } from 'react';
import { REJECTION_REASON_MAX } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { Button } from '../ui/button';
import { Modal } from '../ui/overlay';
import { TextArea } from '../ui/text-area';

export function RejectDialog({ open, count, busy, onClose, onReject }: {
  open: boolean;
  count: number;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The count as it was on opening: the selection clears as the dialog fades out after a rejection.
  const [shownCount, setShownCount] = useState(count);
  // Only on opening: the count shown stays the one the manager chose, even if a reload changes it.
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setReason('');
      setError(null);
      setShownCount(count);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = reason.trim();
    if (!text) return setError(MSG.rejectionReasonRequired);
    if (text.length > REJECTION_REASON_MAX) return setError(MSG.rejectionReasonTooLong);
    onReject(text);
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Rechazar comprobantes"
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancelar
          </Button>
          <Button variant="danger" type="submit" form="reject-form" loading={busy}>
            Rechazar
          </Button>
        </>
      }
    >
      <form id="reject-form" className="stack" onSubmit={submit} noValidate>
        <p>{shownCount === 1 ? 'Rechazarás 1 comprobante.' : `Rechazarás ${shownCount} comprobantes.`} El colaborador verá el motivo en su ticket.</p>
        <TextArea
          label={MSG.rejectionReasonLabel}
          value={reason}
          maxLength={REJECTION_REASON_MAX}
          rows={4}
          error={error}
          hint={`${reason.length}/${REJECTION_REASON_MAX}`}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          autoFocus
        />
      </form>
    </Modal>
  );
}
