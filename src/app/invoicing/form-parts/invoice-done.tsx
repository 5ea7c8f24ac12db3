// What a successful invoice request leaves on screen: the spec's message, a link to the ticket it was
// for (its public receipt view) and, on the anonymous form, to the invoice's PDF once it is stamped.
// The form under it is already cleared for the next ticket.
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Button } from '../../ui/button';
import { Icon } from '../../ui/icon';

export interface InvoiceDoneInfo {
  message: string;
  /** The merchant ticket's ref: `#/tickets?ref=…` shows it. */
  ticketRef: string;
  /** The PDF's address, when there is one to open now (anonymous form, invoice stamped). */
  pdfHref?: string;
}

export function InvoiceDone({ done, onClose }: { done: InvoiceDoneInfo; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The panel replaces the receiver fields the focus was in: move it here so keyboard users keep their place.
  useEffect(() => ref.current?.focus(), [done]);
  return (
    <div ref={ref} tabIndex={-1} className="card stack invoice-done" role="status">
      <div className="invoice-done__head">
        <p className="invoice-done__message">
          <Icon name="check" />
          <span>{done.message}</span>
        </p>
        <Button variant="ghost" icon onClick={onClose} aria-label="Cerrar aviso">
          <Icon name="close" />
        </Button>
      </div>
      <div className="invoice-done__actions">
        {done.pdfHref && (
          <a className="btn btn--primary" href={done.pdfHref} target="_blank" rel="noopener">
            Descargar PDF
          </a>
        )}
        <Link to="/tickets" search={{ ref: done.ticketRef }} className="btn btn--secondary">
          Ver ticket
        </Link>
      </div>
    </div>
  );
}
