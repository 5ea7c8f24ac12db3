// A clients row as the Account of spec §3 (src/domain/account.ts), the shape every client reads.
import { desc, inArray } from 'drizzle-orm';
import type { Account, PaymentHistoryItem } from '../../domain/account';
import type { OAuthProfile } from '../../domain/oauth';
import type { Db } from '../db/client';
import { payments, type clients } from '../db/schema';

export type ClientRow = typeof clients.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** payment_history is filled by withPaymentHistory (one query for all of a user's accounts). */
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
    rfc_verified: r.rfcVerifiedAt !== null,
    rfc_verified_by: r.rfcVerifiedAt !== null && (r.rfcVerifiedBy === 'efirma' || r.rfcVerifiedBy === 'sat') ? r.rfcVerifiedBy : null,
  };
}

/** Every charge attempt of these accounts (spec §3 Payment history item), newest first, in one query. */
export async function paymentHistories(db: Db, clientIds: readonly number[]): Promise<Map<number, PaymentHistoryItem[]>> {
  const out = new Map<number, PaymentHistoryItem[]>();
  if (clientIds.length === 0) return out;
  const rows = await db
    .select()
    .from(payments)
    .where(inArray(payments.clientId, [...clientIds]))
    .orderBy(desc(payments.createdAt), desc(payments.id));
  for (const p of rows) {
    const list = out.get(p.clientId) ?? [];
    list.push({
      id: p.id,
      plan_id: p.planId,
      timestamp: p.createdAt.toISOString(),
      amount: Number(p.amount),
      successful: p.successful,
      card_brand: p.cardBrand,
      card_last4: p.cardLast4,
    });
    out.set(p.clientId, list);
  }
  return out;
}

/** Accounts with their payment history filled (what GET /user_clients answers). */
export async function withPaymentHistory(db: Db, accounts: Account[]): Promise<Account[]> {
  const histories = await paymentHistories(
    db,
    accounts.map((a) => a.diverza_client_id),
  );
  return accounts.map((a) => ({ ...a, payment_history: histories.get(a.diverza_client_id) ?? [] }));
}

/** What another party may read of a user (an OAuth app, the company they joined): name, e-mail and one account's tax data — never passwords (domain/oauth.ts OAuthProfile). */
export function sharedProfile(user: { username: string; email: string }, client: ClientRow): OAuthProfile {
  const a = toAccount(client);
  return {
    user: { username: user.username, email: user.email },
    account: {
      rfc: a.rfc,
      name: a.name,
      first_name: a.first_name,
      last_name: a.last_name,
      regimen_fiscal: a.regimen_fiscal,
      address: a.address,
      residencia_fiscal: a.residencia_fiscal,
      num_reg_id_trib: a.num_reg_id_trib,
    },
  };
}
