// The per-ticket controls shared by the desktop table and the phone cards (spec §2 row actions):
// status icon, pending and SAT-cancelled badges, what the CFDI is (its badge, a seal alarm, the findings
// marker), category select, note editing, receipt links, the CFDI view and image attach.
import { useRef, useState } from 'react';
import { CFDI_TXT } from '../../domain/cfdi-label';
import { MSG } from '../../domain/messages';
import { ATTACHMENT_MAX_BYTES } from '../../domain/spending-form';
import type { StatusDisplay } from '../../domain/ticket';
import { db, type CategoryRow } from '../../offline/db';
import { attachTicketImage } from '../../offline/operations/ticket-image';
import { setIncomeCategory, setTicketCategory, setTicketNote } from '../../offline/operations/ticket-update';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { FileAction } from '../ui/file-action';
import { TicketIcon, type TicketIconName } from '../ui/ticket-icons';
import { Select, type SelectOption } from '../ui/fields';
import { TextArea } from '../ui/text-area';
import { toast } from '../ui/toast-store';
import type { TicketRow } from './ticket-list-model';

const STATUS_ICONS: Record<StatusDisplay, TicketIconName> = {
  pending: 'hourglass',
  invoiced: 'fileCheck',
  error: 'alertCircle',
  approved: 'checkCircle',
  rejected: 'xCircle',
  qr: 'qr',
  'not-invoiceable': 'minusCircle',
  'income-not-invoiceable': 'arrowDownCircle',
};

export function StatusIcon({ row }: { row: TicketRow }) {
  return (
    <span className={`status status--${row.status}`} title={row.statusLabel}>
      <TicketIcon name={STATUS_ICONS[row.status]} />
      <span className="visually-hidden">{row.statusLabel}</span>
    </span>
  );
}

export function SyncBadge() {
  return (
    <span className="sync-badge" title="Pendiente de envío">
      <TicketIcon name="clock" />
      <span className="visually-hidden">Pendiente de envío</span>
    </span>
  );
}

/** The CFDI was cancelled in SAT: said in words, red only as a second cue. */
export function SatCancelledBadge() {
  return <span className="sat-badge">{TXT.satCancelled}</span>;
}

/** What the CFDI is when it is not an ordinary invoice ('Nota de crédito', 'Pago parcial (…)', 'Cancelada'). */
export function CfdiBadge({ row }: { row: TicketRow }) {
  const badge = row.cfdi.badge;
  if (!badge) return null;
  return (
    <>
      <span className={`cfdi-badge cfdi-badge--${badge.tone}`}>{badge.text}</span>
      {badge.note && <span className="cfdi-badge__note tabular"> {badge.note}</span>}
    </>
  );
}

/**
 * The badge and the short detail (what a payment paid, a payroll's period) under the origin, and a broken
 * seal; null when none. With `onOpen` (phone cards) it is a button that opens the CFDI view.
 */
export function CfdiSummary({ row, onOpen }: { row: TicketRow; onOpen?: ((row: TicketRow) => void) | undefined }) {
  const { badge, detail, alarm } = row.cfdi;
  if (!badge && !detail && !alarm) return null;
  const content = (
    <>
      {(badge || detail) && (
        <span className="cfdi-summary__line">
          <CfdiBadge row={row} />
          {detail && <span className="cfdi-summary__detail muted tabular">{detail}</span>}
        </span>
      )}
      {alarm && (
        <span className="cfdi-alarm">
          <TicketIcon name="alertCircle" />
          <span>{alarm}</span>
        </span>
      )}
    </>
  );
  if (onOpen && row.cfdiView) {
    return (
      <button type="button" className="cfdi-summary cfdi-summary--button" onClick={() => onOpen(row)}>
        {content}
        <span className="visually-hidden">, ver CFDI</span>
      </button>
    );
  }
  return <span className="cfdi-summary">{content}</span>;
}

