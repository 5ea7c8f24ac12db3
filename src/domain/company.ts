// The company tier's rules (spec §3 Collaborator, Area, Refund account type, Per-diem event;
// §5 'Collaborator (new)', refund account formats, departments, per-diem; §9 blocks 3-3-11-1).
// One home for them: the company screens check as the user types, the server checks again.
import { isValidEmail, normalizeEmail } from './email';
import { MSG } from './messages';

/** Refund account types (spec §5): 1 = CLABE (also when none is chosen), 2 = card number, 3 = Mexican phone. */
export const REFUND_ACCOUNT_TYPES = [
  { id: 1, account_type: 'CLABE interbancaria' },
  { id: 2, account_type: 'Número de tarjeta' },
  { id: 3, account_type: 'Número de celular' },
] as const;
export type RefundAccountTypeId = (typeof REFUND_ACCOUNT_TYPES)[number]['id'];

/** Names: trimmed, inner spaces collapsed, every word capitalised ('maría  josé' → 'María José'). */
export function capitalizeWords(raw: string): string {
  return raw
    .trim()
    .toLocaleLowerCase('es-MX')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toLocaleUpperCase('es-MX') + w.slice(1))
    .join(' ');
}

/** A department's name (spec §5): trimmed, lowercased, then capitalised; '' = ignored. */
export function normalizeDepartment(raw: string): string {
  const s = raw.trim().replace(/\s+/g, ' ').toLocaleLowerCase('es-MX');
  return s ? s.charAt(0).toLocaleUpperCase('es-MX') + s.slice(1) : '';
}

const digitsOf = (raw: string) => raw.replace(/\D/g, '');

// ── CLABE (18 digits: bank 3, branch 3, account 11, check 1) ──
const CLABE_WEIGHTS = [3, 7, 1] as const;

