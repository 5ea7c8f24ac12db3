// The 'Importar CFDIs' dialog's state, without React: the files the user gave (refused on the phone, or
// queued in the outbox), the server's ids once the upload is acknowledged, and the live statuses from
// the server-sent events. A row's progress is derived from these and from its outbox operation.
import type { OutboxOp } from '../../domain/outbox-ops';
import type { UploadedFile } from '../../offline/upload-signal';
import { TXT } from '../strings';
import type { FileEvent } from '../../domain/import-files';

export type { FileEvent };

export type FinalStatus = 'importado' | 'duplicado' | 'rechazado';
const FINAL: readonly string[] = ['importado', 'duplicado', 'rechazado'];

/** A file the user dropped or picked. */
export interface ImportRow {
  key: string;
  name: string;
  size: number;
  /** Refused on the phone (type, size): never sent. */
  localError: string | null;
  /** The outbox operation carrying it, and its place in that batch. */
  opId: string | null;
  index: number;
  /** The server's id, once the upload is acknowledged. */
  serverId: string | null;
}

export interface ImportState {
  rows: ImportRow[];
  /** Latest event per server id (zip entries included), kept even before the row learns its id. */
  events: Record<string, FileEvent>;
  /** 'Demasiados archivos simultáneos' for the last drop, when it had more than 100 files. */
  notice: string | null;
}

export const initialImportState: ImportState = { rows: [], events: {}, notice: null };

export type ImportAction =
  | { type: 'too-many'; message: string }
  | { type: 'added'; rows: ImportRow[] }
  | { type: 'ack'; opId: string; files: UploadedFile[] }
  | { type: 'event'; event: FileEvent }
  | { type: 'clear-finished'; ops: ReadonlyMap<string, OpState> };

/** What the dialog needs to know about a row's outbox operation (absent once acknowledged or discarded). */
export type OpState = Pick<OutboxOp, 'status' | 'lastError'>;

export function importReducer(state: ImportState, action: ImportAction): ImportState {
  switch (action.type) {
    case 'too-many':
      return { ...state, notice: action.message };
    case 'added':
      return { ...state, notice: null, rows: [...action.rows, ...state.rows] };
    case 'ack': {
      // The answer lists the files in the order they were sent (names may come back cleaned of
      // control characters, so they are not compared); an answer of another length is not ours.
      const files = action.files;
      if (files.length !== state.rows.filter((r) => r.opId === action.opId).length) return state;
      let changed = false;
      const events = { ...state.events };
      const rows = state.rows.map((row) => {
        if (row.opId !== action.opId || row.serverId) return row;
        const f = files[row.index];
        if (!f) return row;
        changed = true;
        // A stream event may have come first: it is newer than the answer, keep it.
        if (!events[f.id]) events[f.id] = { id: f.id, name: f.name, status: f.status, reason: f.reason ?? null, parent_id: null, ticket_ids: [] };
        return { ...row, serverId: f.id };
      });
      return changed ? { ...state, rows, events } : state;
    }
    case 'event':
      return { ...state, events: { ...state.events, [action.event.id]: action.event } };
    case 'clear-finished':
      return { ...state, notice: null, rows: state.rows.filter((r) => !rowView(r, state, action.ops.get(r.opId ?? ''), true).finished) };
  }
}

function asId(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
}

/** Reads one `file` event's data; null when it is not one. */
export function parseFileEvent(data: string): FileEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const id = asId(o.id);
  if (!id || typeof o.status !== 'string') return null;
  return {
    id,
    name: typeof o.name === 'string' ? o.name : '',
    status: o.status,
    reason: typeof o.reason === 'string' && o.reason !== '' ? o.reason : null,
    parent_id: asId(o.parent_id),
    ticket_ids: Array.isArray(o.ticket_ids) ? o.ticket_ids.map(asId).filter((x): x is string => x !== null) : [],
  };
}