/** SAT rules the CFDI breaks: a small marker with the count; the list is in the CFDI view. */
export function FindingsMarker({ row }: { row: TicketRow }) {
  const n = row.cfdi.findings;
  if (n === 0) return null;
  const label = CFDI_TXT.findingsShort(n);
  return (
    <span className="findings-marker" title={label}>
      <TicketIcon name="alertCircle" />
      <span aria-hidden="true">{n}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export interface CategoryLists {
  expenseRows: CategoryRow[];
  expense: SelectOption[];
  income: SelectOption[];
}

function offlineSuffix(): string {
  return navigator.onLine ? '' : ` ${MSG.offlineSaved}`;
}

function reportError(err: unknown) {
  toast.error(err instanceof Error && err.message ? err.message : MSG.generic);
}

export function CategoryCell({ row, lists }: { row: TicketRow; lists: CategoryLists }) {
  const options = row.categoryKind === 'income' ? lists.income : lists.expense;
  // A tag the list does not know (e.g. from another device) still shows as the current value.
  const known = row.categoryValue === '' || options.some((o) => o.value === row.categoryValue);
  const all = known ? options : [{ value: row.categoryValue, label: row.categoryLabel }, ...options];
  return (
    <Select
      label={`Categoría de ${row.origin} del ${row.date}`}
      hideLabel
      className="cell-select"
      placeholder="Sin Categoría"
      options={all}
      value={row.categoryValue}
      onChange={(e) => {
        const id = Number(e.target.value);
        if (!e.target.value || !Number.isFinite(id)) return;
        const write = row.categoryKind === 'income' ? setIncomeCategory(db, row.id, id) : setTicketCategory(db, row.id, id, lists.expenseRows);
        write.catch(reportError);
      }}
    />
  );
}

/** `showText` false where the note is already shown next to it (phone cards). */
export function NoteCell({ row, showText = true }: { row: TicketRow; showText?: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(row.note);
  const [saving, setSaving] = useState(false);

  if (!editing) {
    return (
      <div className="note-cell">
        {showText && row.note ? <span className="note-cell__text">{row.note}</span> : null}
        <button
          type="button"
          className="link-button"
          aria-label={`Editar nota de ${row.origin} del ${row.date}`}
          onClick={() => {
            setDraft(row.note);
            setEditing(true);
          }}
        >
          Editar nota
        </button>
      </div>
    );
  }

  async function save() {
    // A note empty after trimming is not saved (spec §5).
    if (!draft.trim()) {
      setEditing(false);
      return;
    }
    setSaving(true);
    try {
      await setTicketNote(db, row.id, draft);
      setEditing(false);
    } catch (err) {
      reportError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="note-cell note-cell--editing"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          setEditing(false);
        }
      }}
    >
      <TextArea label="Nota" value={draft} maxLength={500} rows={2} onChange={(e) => setDraft(e.target.value)} autoFocus />
      <div className="row">
        <Button variant="primary" type="submit" loading={saving}>
          Guardar
        </Button>
        <Button variant="ghost" onClick={() => setEditing(false)}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

export function AttachImageButton({ row }: { row: TicketRow }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  async function onFile(file: File | undefined) {
    if (inputRef.current) inputRef.current.value = '';
    if (!file) return;
    // Cheap checks before reading the bytes; the action checks the bytes themselves.
    if (!file.type.startsWith('image/')) return void toast.error(MSG.imageNotImage);
    if (file.size > ATTACHMENT_MAX_BYTES) return void toast.error(MSG.imageTooLarge);
    setBusy(true);
    try {
      const bytes = await file.arrayBuffer();
      await attachTicketImage(db, row.id, { bytes, type: file.type, name: file.name, size: file.size });
      toast.success(`Listo, adjuntamos la imagen.${offlineSuffix()}`);
    } catch (err) {
      reportError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        variant="ghost"
        className="btn--small"
        loading={busy}
        aria-label={`Adjuntar imagen a ${row.origin} del ${row.date}`}
        onClick={() => inputRef.current?.click()}
      >
        <TicketIcon name="paperclip" />
        <span>Adjuntar imagen</span>
      </Button>
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        hidden
        tabIndex={-1}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
    </>
  );
}

/** The CFDI view, PDF / XML of the receipt, the ticket image, and attaching one. */
export function RowActions({ row, onCfdi }: { row: TicketRow; onCfdi?: ((row: TicketRow) => void) | undefined }) {
  const { pdf, xml, image } = row.links;
  return (
    <div className="row-actions">
      {row.cfdiView && onCfdi && (
        <Button variant="ghost" className="btn--small" aria-label={`Ver CFDI de ${row.origin} del ${row.date}`} onClick={() => onCfdi(row)}>
          <TicketIcon name="fileCheck" />
          <span>Ver CFDI</span>
        </Button>
      )}
      {pdf && <FileAction target={pdf} icon="file" label="PDF" name={`PDF de ${row.origin} del ${row.date}`} />}
      {xml && <FileAction target={xml} icon="file" label="XML" name={`XML de ${row.origin} del ${row.date}`} />}
      {/* Until it reaches the server the image cannot be fetched from it. */}
      {image && !row.pendingSync && <FileAction target={image} icon="image" label="Ver imagen" name={`Ver imagen de ${row.origin} del ${row.date}`} />}
      <AttachImageButton row={row} />
    </div>
  );
}
