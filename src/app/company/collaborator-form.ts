// The 'Nuevo colaborador' / 'Editar' form as pure functions: the draft the inputs edit, the refund
// account formatted by its type as the user types, the spec's checks (domain/company.ts) in their order
// with the field each message belongs to, and the request body.
import {
  checkEditedCollaborator,
  checkNewCollaborator,
  checkRefundAccount,
  formatRefundAccount,
  type Collaborator,
  type CollaboratorInput,
} from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { FieldProblem } from '../ui/use-field-problem';

export interface CollaboratorDraft {
  email: string;
  first_name: string;
  last_name: string;
  /** Select values: '' = none chosen. */
  area_id: string;
  corporate_card: string;
  account_type_for_refunds_id: string;
  account_for_refunds: string;
  authorizer_id: string;
}

export type CollaboratorField = keyof CollaboratorDraft;

export const EMPTY_COLLABORATOR: CollaboratorDraft = {
  email: '',
  first_name: '',
  last_name: '',
  area_id: '',
  corporate_card: '',
  account_type_for_refunds_id: '',
  account_for_refunds: '',
  authorizer_id: '',
};

export function draftOf(c: Collaborator): CollaboratorDraft {
  return {
    email: c.email,
    first_name: c.first_name,
    last_name: c.last_name,
    area_id: c.area_id === null ? '' : String(c.area_id),
    corporate_card: c.corporate_card,
    account_type_for_refunds_id: c.account_type_for_refunds_id === null ? '' : String(c.account_type_for_refunds_id),
    account_for_refunds: c.account_for_refunds,
    authorizer_id: c.authorizer_id === null ? '' : String(c.authorizer_id),
  };
}

const idOrNull = (s: string) => (s === '' ? null : Number(s));

export function toInput(d: CollaboratorDraft): CollaboratorInput {
  return {
    email: d.email,
    first_name: d.first_name,
    last_name: d.last_name,
    area_id: idOrNull(d.area_id),
    corporate_card: d.corporate_card,
    account_type_for_refunds_id: idOrNull(d.account_type_for_refunds_id),
    account_for_refunds: d.account_for_refunds,
    authorizer_id: idOrNull(d.authorizer_id),
  };
}

/** Digits a refund account of this type may have (CLABE 18, card 19, phone 10 or +52 and 10). */
const MAX_DIGITS: Record<number, number> = { 1: 18, 2: 19, 3: 12 };

/** What the refund input shows after a keystroke: only digits, capped, grouped for its type. */
export function typedRefundAccount(type: string, raw: string): string {
  const t = type === '' ? null : Number(type);
  const digits = raw.replace(/\D/g, '').slice(0, MAX_DIGITS[t ?? 1] ?? 18);
  return formatRefundAccount(t, digits);
}

/** The corporate card input keeps its last 4 digits only. */
export const typedCorporateCard = (raw: string) => raw.replace(/\D/g, '').slice(0, 4);

/** The input a check's message points at. */
const FIELD_OF: Record<string, CollaboratorField> = {
  [MSG.collaboratorEmailRequired]: 'email',
  [MSG.emailInvalid]: 'email',
  [MSG.duplicatesSkipped]: 'email',
  [MSG.collaboratorFirstNameRequired]: 'first_name',
  [MSG.collaboratorLastNameRequired]: 'last_name',
  [MSG.collaboratorAreaRequired]: 'area_id',
  [MSG.collaboratorCardRequired]: 'corporate_card',
  [MSG.corporateCardDigits]: 'corporate_card',
  [MSG.collaboratorAccountTypeRequired]: 'account_type_for_refunds_id',
  [MSG.refundAccountRequired]: 'account_for_refunds',
  [MSG.clabeInvalid]: 'account_for_refunds',
  [MSG.refundCardInvalid]: 'account_for_refunds',
  [MSG.refundPhoneInvalid]: 'account_for_refunds',
  [MSG.collaboratorAuthorizerInvalid]: 'authorizer_id',
};

export function fieldOf(message: string): CollaboratorField | null {
  return FIELD_OF[message] ?? null;
}

export type FormProblem = FieldProblem<CollaboratorField>;

/** The first failing check for a new collaborator, or for an edit (spec §5 'Edit' plus the formats). */
export function checkDraft(d: CollaboratorDraft, mode: 'new' | 'edit'): FormProblem | null {
  const input = toInput(d);
  let message: string | null;
  if (mode === 'new') message = checkNewCollaborator(input);
  else {
    message = checkEditedCollaborator(input);
    if (!message && d.corporate_card.trim() && !/^\d{4}$/.test(d.corporate_card.trim())) message = MSG.corporateCardDigits;
    if (!message && d.account_for_refunds.trim()) message = checkRefundAccount(input.account_type_for_refunds_id, d.account_for_refunds);
  }
  return message ? { field: fieldOf(message), message } : null;
}

/** PUT's body: everything but the e-mail (it names the invitation). */
export function editBody(d: CollaboratorDraft) {
  const { email: _email, ...rest } = toInput(d);
  return rest;
}
