// The note dialog of the ticket and multi-ticket forms (spec §4): optional comment, the RFC the invoice
// is for, Cancelar / Facturar.
import { useState } from 'react';
import { NOTE_MAX } from '../../../domain/spending-form';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/overlay';
import { TextArea } from '../../ui/text-area';

export interface NoteDialogProps {
  open: boolean;
  rfc: string;
  onCancel: () => void;
  /** Receives the comment already trimmed (spec §5: comments trimmed). */
  onConfirm: (note: string) => void;
}

export function NoteDialog({ open, rfc, onCancel, onConfirm }: NoteDialogProps) {
  const [note, setNote] = useState('');
  // Empty each time it opens.
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setNote('');
  }
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title="Solicitar factura"
      footer={
        <>
          <Button onClick={onCancel}>Cancelar</Button>
          <Button variant="primary" onClick={() => onConfirm(note.trim())}>
            Facturar
          </Button>
        </>
      }
    >
      <div className="stack">
        <p>
          La factura se emitirá a nombre del RFC <strong className="tabular">{rfc}</strong>.
        </p>
        <TextArea
          label="Comentario (opcional)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={NOTE_MAX}
          rows={3}
          data-autofocus
        />
      </div>
    </Modal>
  );
}
