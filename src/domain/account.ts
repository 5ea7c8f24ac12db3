// A tax account ("razón social") as the API returns it (spec §3 Account).
import { RFC_COMPANY_LENGTH, RFC_FOREIGN, type PersonType } from './rfc';
import type { RfcVerifiedBy } from './rfc-verification';

export interface AccountAddress {
  street: string;
  external_number: string;
  internal_number: string;
  neighborhood: string;
  city: string;
  state: string;
  country: string;
  zip_code: string;
}

export interface PaymentHistoryItem {
  id: string;
  plan_id: number;
  timestamp: string;
  amount: number;
  successful: boolean;
  card_brand: string | null;
  card_last4: string | null;
}

export interface Account {
  diverza_client_id: number;
  rfc: string;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  plan_id: number;
  subscription_id: number | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  active_until: string | null;
  payment_history: PaymentHistoryItem[];
  ciec: boolean;
  synchronized_at: string | null;
  num_reg_id_trib: string | null;
  residencia_fiscal: string | null;
  /** Régimen fiscal code ('' = not given yet): CFDI 4.0's RegimenFiscalReceptor (ours). */
  regimen_fiscal: string;
  address: AccountAddress[];
  /** Whether its holder proved they hold the RFC (e.firma or SAT): needed to act for a company or pull others' CFDI (ours). */
  rfc_verified: boolean;
  rfc_verified_by: RfcVerifiedBy | null;
}

export function accountType(a: Pick<Account, 'rfc'>): PersonType {
  if (a.rfc === RFC_FOREIGN) return 'extranjero';
  return a.rfc.length === RFC_COMPANY_LENGTH ? 'empresa' : 'persona';
}

/** How an account is named in menus: razón social, or first and last name. */
export function accountDisplayName(a: Pick<Account, 'name' | 'first_name' | 'last_name' | 'rfc'>): string {
  const person = [a.first_name, a.last_name].filter(Boolean).join(' ').trim();
  return (a.name && a.name.trim()) || person || a.rfc;
}
