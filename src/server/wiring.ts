// What a feature needs of another, handed over by the composition root (features never import each
// other, DESIGN §1): app.ts, main.ts and the tests that build those pieces take it from here.
import type { MerchantSide } from './invoicing/ports';
import { DEMO_MERCHANT_REGIME, MERCHANT_CATALOG } from './merchants/catalog';
import { merchantById, merchantCsd } from './merchants/csd';
import { findMerchantTicket } from './merchants/verify';
import { checkRfcActive } from './rfc/rfc-check';
import type { DemoIssuer } from './sat-sync/simulated-portal';

/** Invoicing's view of the merchants and of the RFC check (invoicing/ports.ts). */
export const merchantSide: MerchantSide = {
  issuerOf: merchantById,
  csdOf: merchantCsd,
  matchTicket: findMerchantTicket,
  rfcStatus: checkRfcActive,
};

/** The demo merchants the simulated SAT portal's received CFDI come from. */
export const demoMerchants: readonly DemoIssuer[] = MERCHANT_CATALOG.map((m) => ({ legalName: m.legalName, postalCode: m.postalCode, taxRegime: DEMO_MERCHANT_REGIME }));
