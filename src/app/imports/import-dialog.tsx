// 'Importar CFDIs' (spec §2 toolbar, §5 Upload): drop or pick XML, PDF and ZIP files; each is checked on
// the phone, the good ones go through the outbox (so it works offline), and each row follows its file
// to Importado / Duplicado / Rechazado from the server's live statuses.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type DragEvent } from 'react';
import { checkImportBatch, IMPORT_ACCEPT, IMPORT_HEAD_BYTES, IMPORT_MAX_FILES, type ImportCandidate } from '../../domain/import-files';
import { MSG } from '../../domain/messages';
import { newId } from '../../domain/ids';
import { db } from '../../offline/db';
import { getSession } from '../../offline/session';
import { queueUpload } from '../../offline/operations/files-upload';
import { onUploadAck } from '../../offline/upload-signal';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { Modal } from '../ui/overlay';
import { toast } from '../ui/toast-store';
import { useOnline } from '../use-online';
import {
  formatSize, importPlaces, importReducer, importTotals, initialImportState, monthHref, PLACES_TXT, rowView, supportsDrop,
  type ImportPlace, type ImportRow, type OpState, type RowView,
} from './import-model';
import { useUploadStatuses } from './use-upload-statuses';
import './import.css';

interface Picked extends ImportCandidate {
  file: File;
}

async function candidate(file: File): Promise<Picked> {
  const head = new Uint8Array(await file.slice(0, IMPORT_HEAD_BYTES).arrayBuffer());
  return { file, name: file.name, size: file.size, head };
}

/**
 * One row per file: refused ones with the phone's reason, the rest queued together as one upload through
 * the outbox (or all marked with why queueing failed).
 */
async function queueFiles(files: File[], rfc: string): Promise<ImportRow[]> {
  const check = checkImportBatch(await Promise.all(files.map(candidate)));
  const rows: ImportRow[] = check.refused.map(({ file, message }) => ({
    key: newId(), name: file.name, size: file.size, localError: message, opId: null, index: 0, serverId: null,
  }));
  if (check.accepted.length > 0) {
    const accepted = check.accepted.map((a) => a.file.file);
    let opId: string | null = null;
    let failure: string | null = null;
    try {
      const session = getSession();
      if (!session) throw new Error(MSG.importFailed);
      const bytes = await Promise.all(accepted.map((f) => f.arrayBuffer()));
      const queued = await queueUpload(
        db, { userId: session.user_id, rfc },
        accepted.map((f, i) => ({ bytes: bytes[i] as ArrayBuffer, name: f.name, type: f.type })),
      );
      opId = queued.opId;
    } catch (err) {
      failure = err instanceof Error && err.message ? err.message : MSG.importFailed;
    }
    accepted.forEach((f, index) =>
      rows.push({ key: newId(), name: f.name, size: f.size, localError: failure, opId, index, serverId: null }),
    );
  }
  return rows;
}

/** Once everything of the session settled, says how many became tickets (each only once) and refreshes. */
function useAnnounceImported(totals: { finished: boolean; imported: number }, onImported: () => void) {
  const announced = useRef(0);
  useEffect(() => {
    if (!totals.finished || totals.imported <= announced.current) return;
    const fresh = totals.imported - announced.current;
    announced.current = totals.imported;
    toast.success(TXT.importDone(fresh));
    onImported();
  }, [totals.finished, totals.imported, onImported]);
}

