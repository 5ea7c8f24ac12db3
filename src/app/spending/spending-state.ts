// The new spending / income panel as a reducer (spec §2, §5, §9): fields, the exchange rate and
// its auto-filled national amount and note, the first problem, and the reset to MXN on close.
import { conversionNote, impliedRate, NATIONAL_CURRENCY, nationalAmount, roundRate } from '../../domain/currency';
import { MSG } from '../../domain/messages';
import {
  ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, checkSpendingForm, isAmount, isDate,
  todayInput, type EntryKind, type FormProblem, type SpendingField, type SpendingForm,
} from '../../domain/spending-form';

export const ATTACHMENT_TOO_LARGE = 'El archivo pesa más de 2 MB. Elige uno más ligero.';
export const PANEL_TITLES: Record<EntryKind, string> = { expense: 'Agregar gasto', income: 'Agregar ingreso' };
export const SAVED_TEXT: Record<EntryKind, string> = {
  expense: 'Listo, guardamos tu gasto.',
  income: 'Listo, guardamos tu ingreso.',
};

/** The success toast; offline it also says the entry waits on the phone (brand guide). */
export function savedMessage(kind: EntryKind, online: boolean): string {
  return online ? SAVED_TEXT[kind] : `${SAVED_TEXT[kind]} ${MSG.offlineSaved}`;
}

export interface AttachmentInfo {
  name: string;
  type: string;
  size: number;
}

export type RateState =
  | { status: 'none' }
  | { status: 'loading'; key: string }
  | { status: 'known'; key: string; rate: number; source: string }
  | { status: 'unknown'; key: string };

export type PanelField = SpendingField | 'attachment';

/** The rate this user last used for a currency (from their own tickets on the device), to suggest it. */
export interface LastRate {
  currency: string;
  /** Two decimals, '17.20'. */
  rate: string;
  /** YYYY-MM-DD of the ticket it comes from. */
  date: string;
}

/** Without a known rate the user types either the rate or the pesos; the other follows. */
export type RateDriver = 'rate' | 'national' | null;

export interface PanelState {
  open: boolean;
  form: SpendingForm;
  attachment: AttachmentInfo | null;
  errors: Partial<Record<PanelField, string>>;
  rate: RateState;
  /** Whether the national amount / note still hold what we filled in (the user has not typed over them). */
  autoNational: boolean;
  autoNote: boolean;
  saving: boolean;
  /** The rate as typed (or as implied by the typed pesos) when no rate is known for the date. */
  rateInput: string;
  /** Which of the rate and the pesos the user typed last (the other one is computed). */
  driver: RateDriver;
  /** The last rate used for the chosen currency, if any. */
  lastRate: LastRate | null;
}

export function emptyForm(kind: EntryKind, now: Date = new Date()): SpendingForm {
  return { kind, amount: '', date: todayInput(now), category: '', currency: NATIONAL_CURRENCY, nationalAmount: '', note: '' };
}

export function initialPanel(kind: EntryKind = 'expense', now: Date = new Date()): PanelState {
  return {
    open: false,
    form: emptyForm(kind, now),
    attachment: null,
    errors: {},
    rate: { status: 'none' },
    autoNational: true,
    autoNote: true,
    saving: false,
    rateInput: '',
    driver: null,
    lastRate: null,
  };
}

/** The rate to ask for: only for a foreign currency and a valid date ('' when none is needed). */
export function rateKey(form: SpendingForm): string {
  if (form.currency === NATIONAL_CURRENCY || !isDate(form.date)) return '';
  return `${form.currency}|${form.date.trim().replace(/\//g, '-')}`;
}

/** Attachment of the panel: png, jpg, jpeg or pdf (spec §5), at most 2 MB. */
export function checkAttachment(file: AttachmentInfo): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const typeOk = (ATTACHMENT_TYPES as readonly string[]).includes(file.type);
  const extOk = (ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext);
  if (!typeOk || !extOk) return MSG.attachmentType;
  if (file.size > ATTACHMENT_MAX_BYTES) return ATTACHMENT_TOO_LARGE;
  return null;
}

export type PanelAction =
  | { type: 'open'; kind: EntryKind; now?: Date }
  | { type: 'close'; now?: Date }
  | { type: 'field'; field: SpendingField; value: string }
  | { type: 'attachment'; file: AttachmentInfo | null }
  | { type: 'rate-loading'; key: string }
  | { type: 'rate-known'; key: string; rate: number; source: string }
  | { type: 'rate-unknown'; key: string }
  | { type: 'rate-input'; value: string }
  | { type: 'last-rate'; currency: string; last: LastRate | null }
  | { type: 'problem'; problem: FormProblem }
  | { type: 'saving' }
  | { type: 'save-failed'; message: string }
  | { type: 'saved'; now?: Date };

/** The note we write (spec §9: amount, currency and rate), unless the user wrote their own. */
function withNote(s: PanelState, rate: string | number | null): PanelState {
  if (!s.autoNote) return s;
  const ok = isAmount(s.form.amount) && rate !== null && roundRate(rate) !== null;
  return { ...s, form: { ...s.form, note: ok ? conversionNote(s.form.amount, s.form.currency, rate) : '' } };
}

