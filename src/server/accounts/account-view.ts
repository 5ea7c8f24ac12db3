// A clients row as the Account of spec §3 (src/domain/account.ts), the shape every client reads.
import type { Account } from '../../domain/account';
import type { clients } from '../db/schema';

export type ClientRow = typeof clients.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toAccount(r: ClientRow): Account {
  return {
    diverza_client_id: r.id,
    rfc: r.rfc,
    name: r.name,
    first_name: r.firstName,
    last_name: r.lastName,
    plan_id: r.planId,
    subscription_id: r.subscriptionId,
    card_brand: r.cardBrand,
    card_last4: r.cardLast4,
    card_exp_month: r.cardExpMonth,
    card_exp_year: r.cardExpYear,
    active_until: iso(r.activeUntil),
    payment_history: [],
    ciec: r.ciec,
    synchronized_at: iso(r.synchronizedAt),
    num_reg_id_trib: r.numRegIdTrib,
    residencia_fiscal: r.residenciaFiscal,
    regimen_fiscal: r.taxRegime,
    address: [
      {
        street: r.street,
        external_number: r.externalNumber,
        internal_number: r.internalNumber,
        neighborhood: r.neighborhood,
        city: r.city,
        state: r.state,
        country: r.country,
        zip_code: r.zipCode,
      },
    ],
  };
}
