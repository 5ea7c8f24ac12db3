// What invoicing needs from the merchant side (src/server/merchants, src/server/rfc): the issuer's data,
// its CSD, the ticket matcher, a ticket's conceptos, the masked e-mail and the RFC check, behind these few
// names. The one place invoicing reaches into those areas: the lint configuration lists it as pending.
import type { Db } from '../db/client';
import { merchantById, merchantCsd, type MerchantIssuer } from '../merchants/csd';
import { ticketConceptos, type MerchantTicketRow } from '../merchants/merchant-tickets';
import { findMerchantTicket, maskEmail, type FindResult, type TicketLookup } from '../merchants/verify';

export type Issuer = MerchantIssuer;
export type { FindResult, MerchantTicketRow, TicketLookup };

export const issuerOf = (db: Db, companyId: number): Promise<Issuer | null> => merchantById(db, companyId);
export const csdOf = (db: Db, issuer: Issuer) => merchantCsd(db, issuer.id);
export const matchTicket = findMerchantTicket;
export { maskEmail, ticketConceptos };

/** Shape and check digit, then SAT's lists of RFCs that cannot receive invoices (src/server/rfc). */
export { checkRfcActive as rfcStatus } from '../rfc/rfc-check';