export type Tone = 'progress' | 'success' | 'neutral' | 'danger';

export interface EntryView {
  id: string;
  name: string;
  label: string;
  tone: Tone;
  reason: string | null;
}

export interface RowView {
  key: string;
  name: string;
  size: number;
  /** 'En cola', 'Procesando', 'Importado', 'Rechazado', … */
  label: string;
  tone: Tone;
  reason: string | null;
  /** Nothing more will happen to it (a final status, refused here, or a send the server refused). */
  finished: boolean;
  /** For a zip: its entries' summary and list. */
  entries: EntryView[];
  summary: string | null;
  /** Files that became tickets (the zip's entries for a zip). */
  imported: number;
}

function statusLabel(status: string): { label: string; tone: Tone; final: boolean } {
  switch (status) {
    case 'importado':
      return { label: TXT.importImported, tone: 'success', final: true };
    case 'duplicado':
      return { label: TXT.importDuplicate, tone: 'neutral', final: true };
    case 'rechazado':
      return { label: TXT.importRejected, tone: 'danger', final: true };
    default:
      return { label: TXT.importProcessing, tone: 'progress', final: false };
  }
}

/** A row as shown: from its events when the server knows it, else from its outbox operation. */
export function rowView(row: ImportRow, state: ImportState, op: OpState | undefined, online: boolean): RowView {
  const base = { key: row.key, name: row.name, size: row.size, entries: [] as EntryView[], summary: null as string | null, imported: 0 };
  if (row.localError) return { ...base, label: TXT.importNotSent, tone: 'danger', reason: row.localError, finished: true };
  const event = row.serverId ? state.events[row.serverId] : undefined;
  if (event) {
    const s = statusLabel(event.status);
    const children = Object.values(state.events).filter((e) => e.parent_id === event.id);
    const entries = children.map((c) => {
      const cs = statusLabel(c.status);
      return { id: c.id, name: c.name, label: cs.label, tone: cs.tone, reason: c.reason };
    });
    const count = (st: string) => children.filter((c) => c.status === st).length;
    const childrenDone = children.every((c) => FINAL.includes(c.status));
    return {
      ...base,
      label: s.label,
      tone: s.tone,
      reason: event.reason,
      finished: s.final && childrenDone,
      entries,
      summary: children.length > 0 ? TXT.importZipSummary(count('importado'), count('duplicado'), count('rechazado')) : null,
      imported: children.length > 0 ? count('importado') : event.status === 'importado' ? 1 : 0,
    };
  }
  if (op?.status === 'failed') return { ...base, label: TXT.importNotSent, tone: 'danger', reason: op.lastError, finished: true };
  if (op?.status === 'inflight') return { ...base, label: TXT.importSending, tone: 'progress', reason: null, finished: false };
  if (op) return { ...base, label: online ? TXT.importQueued : TXT.importWaiting, tone: 'progress', reason: null, finished: false };
  // Acknowledged: its statuses are on their way.
  return { ...base, label: TXT.importProcessing, tone: 'progress', reason: null, finished: false };
}

/** Totals over the rows: whether everything finished, and how many files became tickets. */
export function importTotals(views: readonly RowView[]): { finished: boolean; imported: number } {
  return { finished: views.every((v) => v.finished), imported: views.reduce((n, v) => n + v.imported, 0) };
}

/** "1.2 MB", "830 KB": the size shown next to a file's name. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toLocaleString('es-MX', { maximumFractionDigits: 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('es-MX')} KB`;
}

/** Whether the browser can take dropped files (old mobile browsers cannot). */
export function supportsDrop(win: { DataTransfer?: unknown; document?: { createElement(tag: string): object } } = globalThis as never): boolean {
  if (typeof win.DataTransfer !== 'function' || !win.document) return false;
  const div = win.document.createElement('div');
  return 'draggable' in div || ('ondragstart' in div && 'ondrop' in div);
}
