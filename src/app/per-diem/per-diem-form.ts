// The 'Nuevo evento' form as pure functions: the draft the inputs edit, the spec's checks (checkPerDiem in
// domain/company.ts, Mexico City's today) with the field each message belongs to, the body sent, and how
// an event's figures read in the table (pending, authorised vs spent once closed).
import { checkPerDiem, type PerDiemEventDetail, type PerDiemStatus } from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { FieldProblem } from '../ui/use-field-problem';

export interface PerDiemDraft {
  event_name: string;
  start_date: string;
  end_date: string;
  /** Select values: '' = none chosen. */
  area_id: string;
  collaborator_id: string;
  deposit: string;
  notes: string;
}

export type PerDiemField = keyof PerDiemDraft;

export type FormProblem = FieldProblem<PerDiemField>;

export interface PerDiemBody {
  event_name: string;
  start_date: string;
  end_date: string;
  area_id: number | null;
  collaborator_id: number | null;
  deposit: string;
  notes: string;
}

export function emptyDraft(today: string): PerDiemDraft {
  return { event_name: '', start_date: today, end_date: today, area_id: '', collaborator_id: '', deposit: '', notes: '' };
}

const FIELD_OF: Record<string, PerDiemField> = {
  [MSG.perDiemNameRequired]: 'event_name',
  [MSG.perDiemDepositRequired]: 'deposit',
  [MSG.perDiemDepositNumeric]: 'deposit',
  [MSG.perDiemStartRequired]: 'start_date',
  [MSG.perDiemStartPast]: 'start_date',
  [MSG.perDiemEndBeforeStart]: 'end_date',
  [MSG.perDiemAreaInvalid]: 'area_id',
  [MSG.perDiemCollaboratorInvalid]: 'collaborator_id',
};

/** The field a message (local or from the server) belongs to; null = shown as a toast. */
export function fieldOf(message: string): PerDiemField | null {
  return FIELD_OF[message] ?? null;
}

const idOrNull = (s: string) => (s === '' ? null : Number(s));

/** A deposit typed with thousands separators or a '$' ('$1,500.50') is read as its number. */
export function cleanDeposit(raw: string): string {
  return raw.trim().replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
}

export function toBody(d: PerDiemDraft): PerDiemBody {
  return {
    event_name: d.event_name.trim(),
    start_date: d.start_date,
    end_date: d.end_date || d.start_date,
    area_id: idOrNull(d.area_id),
    collaborator_id: idOrNull(d.collaborator_id),
    deposit: cleanDeposit(d.deposit),
    notes: d.notes.trim(),
  };
}

/** The spec's checks in order, as the server runs them; null = fine to send. */
export function checkDraft(d: PerDiemDraft, today: string): FormProblem | null {
  const b = toBody(d);
  const message = checkPerDiem({ ...b, end_date: d.end_date }, today);
  return message ? { field: fieldOf(message), message } : null;
}

/** Choosing a collaborator fills their department when none is chosen yet. */
export function withCollaborator(d: PerDiemDraft, collaboratorId: string, areaOf: (id: number) => number | null): PerDiemDraft {
  const area = collaboratorId === '' ? null : areaOf(Number(collaboratorId));
  return { ...d, collaborator_id: collaboratorId, area_id: d.area_id === '' && area !== null ? String(area) : d.area_id };
}

/** A start date after the end moves the end along (the end is never before the start). */
export function withStart(d: PerDiemDraft, start: string): PerDiemDraft {
  return { ...d, start_date: start, end_date: d.end_date && d.end_date < start ? start : d.end_date };
}

export const STATUS_LABEL: Record<PerDiemStatus, string> = { open: 'Abierto', approved: 'Aprobado', closed: 'Cerrado' };

/** The action a row offers: 'Aprobar' while open, 'Cerrar evento' once approved, none when closed. */
export function actionOf(status: PerDiemStatus): 'approve' | 'close' | null {
  return status === 'open' ? 'approve' : status === 'approved' ? 'close' : null;
}

/** Authorised vs spent after closing: the difference left (positive) or overspent (negative). */
export function closingBalance(e: Pick<PerDiemEventDetail, 'authorized_total' | 'spent_total'>): number | null {
  if (e.authorized_total === null || e.spent_total === null) return null;
  return Math.round((e.authorized_total - e.spent_total) * 100) / 100;
}
