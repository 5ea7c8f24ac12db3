// The verified merchant ticket, so the user sees it is the right one before invoicing it.
import { displayDate } from '../../../domain/dates';
import { FORMAS_PAGO } from '../../../domain/invoicing';
import { formatMoney } from '../../../domain/money';
import type { VerifiedTicket } from '../../api/invoicing';

export function TicketSummary({ ticket }: { ticket: VerifiedTicket }) {
  return (
    <dl className="ticket-summary" aria-label="Tu ticket">
      <div>
        <dt>Ticket</dt>
        <dd className="tabular">{ticket.ticket_number}</dd>
      </div>
      <div>
        <dt>Fecha</dt>
        <dd className="tabular">{displayDate(ticket.issued_at)}</dd>
      </div>
      {ticket.venue && (
        <div>
          <dt>Sucursal</dt>
          <dd>{ticket.venue}</dd>
        </div>
      )}
      <div>
        <dt>Forma de pago</dt>
        <dd>{FORMAS_PAGO[ticket.forma_pago] ?? ticket.forma_pago}</dd>
      </div>
      <div className="ticket-summary__total">
        <dt>Total</dt>
        <dd className="tabular">{formatMoney(ticket.total)}</dd>
      </div>
    </dl>
  );
}
