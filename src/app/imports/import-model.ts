// The 'Importar CFDIs' dialog's state, without React: the files the user gave (refused on the phone, or
// queued in the outbox), the server's ids once the upload is acknowledged, and the live statuses from
// the server-sent events. A row's progress is derived from these and from its outbox operation.
import type { OutboxOp } from '../../domain/outbox-ops';
import type { UploadedFile } from '../../offline/upload-signal';
import { TXT } from '../strings';
import type { FileEvent } from '../../domain/import-files';
import { MONTH_NAMES } from '../../domain/dates';

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

const PLACED_RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/;
const PLACED_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** One file cannot fill more places than this; more is not a real answer and is cut. */
const MAX_PLACES = 100;

/** Where an event's tickets went: well-formed places only (an RFC, a month 'YYYY-MM', a positive count). */
function asPlaced(v: unknown): FileEvent['placed'] {
  if (!Array.isArray(v)) return undefined;
  const out: NonNullable<FileEvent['placed']> = [];
  for (const p of v.slice(0, MAX_PLACES)) {
    if (!p || typeof p !== 'object') continue;
    const { rfc, month, count } = p as Record<string, unknown>;
    if (typeof rfc !== 'string' || !PLACED_RFC.test(rfc)) continue;
    if (typeof month !== 'string' || !PLACED_MONTH.test(month)) continue;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100_000) continue;
    out.push({ rfc, month, count });
  }
  return out;
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
    ...(Array.isArray(o.placed) ? { placed: asPlaced(o.placed) } : {}),
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

/** A month the import filled: which account, which month, how many of this import's CFDI went there. */
export interface ImportPlace {
  rfc: string;
  /** 'YYYY-MM'. */
  month: string;
  count: number;
  /** '3 en marzo de 2025'. */
  text: string;
  /** Another of the user's accounts than the one the import was made from. */
  otherAccount: boolean;
}

export const PLACES_TXT = {
  title: 'Dónde quedaron',
  otherAccount: (rfc: string) => `en tu RFC ${rfc}`,
  open: (text: string, rfc: string) => `Ver ${text} (RFC ${rfc})`,
} as const;

/** '3 en marzo de 2025': how many CFDI went to a month, in running-text Spanish. */
export function placeText(count: number, month: string): string {
  const m = PLACED_MONTH.exec(month);
  const name = m ? `${MONTH_NAMES[Number(m[2]) - 1]} de ${m[1]}` : month;
  return `${count} en ${name}`;
}

/**
 * The months this dialog's files filled, summed per account and month: the import's own account first,
 * then the others, each by month. A zip's entries say where each of them went; when they do, the zip's own
 * event is not counted again.
 */
export function importPlaces(state: ImportState, rfc: string): ImportPlace[] {
  const sums = new Map<string, number>();
  const add = (placed: FileEvent['placed']) => {
    for (const p of placed ?? []) sums.set(`${p.rfc}|${p.month}`, (sums.get(`${p.rfc}|${p.month}`) ?? 0) + p.count);
  };
  const events = Object.values(state.events);
  for (const row of state.rows) {
    const event = row.serverId ? state.events[row.serverId] : undefined;
    if (!event) continue;
    const children = events.filter((e) => e.parent_id === event.id && (e.placed?.length ?? 0) > 0);
    if (children.length > 0) children.forEach((c) => add(c.placed));
    else add(event.placed);
  }
  return [...sums]
    .map(([key, count]) => {
      const [placeRfc = '', month = ''] = key.split('|');
      return { rfc: placeRfc, month, count, text: placeText(count, month), otherAccount: placeRfc !== rfc };
    })
    .sort((a, b) => Number(a.otherAccount) - Number(b.otherAccount) || a.rfc.localeCompare(b.rfc) || a.month.localeCompare(b.month));
}

/** The dashboard's link to an account's month: the home route applies it and drops it from the address. */
export function monthHref(rfc: string, month: string): string {
  return `#/home?${new URLSearchParams({ month, rfc }).toString()}`;
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
