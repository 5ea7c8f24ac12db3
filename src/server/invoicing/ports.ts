// What invoicing needs from the merchant side (the issuer's data, its CSD, the ticket matcher) and from
// the RFC check: one interface the composition root fills in (src/server/wiring.ts), so invoicing
// imports neither area.
import type { MerchantIssuer } from '../cfdi/issuer';
import type { Csd } from '../cfdi/seal';
import type { Db } from '../db/client';
import type { merchantTickets } from '../db/schema';

export type MerchantTicketRow = typeof merchantTickets.$inferSelect;

/** The merchant as the CFDI's Emisor. */
export type Issuer = MerchantIssuer;

/** Which form typed values come from: it decides which of the merchant's fields they must fill. */
export type TicketFlow = 'form' | 'merchant' | 'anonymous' | 'multi';

/** A ticket as a person designates it: values typed in the merchant's form, or a scanned QR's three facts. */
export type TicketLookup =
  | { values: ReadonlyMap<number, string> | Readonly<Record<string, string>>; flow?: TicketFlow }
  | { ref: string; check: string; total: string };

export type FindResult =
  | { ok: true; ticket: MerchantTicketRow }
  /** A value breaks its field's rule: the Spanish message to show. */
  | { ok: false; status: 422; message: string; form_configuration_id?: number }
  /** No such ticket for this merchant (the caller picks the message of its flow). */
  | { ok: false; status: 404 };

export interface MerchantSide {
  /** The merchant with that company id, or null. */
  issuerOf(db: Db, companyId: number): Promise<Issuer | null>;
  /** The merchant's CSD, ready to seal. */
  csdOf(db: Db, companyId: number): Promise<Csd>;
  /** The ticket of that merchant the lookup designates; `now` fixes "today" for the date rule. */
  matchTicket(db: Db, companyId: number, lookup: TicketLookup, now: Date): Promise<FindResult>;
  /** Shape and check digit, then SAT's lists of RFCs that cannot receive invoices. */
  rfcStatus(db: Db, rfc: string): Promise<'ok' | 'invalid' | 'inactive'>;
}