/** While open, files dropped beside the zone must not make the browser leave the app to show them. */
function useKeepDroppedFiles(open: boolean) {
  useEffect(() => {
    if (!open) return;
    const keep = (e: globalThis.DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, [open]);
}

/** The drop zone and its 'Elegir archivos' button (a hidden file input behind it). */
function DropZone({ busy, onFiles }: { busy: boolean; onFiles: (files: File[]) => void }) {
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const canDrop = useMemo(() => supportsDrop(), []);

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    onFiles(Array.from(e.dataTransfer?.files ?? []));
  }

  return (
    <>
      <div
        className={`import-drop${dragging ? ' import-drop--over' : ''}`}
        data-testid="import-drop"
        onDragEnter={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(e) => {
          if (e.currentTarget === e.target) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <Icon name="upload" />
        {canDrop && <p className="import-drop__title">{TXT.importDrop}</p>}
        <p className="muted import-drop__hint">{TXT.importDropHint}</p>
        <Button variant="primary" data-autofocus loading={busy} onClick={() => inputRef.current?.click()}>
          {TXT.importPick}
        </Button>
        <input
          ref={inputRef}
          className="visually-hidden"
          type="file"
          accept={IMPORT_ACCEPT}
          multiple
          tabIndex={-1}
          aria-label={TXT.importPick}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = ''; // picking the same files again must fire again
            onFiles(files);
          }}
        />
      </div>
      {!canDrop && <p className="notice notice--info">{TXT.importNoDrag}</p>}
    </>
  );
}

/** 'Archivos': a row per file with its status, and 'Quitar terminados' once some finished. */
function FileRows({ views, onClearFinished }: { views: RowView[]; onClearFinished: () => void }) {
  return (
    <section className="stack import-files" aria-labelledby="import-files-title">
      <div className="row row--between">
        <h3 id="import-files-title" className="import-files__title">
          {TXT.importFilesLabel}
        </h3>
        {views.some((v) => v.finished) && (
          <Button variant="ghost" onClick={onClearFinished}>
            {TXT.importClear}
          </Button>
        )}
      </div>
      <ul className="import-list" aria-live="polite">
        {views.map((v) => (
          <StatusRow key={v.key} view={v} />
        ))}
      </ul>
    </section>
  );
}

function StatusRow({ view }: { view: RowView }) {
  return (
    <li className={`import-row import-row--${view.tone}`}>
      <div className="import-row__main">
        <span className="import-row__name">{view.name}</span>
        <span className="import-row__size muted tabular">{formatSize(view.size)}</span>
      </div>
      <p className="import-row__status">
        {view.tone === 'progress' ? <span className="spinner" aria-hidden="true" /> : <Icon name={view.tone === 'danger' ? 'alert' : 'check'} />}
        <span>
          {view.label}
          {view.reason ? `: ${view.reason}` : ''}
        </span>
      </p>
      {view.summary && (
        <details className="import-row__entries">
          <summary>
            {view.summary} · {TXT.importZipEntries(view.entries.length)}
          </summary>
          <ul>
            {view.entries.map((e) => (
              <li key={e.id} className={`import-entry import-entry--${e.tone}`}>
                <span className="import-row__name">{e.name}</span>
                <span>
                  {e.label}
                  {e.reason ? `: ${e.reason}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** The months the import filled, each a link to that month (of that account) in the dashboard. */
export function Places({ places, onOpenMonth }: { places: ImportPlace[]; onOpenMonth: ((rfc: string, month: string) => void) | undefined }) {
  return (
    <section className="import-places" aria-labelledby="import-places-title">
      <h3 id="import-places-title" className="import-files__title">
        {PLACES_TXT.title}
      </h3>
      <ul>
        {places.map((p) => (
          <li key={`${p.rfc}-${p.month}`}>
            <a
              href={monthHref(p.rfc, p.month)}
              aria-label={PLACES_TXT.open(p.text, p.rfc)}
              onClick={(e) => {
                // A plain click stays in the app; a new tab or window (or a dialog opened away from the
                // dashboard) follows the link itself, and the dashboard applies it.
                if (!onOpenMonth || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                onOpenMonth(p.rfc, p.month);
              }}
            >
              {p.text}
            </a>
            {p.otherAccount && <span className="muted"> {PLACES_TXT.otherAccount(p.rfc)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ImportDialog({ open, onClose, rfc, onImported, onOpenMonth }: {
  open: boolean;
  onClose: () => void;
  /** The selected account: the server files the CFDI under it. */
  rfc: string;
  /** Something became tickets: the dashboard pulls its month again. */
  onImported: () => void;
  /** Shows an account's month ('YYYY-MM') in the dashboard (the dialog closes); without it the links navigate. */
  onOpenMonth?: (rfc: string, month: string) => void;
}) {
  const online = useOnline();
  const [state, dispatch] = useReducer(importReducer, initialImportState);
  const [busy, setBusy] = useState(false);

  // The server's ids arrive with the upload's answer, whoever sent it (this tab, another, the worker).
  useEffect(() => onUploadAck((ack) => dispatch({ type: 'ack', opId: ack.opId, files: ack.files })), []);
  useUploadStatuses(open, useCallback((event) => dispatch({ type: 'event', event }), []));

  useKeepDroppedFiles(open);

  const opIds = useMemo(() => [...new Set(state.rows.map((r) => r.opId).filter((id): id is string => !!id))], [state.rows]);
  const ops = useLiveQuery(
    async () => {
      const rows = opIds.length > 0 ? await db.outbox.where('opId').anyOf(opIds).toArray() : [];
      return new Map<string, OpState>(rows.map((o) => [o.opId, { status: o.status, lastError: o.lastError }]));
    },
    [opIds.join(',')],
  );
  const views = useMemo(
    () => (ops ? state.rows.map((r) => rowView(r, state, ops.get(r.opId ?? ''), online)) : []),
    [state, ops, online],
  );
  const totals = importTotals(views);
  const places = useMemo(() => (totals.finished ? importPlaces(state, rfc) : []), [totals.finished, state, rfc]);

  useAnnounceImported(totals, onImported);

  async function addFiles(files: File[]) {
    if (files.length === 0) return;
    if (files.length > IMPORT_MAX_FILES) {
      dispatch({ type: 'too-many', message: MSG.importTooMany });
      return;
    }
    setBusy(true);
    try {
      dispatch({ type: 'added', rows: await queueFiles(files, rfc) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={TXT.importTitle}
      footer={
        <Button variant="secondary" onClick={onClose}>
          {TXT.close}
        </Button>
      }
    >
      <div className="import stack">
        <DropZone busy={busy} onFiles={(files) => void addFiles(files)} />
        {state.notice && (
          <p className="notice notice--error" role="alert">
            {state.notice}
          </p>
        )}
        {!online && views.some((v) => !v.finished) && <p className="notice notice--info">{TXT.importOfflineNote}</p>}
        {places.length > 0 && <Places places={places} onOpenMonth={onOpenMonth} />}
        {views.length > 0 && <FileRows views={views} onClearFinished={() => ops && dispatch({ type: 'clear-finished', ops })} />}
      </div>
    </Modal>
  );
}
