// What invoicing needs from the merchant side (src/server/merchants, src/server/rfc): the issuer's data,
// its CSD, the ticket matcher and the RFC check, behind these few names.
import type { Db } from '../db/client';
import { merchantById, merchantCsd, type MerchantIssuer } from '../merchants/csd';
import type { MerchantTicketRow } from '../merchants/merchant-tickets';
import { findMerchantTicket, type FindResult, type TicketLookup } from '../merchants/verify';

export type Issuer = MerchantIssuer;
export type { FindResult, MerchantTicketRow, TicketLookup };

export const issuerOf = (db: Db, companyId: number): Promise<Issuer | null> => merchantById(db, companyId);
export const csdOf = (db: Db, issuer: Issuer) => merchantCsd(db, issuer.id);
export const matchTicket = findMerchantTicket;

/** Shape and check digit, then SAT's lists of RFCs that cannot receive invoices (src/server/rfc). */
export { checkRfcActive as rfcStatus } from '../rfc/rfc-check';
