// The month's tickets: the spec's table on desktop, one card per ticket on phones (brand guide),
// both over the same row model. Without `onToggle` there are no checkboxes (the annual view's table).
// A row with a CFDI opens its CFDI view ('Ver CFDI') in a panel over the list.
import { memo, useCallback, useId, useState } from 'react';
import { CfdiPanel } from './cfdi-panel';
import { TicketIcon } from '../ui/ticket-icons';
import type { TicketRow } from './ticket-list-model';
import { InvoicePath } from './invoice-path';
import { ReviewBadge } from './review-badge';
import {
  CategoryCell, CfdiSummary, FindingsMarker, NoteCell, RowActions, SatCancelledBadge, StatusIcon, SyncBadge, type CategoryLists,
} from './ticket-controls';

export interface ListProps {
  rows: TicketRow[];
  lists: CategoryLists;
  selected?: ReadonlySet<string>;
  onToggle?: (row: TicketRow) => void;
  allState?: 'none' | 'some' | 'all';
  canSelectAll?: boolean;
  onToggleAll?: () => void;
  caption: string;
  /** A retried invoice request: the dashboard pulls the month again. */
  onInvoiceChanged?: () => void;
}

const NONE: ReadonlySet<string> = new Set();

function RowCheckbox({ row, selected, onToggle }: { row: TicketRow; selected: boolean; onToggle: () => void }) {
  return (
    <input
      type="checkbox"
      className="row-check"
      aria-label={`Seleccionar ${row.origin} del ${row.date}`}
      checked={selected}
      disabled={!row.selectable}
      title={row.selectable ? undefined : 'Este movimiento no se puede seleccionar'}
      onChange={onToggle}
    />
  );
}

function Amount({ row }: { row: TicketRow }) {
  if (row.cfdi.noAmount) {
    // A payment complement or a traslado counts no money: a dash, and the words for screen readers.
    return (
      <span className="amount-cell">
        <span className="amount amount--none tabular" aria-hidden="true">{row.shownAmount}</span>
        <span className="visually-hidden">Sin monto</span>
      </span>
    );
  }
  const negative = row.shownAmount.startsWith('-');
  const cls = `amount tabular${row.income && !negative ? ' amount--income' : ''}${row.cfdi.cancelled ? ' amount--void' : ''}`;
  return (
    <span className="amount-cell">
      <span className={cls}>{row.shownAmount}</span>
      {row.cfdi.foreign && <span className="amount-foreign muted tabular">{row.cfdi.foreign}</span>}
    </span>
  );
}

/** The CFDI view over the list: follows the row as the list refreshes, and keeps it while the panel fades out. */
function useCfdiPanel(rows: readonly TicketRow[]) {
  const [picked, setPicked] = useState<TicketRow | null>(null);
  const [open, setOpen] = useState(false);
  const row = (picked && rows.find((r) => r.id === picked.id)) ?? picked;
  // Stable, so the memoised cards do not render again for it.
  const openRow = useCallback((r: TicketRow) => {
    setPicked(r);
    setOpen(true);
  }, []);
  const panel = <CfdiPanel open={open} onClose={() => setOpen(false)} view={row?.cfdiView ?? null} origin={row?.origin ?? ''} />;
  return { openRow, panel };
}