/** Fills the national amount and the note from the known rate, unless the user typed over them. */
function applyRate(s: PanelState): PanelState {
  if (s.rate.status !== 'known' || s.rate.key !== rateKey(s.form)) return s;
  const form = { ...s.form };
  if (s.autoNational) form.nationalAmount = nationalAmount(form.amount, s.rate.rate) ?? '';
  return withNote({ ...s, form }, s.rate.rate);
}

/**
 * With no rate known for the date: whichever of the rate and the pesos the user typed last decides the
 * other (both at 2 decimals, spec §9), and the note says amount, currency and that rate.
 */
function applyTypedRate(s: PanelState): PanelState {
  if (s.rate.status !== 'unknown' || s.rate.key !== rateKey(s.form)) return s;
  const form = { ...s.form };
  let rateInput = s.rateInput;
  if (s.driver === 'rate') form.nationalAmount = nationalAmount(form.amount, rateInput) ?? '';
  else if (s.driver === 'national') rateInput = impliedRate(form.amount, form.nationalAmount) ?? '';
  return withNote({ ...s, form, rateInput }, roundRate(rateInput));
}

const applyAny = (s: PanelState): PanelState => applyTypedRate(applyRate(s));

export function panelReducer(s: PanelState, a: PanelAction): PanelState {
  switch (a.type) {
    case 'open':
      return { ...initialPanel(a.kind, a.now), open: true };
    case 'close':
      // Closing resets every field and the currency to MXN (spec §2).
      return initialPanel(s.form.kind, a.now);
    case 'field': {
      const errors = { ...s.errors };
      delete errors[a.field];
      let next: PanelState = { ...s, errors, form: { ...s.form, [a.field]: a.value } };
      if (a.field === 'nationalAmount') {
        next.autoNational = false;
        next.driver = 'national';
      }
      if (a.field === 'note') next.autoNote = a.value === '';
      if (a.field === 'currency') {
        // Back to pesos: the converted amount and our note no longer apply.
        if (a.value === NATIONAL_CURRENCY) {
          next.form.nationalAmount = '';
          if (s.autoNote) next.form.note = '';
        }
        // Another currency: another rate, and another last-used suggestion.
        next = { ...next, autoNational: true, rateInput: '', driver: null, lastRate: null };
        delete next.errors.nationalAmount;
      }
      const key = rateKey(next.form);
      if (key === '') next.rate = { status: 'none' };
      else if (s.rate.status !== 'none' && s.rate.key !== key) next.rate = { status: 'none' };
      return applyAny(next);
    }
    case 'attachment': {
      const errors = { ...s.errors };
      delete errors.attachment;
      if (!a.file) return { ...s, attachment: null, errors };
      const problem = checkAttachment(a.file);
      if (problem) return { ...s, attachment: null, errors: { ...errors, attachment: problem } };
      return { ...s, attachment: a.file, errors };
    }
    case 'rate-loading':
      return a.key === rateKey(s.form) ? { ...s, rate: { status: 'loading', key: a.key } } : s;
    case 'rate-known':
      if (a.key !== rateKey(s.form)) return s;
      return applyRate({ ...s, rate: { status: 'known', key: a.key, rate: a.rate, source: a.source } });
    case 'rate-unknown':
      return a.key === rateKey(s.form) ? applyTypedRate({ ...s, rate: { status: 'unknown', key: a.key } }) : s;
    case 'rate-input': {
      const errors = { ...s.errors };
      delete errors.nationalAmount;
      return applyTypedRate({ ...s, errors, rateInput: a.value, driver: 'rate', autoNational: true });
    }
    case 'last-rate':
      return a.currency === s.form.currency ? { ...s, lastRate: a.last } : s;
    case 'problem':
      return { ...s, saving: false, errors: { [a.problem.field]: a.problem.message } };
    case 'saving':
      return { ...s, saving: true };
    case 'save-failed':
      // Everything typed stays (e.g. storage full).
      return { ...s, saving: false };
    case 'saved':
      return initialPanel(s.form.kind, a.now);
  }
}

/** The first problem in the spec's order (amount, date, category, national amount), or null. */
export function firstProblem(s: PanelState, categoryIds: readonly number[], now?: Date): FormProblem | null {
  return checkSpendingForm(s.form, categoryIds, now);
}

export const RATE_UNKNOWN = 'No conocemos el tipo de cambio de esa fecha. Escribe el tipo de cambio o el monto en pesos: calculamos el otro.';

/** 'Último tipo de cambio que usaste: 17.20 MXN por USD (2026-11-10)': the suggestion, said as what it is. */
export function lastRateText(last: LastRate): string {
  return `Último tipo de cambio que usaste: ${last.rate} MXN por ${last.currency} (${last.date})`;
}

/** The hint under 'Monto en moneda nacional' for the current rate state. */
export function rateHint(rate: RateState): string | null {
  switch (rate.status) {
    case 'loading':
      return 'Buscando el tipo de cambio…';
    case 'known':
      return `Tipo de cambio: ${rate.rate.toFixed(2)} MXN${rate.source === 'banxico' ? ' (Banxico)' : ''}`;
    case 'unknown':
      return RATE_UNKNOWN;
    default:
      return null;
  }
}
