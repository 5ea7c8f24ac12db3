// The join screen's logic (spec §2 Join, §4 'Join'): which step to show, how the host is described, and
// the sign-up checks (registration's own, in its order) before anything is sent.
import type { Invitation } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { checkAccountStep } from '../../domain/registration';
import { checkTaxDraft, type TaxDraft, type TaxField } from '../tax-data/tax-draft';

export type JoinStep = 'accept' | 'sign-in' | 'sign-up';

/** Signed in → choose an RFC and accept; a registered e-mail → sign in first; otherwise sign up. */
export function joinStep(inv: Pick<Invitation, 'registered'>, signedIn: boolean, prefer?: 'sign-in' | 'sign-up'): JoinStep {
  if (signedIn) return 'accept';
  return prefer ?? (inv.registered ? 'sign-in' : 'sign-up');
}

/** 'Razón social' for a company host, else 'Nombre Apellidos'; the RFC when neither is known. */
export function hostName(h: Invitation['host']): string {
  const person = [h.first_name, h.last_name].filter((s) => s && s.trim()).join(' ');
  return h.name?.trim() || person || h.rfc;
}

export type SignUpField = 'username' | 'password' | 'confirmation' | TaxField;

export interface SignUpDraft {
  username: string;
  password: string;
  confirmation: string;
}

/** First failing check: the account step (spec §5 registration), then the tax data. */
export function checkJoinSignUp(a: SignUpDraft, tax: TaxDraft): { field: SignUpField; message: string } | null {
  const account = checkAccountStep(a);
  if (account) {
    const field: SignUpField =
      account === MSG.usernameShort || account === MSG.usernameLong || !a.username.trim()
        ? 'username'
        : account === MSG.passwordsDiffer
          ? 'confirmation'
          : 'password';
    return { field, message: account };
  }
  return checkTaxDraft(tax);
}
