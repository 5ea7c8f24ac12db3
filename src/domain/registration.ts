// The registration checks of spec §5, each returning the first failing message in the spec's order.
// The wizard runs them step by step; the server runs the same ones on create_user and new_client.
import { MSG } from './messages';
import { normalizeUsername, usernameLengthProblem } from './username';
import { isValidEmail, normalizeEmail } from './email';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';
import { normalizeRfc, RFC_FOREIGN, rfcFitsType, type PersonType } from './rfc';
import { checkForeignReceiver, isValidPostalCode, regimesFor } from './invoicing';

export interface AccountStep {
  username: string;
  password: string;
  /** Absent on the server: the confirmation never leaves the device. */
  confirmation?: string;
}

export function checkAccountStep(a: AccountStep): string | null {
  if (!a.username.trim() || !a.password) return MSG.accountEmpty;
  if (a.confirmation !== undefined && a.password !== a.confirmation) return MSG.passwordsDiffer;
  const length = usernameLengthProblem(normalizeUsername(a.username));
  if (length === 'short') return MSG.usernameShort;
  if (length === 'long') return MSG.usernameLong;
  if (a.password.length < PASSWORD_MIN) return MSG.passwordShort;
  if (a.password.length > PASSWORD_MAX) return MSG.passwordLong;
  return null;
}

export interface EmailStep {
  email: string;
  confirmation?: string;
}

export function checkEmailStep(e: EmailStep): string | null {
  if (!isValidEmail(e.email)) return MSG.emailInvalid;
  if (e.confirmation !== undefined && normalizeEmail(e.email) !== normalizeEmail(e.confirmation)) {
    return MSG.emailInvalid;
  }
  return null;
}

export const NAME_MAX = 255;
export const TEXT_MAX = 60;

export interface TaxData {
  type: PersonType;
  rfc: string;
  /** Razón social (empresa, extranjero). */
  name?: string;
  firstName?: string;
  lastName?: string;
  /** Residencia fiscal, a c_Pais code (extranjero). */
  country?: string;
  /** Registro de identidad fiscal (NumRegIdTrib, extranjero). */
  taxId?: string;
  /** Código postal of the domicilio fiscal (CFDI 4.0 DomicilioFiscalReceptor); optional until an invoice needs it. */
  postalCode?: string;
  /** Régimen fiscal (c_RegimenFiscal); optional until an invoice needs it. */
  taxRegime?: string;
}

const filled = (s: string | undefined) => !!s && s.trim().length > 0;

export function checkTaxData(t: TaxData): string | null {
  const rfc = t.type === 'extranjero' ? RFC_FOREIGN : normalizeRfc(t.rfc);
  if (!rfcFitsType(rfc, t.type)) return MSG.rfcInvalid;
  if (t.type === 'persona' && !(filled(t.firstName) && filled(t.lastName))) return MSG.missingInfo;
  if (t.type === 'empresa' && !filled(t.name)) return MSG.missingInfo;
  if (t.type === 'extranjero' && !(filled(t.name) && filled(t.country) && filled(t.taxId))) return MSG.missingInfo;
  for (const s of [t.name, t.firstName, t.lastName]) if (s && s.trim().length > NAME_MAX) return MSG.missingInfo;
  if (t.type === 'extranjero') {
    // SAT's rules for a foreign receiver (CFDI40150/40152/40156), the same the invoice forms apply.
    const foreign = checkForeignReceiver((t.country ?? '').trim().toUpperCase(), (t.taxId ?? '').trim().toUpperCase());
    if (foreign) return foreign.message;
  }
  // Ours (CFDI 4.0 asks for both): checked when given, so registering never needs them.
  if (filled(t.postalCode) && !isValidPostalCode(t.postalCode ?? '')) return MSG.postalCodeInvalid;
  if (filled(t.taxRegime) && !regimesFor(rfc).some((r) => r.code === t.taxRegime?.trim())) return MSG.regimeInvalid;
  return null;
}

/**
 * Editing billing data: the same checks, but the código postal is required (an account without one cannot
 * receive a CFDI 4.0, so saving it empty only moves the refusal to the first invoice), and the message
 * for missing data speaks of updating, not of registering.
 */
export function checkTaxDataUpdate(t: TaxData): string | null {
  const problem = checkTaxData(t);
  if (problem) return problem === MSG.missingInfo ? MSG.missingInfoUpdate : problem;
  // Absent (undefined) = the edit leaves the stored one as it is.
  if (t.type !== 'extranjero' && t.postalCode !== undefined && !isValidPostalCode(t.postalCode)) return MSG.postalCodeInvalid;
  return null;
}
