// Test accounts shaped like the API's (spec §3 Account).
import type { Account } from '../../src/domain/account';

export function account(id: number, rfc: string, name: string | null = 'Empresa'): Account {
  return {
    diverza_client_id: id,
    rfc,
    name,
    first_name: null,
    last_name: null,
    plan_id: 1,
    subscription_id: null,
    card_brand: null,
    card_last4: null,
    card_exp_month: null,
    card_exp_year: null,
    active_until: null,
    payment_history: [],
    ciec: false,
    synchronized_at: null,
    num_reg_id_trib: null,
    residencia_fiscal: null,
    regimen_fiscal: '',
    address: [],
    rfc_verified: false,
    rfc_verified_by: null,
  };
}