export function TicketTable({ rows, lists, selected = NONE, onToggle, allState = 'none', canSelectAll = false, onToggleAll, caption, onInvoiceChanged }: ListProps) {
  const cfdi = useCfdiPanel(rows);
  return (
    <div className="table-wrap">
      {cfdi.panel}
      <table className="tickets">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {onToggle && (
              <th scope="col" className="tickets__check">
                <input
                  type="checkbox"
                  className="row-check"
                  aria-label="Seleccionar todos"
                  checked={allState === 'all'}
                  ref={(el) => {
                    if (el) el.indeterminate = allState === 'some';
                  }}
                  disabled={!canSelectAll}
                  onChange={onToggleAll}
                />
              </th>
            )}
            <th scope="col">
              <span className="visually-hidden">Estado</span>
            </th>
            <th scope="col">Fecha</th>
            <th scope="col">Origen</th>
            <th scope="col">Ticket</th>
            <th scope="col">Categoría</th>
            <th scope="col" className="num">
              Monto
            </th>
            <th scope="col">Método de pago</th>
            <th scope="col">Nota</th>
            <th scope="col">Acciones</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} aria-selected={selected.has(row.id) || undefined}>
              {onToggle && (
                <td className="tickets__check">
                  <RowCheckbox row={row} selected={selected.has(row.id)} onToggle={() => onToggle(row)} />
                </td>
              )}
              <td className="tickets__status">
                <StatusIcon row={row} />
                {row.pendingSync && <SyncBadge />}
                {row.satCancelled && <SatCancelledBadge />}
                <FindingsMarker row={row} />
                {row.review && <ReviewBadge review={row.review} />}
              </td>
              <td className="tabular nowrap">{row.date}</td>
              <td className="tickets__origin">
                {row.cfdiView ? (
                  // The CFDI's other party opens its CFDI view.
                  <button type="button" className="link-button tickets__origin-link" aria-label={`Ver CFDI de ${row.origin} del ${row.date}`} onClick={() => cfdi.openRow(row)}>
                    {row.origin}
                  </button>
                ) : (
                  row.origin
                )}
                <CfdiSummary row={row} />
                {row.invoice && <InvoicePath path={row.invoice} onChanged={onInvoiceChanged} />}
              </td>
              <td className="tabular">{row.number || '—'}</td>
              <td>
                <CategoryCell row={row} lists={lists} />
              </td>
              <td className="num nowrap">
                <Amount row={row} />
              </td>
              <td>{row.paymentMethod}</td>
              <td className="tickets__note">
                <NoteCell row={row} />
              </td>
              <td>
                <RowActions row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Memoised: the dashboard renders again as each of its live queries answers, and a card whose row,
 * selection and handlers are the same need not follow (the list's handlers are stable for it).
 */
const TicketCard = memo(function TicketCard({ row, lists, selected, onToggle, onInvoiceChanged, onCfdi }: {
  row: TicketRow;
  lists: CategoryLists;
  selected: boolean;
  onToggle: ((row: TicketRow) => void) | undefined;
  onInvoiceChanged?: (() => void) | undefined;
  onCfdi: (row: TicketRow) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <li className={selected ? 'ticket-card ticket-card--selected' : 'ticket-card'}>
      <div className="ticket-card__main">
        {onToggle && <RowCheckbox row={row} selected={selected} onToggle={() => onToggle(row)} />}
        <div className={onToggle ? 'ticket-card__body' : 'ticket-card__body ticket-card__body--alone'}>
          <div className="ticket-card__line">
            <strong className="ticket-card__origin">{row.origin}</strong>
            <Amount row={row} />
          </div>
          <div className="ticket-card__line muted">
            <span className="ticket-card__sub">
              <span className="tabular">{row.date}</span>
              {/* A manual entry titled by its category does not say it twice. */}
              {row.categoryLabel !== row.origin && ` · ${row.categoryLabel}`}
            </span>
            <span className="ticket-card__meta">
              <StatusIcon row={row} />
              {row.pendingSync && <SyncBadge />}
              {row.satCancelled && <SatCancelledBadge />}
              <FindingsMarker row={row} />
            </span>
          </div>
          <CfdiSummary row={row} onOpen={onCfdi} />
          {/* A manual entry titled by its note does not repeat it. */}
          {row.note && row.note.trim() !== row.origin && <p className="ticket-card__note">{row.note}</p>}
          {row.review && <ReviewBadge review={row.review} block />}
          {row.invoice && <InvoicePath path={row.invoice} onChanged={onInvoiceChanged} />}
        </div>
        <button
          type="button"
          className="btn btn--ghost btn--icon"
          aria-label={`Acciones de ${row.origin} del ${row.date}`}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          <TicketIcon name="more" />
        </button>
      </div>
      <div id={panelId} className="ticket-card__actions" hidden={!open}>
        {open && (
          <>
            <CategoryCell row={row} lists={lists} />
            <NoteCell row={row} showText={false} />
            <RowActions row={row} onCfdi={onCfdi} />
          </>
        )}
      </div>
    </li>
  );
});

export function TicketCards({ rows, lists, selected = NONE, onToggle, allState = 'none', canSelectAll = false, onToggleAll, caption, onInvoiceChanged }: ListProps) {
  const cfdi = useCfdiPanel(rows);
  return (
    <div className="ticket-cards">
      {cfdi.panel}
      {/* There from the first paint (disabled until the selectable rows are known, as the table's): appearing
          later, it pushed every card down (a layout shift). */}
      {onToggle && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allState === 'all'}
            ref={(el) => {
              if (el) el.indeterminate = allState === 'some';
            }}
            disabled={!canSelectAll}
            onChange={onToggleAll}
          />
          <span>Seleccionar todos</span>
        </label>
      )}
      <ul className="ticket-cards__list" aria-label={caption}>
        {rows.map((row) => (
          <TicketCard key={row.id} row={row} lists={lists} selected={selected.has(row.id)} onToggle={onToggle} onInvoiceChanged={onInvoiceChanged} onCfdi={cfdi.openRow} />
        ))}
      </ul>
    </div>
  );
}