/** Banxico's CLABE check digit of the first 17 digits. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * CLABE_WEIGHTS[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

export function isValidClabe(raw: string): boolean {
  const d = digitsOf(raw);
  return /^\d{18}$/.test(raw.replace(/\s/g, '')) && clabeCheckDigit(d.slice(0, 17)) === Number(d[17]);
}

/** Card numbers (13–19 digits) pass the Luhn check. */
export function isValidCardNumber(raw: string): boolean {
  const d = raw.replace(/\s/g, '');
  if (!/^\d{13,19}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** A Mexican phone: 10 digits, optionally written with +52 / 52 in front. */
export function isValidMexicanPhone(raw: string): boolean {
  const d = digitsOf(raw);
  const national = d.length === 12 && d.startsWith('52') ? d.slice(2) : d;
  return /^[1-9]\d{9}$/.test(national) && /^[\d\s()+-]+$/.test(raw.trim());
}

/** How the refund account is shown and stored, by type (spec §5/§9): CLABE in blocks 3 3 11 1. */
export function formatRefundAccount(type: number | null, raw: string): string {
  const d = digitsOf(raw);
  if (type === 2) return d.replace(/(\d{4})(?=\d)/g, '$1 ');
  if (type === 3) {
    const n = d.length === 12 && d.startsWith('52') ? d.slice(2) : d;
    return n.length === 10 ? `${n.slice(0, 2)} ${n.slice(2, 6)} ${n.slice(6)}` : n;
  }
  const parts = [d.slice(0, 3), d.slice(3, 6), d.slice(6, 17), d.slice(17, 18)].filter(Boolean);
  return parts.join(' ');
}

/** The refund account's check for its type; null = fine. */
export function checkRefundAccount(type: number | null, raw: string): string | null {
  if (!raw.trim()) return MSG.refundAccountRequired;
  const ok = type === 2 ? isValidCardNumber(raw) : type === 3 ? isValidMexicanPhone(raw) : isValidClabe(raw);
  if (ok) return null;
  return type === 2 ? MSG.refundCardInvalid : type === 3 ? MSG.refundPhoneInvalid : MSG.clabeInvalid;
}

// ── Collaborators ──
export interface CollaboratorInput {
  email: string;
  first_name: string;
  last_name: string;
  area_id: number | null;
  corporate_card: string;
  account_type_for_refunds_id: number | null;
  account_for_refunds: string;
  authorizer_id: number | null;
}

/** Spec §5 'Collaborator (new)', in its order; then our format checks. null = fine. */
export function checkNewCollaborator(c: CollaboratorInput): string | null {
  if (!c.email.trim()) return MSG.collaboratorEmailRequired;
  if (!c.first_name.trim()) return MSG.collaboratorFirstNameRequired;
  if (!c.last_name.trim()) return MSG.collaboratorLastNameRequired;
  if (c.area_id === null) return MSG.collaboratorAreaRequired;
  if (c.corporate_card.trim().length <= 3) return MSG.collaboratorCardRequired;
  if (c.account_type_for_refunds_id === null) return MSG.collaboratorAccountTypeRequired;
  if (!c.account_for_refunds.trim()) return MSG.refundAccountRequired;
  if (!isValidEmail(c.email)) return MSG.emailInvalid;
  if (!/^\d{4}$/.test(c.corporate_card.trim())) return MSG.corporateCardDigits;
  return checkRefundAccount(c.account_type_for_refunds_id, c.account_for_refunds);
}

/** Spec §5 'Edit': first name, last name and department required, same messages. */
export function checkEditedCollaborator(c: Pick<CollaboratorInput, 'first_name' | 'last_name' | 'area_id'>): string | null {
  if (!c.first_name.trim()) return MSG.collaboratorFirstNameRequired;
  if (!c.last_name.trim()) return MSG.collaboratorLastNameRequired;
  if (c.area_id === null) return MSG.collaboratorAreaRequired;
  return null;
}

/** What is stored: e-mail lowercased and trimmed, names capitalised, the refund account formatted. */
export function normalizeCollaborator(c: CollaboratorInput): CollaboratorInput {
  return {
    ...c,
    email: normalizeEmail(c.email),
    first_name: capitalizeWords(c.first_name),
    last_name: capitalizeWords(c.last_name),
    corporate_card: c.corporate_card.trim(),
    account_for_refunds: formatRefundAccount(c.account_type_for_refunds_id, c.account_for_refunds),
  };
}

// ── Per-diem events (viáticos) ──
export type PerDiemStatus = 'open' | 'approved' | 'closed';

export interface PerDiemInput {
  event_name: string;
  start_date: string; // yyyy-mm-dd
  end_date: string; // yyyy-mm-dd
  area_id: number | null;
  deposit: string;
  notes: string;
}

/** Spec §5: deposit numeric and required; start date today or later (Mexico City's today). */
export function checkPerDiem(e: PerDiemInput, today: string): string | null {
  if (!e.event_name.trim()) return MSG.perDiemNameRequired;
  if (!e.deposit.trim()) return MSG.perDiemDepositRequired;
  if (!/^\d+(\.\d{1,2})?$/.test(e.deposit.trim()) || Number(e.deposit) <= 0) return MSG.perDiemDepositNumeric;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(e.start_date)) return MSG.perDiemStartRequired;
  if (e.start_date < today) return MSG.perDiemStartPast;
  if (e.end_date && (!/^\d{4}-\d{2}-\d{2}$/.test(e.end_date) || e.end_date < e.start_date)) return MSG.perDiemEndBeforeStart;
  return null;
}

/** 'Aprobar' moves open → approved; 'Cerrar evento' approved → closed. */
export function nextPerDiemStatus(from: PerDiemStatus, action: 'approve' | 'close'): PerDiemStatus | null {
  if (action === 'approve') return from === 'open' ? 'approved' : null;
  return from === 'approved' ? 'closed' : null;
}

/** Tickets with no department are grouped as 'Otros' in the company view (spec §9). */
export const NO_DEPARTMENT = 'Otros';

// ── HTTP contract of the company screens. The company is a tax account (client) with a
// 12-character RFC; its owner is the manager. Paths carry the company's diverza_client_id. ──

/** Spec §3 Area. GET/POST /api/v3/clients/{client_id}/areas.json ({area}); DELETE …/areas/{area_id}.json. */
export interface Area {
  id: number;
  area: string;
}

/** Spec §3 Refund account type. GET /api/v3/refund_account_types.json → REFUND_ACCOUNT_TYPES. */
export interface RefundAccountType {
  id: number;
  account_type: string;
}

/** 'invitado' until the invitation is accepted; 'activo' after; 'inactivo' when the company removes access. */
export type CollaboratorStatus = 'invitado' | 'activo' | 'inactivo';

/**
 * Spec §3 Collaborator. GET /api/v3/clients/{client_id}/collaborators.json; POST the same with
 * {invitation: CollaboratorInput, email_text, company_name} (sends the invitation e-mail);
 * PUT …/collaborators/{id}.json {invitation: Partial<CollaboratorInput>}; DELETE …/collaborators/{id}.json.
 * Billing: 89 MXN/month per 'activo' collaborator (spec §9; src/server/plans/renewals.ts).
 */
export interface Collaborator {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  area: string | null;
  area_id: number | null;
  status: CollaboratorStatus;
  corporate_card: string;
  account_type_for_refunds_id: number | null;
  account_for_refunds: string;
  authorizer_id: number | null;
  /** The RFC the collaborator accepted the invitation with (null while 'invitado'). */
  rfc: string | null;
}

/** Join links live this long; a token works once (spec §8 invalid-token message otherwise). */
export const INVITATION_TTL_DAYS = 14;

/**
 * Spec §3 Invitation. GET /api/v3/invitations/{token}.json (no session needed) → this, or 404 with
 * MSG.invalidPageToken. Accept: PUT /api/v3/invitations/{token}/accept.json {rfc} with a session;
 * sign up: PUT /api/v3/invitations/{token}/sign_up.json {user, client, ubication_data} (creates the
 * user and the tax client, accepts, answers the session).
 */
export interface Invitation {
  email: string;
  registered: boolean;
  company_name: string;
  host: {
    first_name: string | null;
    last_name: string | null;
    rfc: string;
    name: string | null;
    address: { street: string; external_number: string; internal_number: string; neighborhood: string; city: string; state: string; country: string; zip_code: string };
  };
}

/**
 * Company expense view (spec §2, §7 'Company tickets'/'Company stats'):
 * GET /tickets/colaborators?usuario[rfc_owner]=…&date[year]=…&date[month]=…&action=company-view-tickets
 * → the collaborators' type-2 tickets of the month (Ticket of src/domain/ticket.ts, with user_area and
 * username); GET /tickets/colaborator_stats?…&action=company-view-stats → CompanyStats;
 * PUT /tickets/mark_as_paid {tickets:[ids]} / PUT /tickets/mark_as_rejected {tickets:[ids], reason}
 * (manager only; tickets of another company → 404) → MSG.ticketsApproved / MSG.ticketsRejected.
 */
export interface CompanyStats {
  /** Approved spending per month of the year (1–12). */
  monthly: { month: string; sum: number }[];
  /** Approved spending per department of the month; no department → NO_DEPARTMENT. */
  departments: { label: string; value: number }[];
  categories: { label: string; value: number }[];
  venues: { label: string; value: number }[];
}

/** Rejections carry a reason the collaborator sees on the ticket. */
export const REJECTION_REASON_MAX = 500;

/**
 * Per-diem events (spec §3; ours: stored on the server). GET/POST /api/v3/clients/{client_id}/per_diem_events.json;
 * POST …/per_diem_events/{id}/approve.json and …/close.json. Gated by Viaticos.
 */
export interface PerDiemEvent {
  id: number;
  status: PerDiemStatus;
  start_date: string;
  end_date: string;
  area: string | null;
  username: string | null;
  event_name: string;
  deposit: number;
  /** Approved spending of the event's tickets (those of its collaborators between its dates). */
  authorized_spending: number;
  spending_pending_of_authorization_: number;
  notes: string;
}

/**
 * What the per-diem endpoints answer (src/server/per-diem): PerDiemEvent plus the ids the
 * form chose and, once closed, the totals frozen at closing: authorised = the deposit, spent = the event's
 * approved and pending spending then.
 */
export interface PerDiemEventDetail extends PerDiemEvent {
  area_id: number | null;
  collaborator_id: number | null;
  authorized_total: number | null;
  spent_total: number | null;
  closed_at: string | null;
}

/** GET …/per_diem_events/options.json: the choices of 'Nuevo evento' (any plan with Viaticos). */
export interface PerDiemOptions {
  areas: Area[];
  collaborators: { id: number; name: string; area_id: number | null }[];
}

/** GET /api/v3/collaborations.json: a company the caller works for as a collaborator. */
export interface Collaboration {
  /** The company's legal name (its RFC when it has none). */
  company_name: string;
  company_rfc: string;
  /** The caller's tax account the company reads (spec §6). */
  rfc: string;
  /** '' without a department. */
  area: string;
  /** Who approves the spending ('' when the company has named nobody). */
  authorizer: string;
  /** When the invitation was accepted (ISO 8601), null for rows from before that was recorded. */
  since: string | null;
}
