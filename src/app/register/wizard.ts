// The four steps of registration (spec §2) and their checks, in the spec's order (§5).
import { MSG } from '../../domain/messages';
import { checkAccountStep, checkEmailStep } from '../../domain/registration';
import { isValidEmail } from '../../domain/email';
import { checkTaxDraft, EMPTY_TAX_DRAFT, type TaxDraft, type TaxField } from '../tax-data/tax-draft';

export type StepId = 'account' | 'email' | 'tax' | 'confirm';

export const STEPS: readonly { id: StepId; label: string }[] = [
  { id: 'account', label: 'Cuenta' },
  { id: 'email', label: 'Correo' },
  { id: 'tax', label: 'Datos fiscales' },
  { id: 'confirm', label: 'Confirmación' },
];

export interface RegisterForm {
  username: string;
  password: string;
  passwordConfirmation: string;
  email: string;
  emailConfirmation: string;
  tax: TaxDraft;
}

export const EMPTY_REGISTER_FORM: RegisterForm = {
  username: '',
  password: '',
  passwordConfirmation: '',
  email: '',
  emailConfirmation: '',
  tax: EMPTY_TAX_DRAFT,
};

export type FieldName = 'username' | 'password' | 'passwordConfirmation' | 'email' | 'emailConfirmation' | TaxField;

export interface StepProblem {
  step: StepId;
  field: FieldName;
  message: string;
}

function accountProblem(f: RegisterForm): StepProblem | null {
  const message = checkAccountStep({ username: f.username, password: f.password, confirmation: f.passwordConfirmation });
  if (!message) return null;
  let field: FieldName;
  switch (message) {
    case MSG.accountEmpty:
      field = f.username.trim() ? 'password' : 'username';
      break;
    case MSG.passwordsDiffer:
      field = 'passwordConfirmation';
      break;
    case MSG.usernameShort:
    case MSG.usernameLong:
      field = 'username';
      break;
    default:
      field = 'password';
  }
  return { step: 'account', field, message };
}

function emailProblem(f: RegisterForm): StepProblem | null {
  const message = checkEmailStep({ email: f.email, confirmation: f.emailConfirmation });
  if (!message) return null;
  return { step: 'email', field: isValidEmail(f.email) ? 'emailConfirmation' : 'email', message };
}

function taxProblem(f: RegisterForm): StepProblem | null {
  const p = checkTaxDraft(f.tax);
  return p ? { step: 'tax', ...p } : null;
}

/** The first problem of one step; the confirmation step re-checks all of them. */
export function validateStep(step: StepId, form: RegisterForm): StepProblem | null {
  switch (step) {
    case 'account':
      return accountProblem(form);
    case 'email':
      return emailProblem(form);
    case 'tax':
      return taxProblem(form);
    case 'confirm':
      return accountProblem(form) ?? emailProblem(form) ?? taxProblem(form);
  }
}

export function stepIndex(step: StepId): number {
  return STEPS.findIndex((s) => s.id === step);
}
