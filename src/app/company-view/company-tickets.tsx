// The month's tickets of the collaborators (spec §2 company view): a table on desktop, cards on phones,
// each with its checkbox (every row can be approved or rejected), select-all, and the review state, and
// the PDF / XML of a ticket's received invoice (the manager may download them: spec §6).
import { useId } from 'react';
import { reviewOf } from '../../domain/company-view';
import { displayDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { STATUS_LABELS, statusDisplay, type Ticket } from '../../domain/ticket';
import { originOf, rowLinks } from '../tickets/ticket-list-model';
import type { FileTarget } from '../../domain/file-links';
import { FileAction } from '../ui/file-action';
import { DESKTOP_QUERY, useMediaQuery } from '../ui/use-media-query';
import { UNCATEGORIZED_LABEL } from '../../domain/categories';
import { badgeLabel, cfdiRowInfo, type CfdiRowInfo } from '../../domain/cfdi-label';
import { ReviewBadge } from '../tickets/review-badge';
import { collaboratorOf, type CompanyTicket } from './company-view-api';

interface Props {
  tickets: readonly CompanyTicket[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  companies: ReadonlyMap<string, string>;
}

interface Row {
  id: string;
  date: string;
  who: string;
  area: string;
  origin: string;
  category: string;
  amount: string;
  /** What the CFDI is (credit note, payment…) and a broken seal, as on the dashboard's rows. */
  cfdi: CfdiRowInfo;
  ticket: Ticket;
  pdf: FileTarget | null;
  xml: FileTarget | null;
}

const rowOf = (t: CompanyTicket, companies: ReadonlyMap<string, string>): Row => {
  // Only the receipt's files: the ticket image stays its owner's.
  const { pdf, xml } = rowLinks(t);
  const cfdi = cfdiRowInfo(t);
  return {
    id: t.ticket_id,
    date: displayDate(t.received_at),
    who: collaboratorOf(t),
    area: t.user_area || 'Sin departamento',
    origin: originOf(t, companies),
    category: t.tags[0]?.tag_name ?? UNCATEGORIZED_LABEL,
    amount: cfdi.noAmount ? '—' : formatMoney(t.amount),
    cfdi,
    ticket: t,
    pdf,
    xml,
  };
};

/** The received invoice's PDF and XML, opened through a short-lived signed link (DESIGN §3); nothing without a receipt. */
function ReceiptLinks({ r }: { r: Row }) {
  if (!r.pdf && !r.xml) return null;
  return (
    <span className="row-actions">
      {r.pdf && <FileAction target={r.pdf} icon="file" label="PDF" name={`PDF de ${r.origin} de ${r.who} del ${r.date}`} />}
      {r.xml && <FileAction target={r.xml} icon="file" label="XML" name={`XML de ${r.origin} de ${r.who} del ${r.date}`} />}
    </span>
  );
}

/** The CFDI's badge and a broken seal in words (the dashboard's wording); nothing for an ordinary invoice. */
function CfdiWords({ r }: { r: Row }) {
  const { badge, alarm } = r.cfdi;
  if (!badge && !alarm) return null;
  return (
    <span className="cfdi-summary">
      {badge && (
        <span className="cfdi-summary__line">
          <span className={`cfdi-badge cfdi-badge--${badge.tone}`}>{badgeLabel(badge)}</span>
        </span>
      )}
      {alarm && <span className="cfdi-alarm">{alarm}</span>}
    </span>
  );
}

function State({ t }: { t: Ticket }) {
  const review = reviewOf(t);
  if (review) return <ReviewBadge review={review} />;
  return <span className="muted">{STATUS_LABELS[statusDisplay(t.ticket_status_name)]}</span>;
}

function SelectAll({ rows, selected, onToggleAll, label }: { rows: Row[]; selected: ReadonlySet<string>; onToggleAll: () => void; label?: string }) {
  const n = rows.filter((r) => selected.has(r.id)).length;
  return (
    <input
      type="checkbox"
      className="row-check"
      aria-label={label ? undefined : 'Seleccionar todos'}
      checked={n > 0 && n === rows.length}
      ref={(el) => {
        if (el) el.indeterminate = n > 0 && n < rows.length;
      }}
      onChange={onToggleAll}
    />
  );
}

export function CompanyTickets({ tickets, selected, onToggle, onToggleAll, companies }: Props) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const caption = useId();
  const rows = tickets.map((t) => rowOf(t, companies));
  const check = (r: Row) => (
    <input type="checkbox" className="row-check" aria-label={`Seleccionar ${r.origin} de ${r.who} del ${r.date}`} checked={selected.has(r.id)} onChange={() => onToggle(r.id)} />
  );
  if (!desktop) {
    return (
      <div className="ticket-cards">
        <label className="checkbox">
          <SelectAll rows={rows} selected={selected} onToggleAll={onToggleAll} label="Seleccionar todos" />
          <span>Seleccionar todos</span>
        </label>
        <ul className="ticket-cards__list" aria-label="Comprobantes de colaboradores">
          {rows.map((r) => (
            <li key={r.id} className={selected.has(r.id) ? 'ticket-card ticket-card--selected' : 'ticket-card'}>
              <div className="ticket-card__main">
                {check(r)}
                <div className="ticket-card__body">
                  <div className="ticket-card__line">
                    <strong className="ticket-card__origin">{r.who}</strong>
                    <span className="amount tabular">{r.amount}</span>
                  </div>
                  <div className="ticket-card__line muted">
                    <span className="ticket-card__sub">
                      <span className="tabular">{r.date}</span> · {r.area} · {r.category}
                    </span>
                  </div>
                  <div className="ticket-card__line muted">
                    <span className="ticket-card__sub">{r.origin}</span>
                  </div>
                  <CfdiWords r={r} />
                  <State t={r.ticket} />
                  <ReceiptLinks r={r} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="tickets company-view__table">
        <caption id={caption} className="visually-hidden">
          Comprobantes de colaboradores
        </caption>
        <thead>
          <tr>
            <th scope="col" className="tickets__check">
              <SelectAll rows={rows} selected={selected} onToggleAll={onToggleAll} />
            </th>
            <th scope="col">Fecha</th>
            <th scope="col">Colaborador</th>
            <th scope="col">Departamento</th>
            <th scope="col">Origen</th>
            <th scope="col">Categoría</th>
            <th scope="col" className="num">
              Monto
            </th>
            <th scope="col">Estado</th>
            <th scope="col">Factura</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} aria-selected={selected.has(r.id) || undefined}>
              <td className="tickets__check">{check(r)}</td>
              <td className="tabular nowrap">{r.date}</td>
              <td>{r.who}</td>
              <td>{r.area}</td>
              <td>
                {r.origin}
                <CfdiWords r={r} />
              </td>
              <td>{r.category}</td>
              <td className="num nowrap">
                <span className="amount tabular">{r.amount}</span>
              </td>
              <td>
                <State t={r.ticket} />
              </td>
              <td>{r.pdf || r.xml ? <ReceiptLinks r={r} /> : <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
