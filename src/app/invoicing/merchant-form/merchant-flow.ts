// Merchant form (spec §4 'Merchant invoice request'): step 1 verifies the ticket, step 2 shows the
// receiver's RFC and e-mail and sends the invoice; success clears the form.
import type { VerifiedTicket } from '../../api/invoicing';

export type MerchantStep =
  | { step: 'ticket'; busy: boolean }
  | { step: 'receiver'; ticket: VerifiedTicket; busy: boolean };

export type MerchantAction =
  | { type: 'verify' }
  | { type: 'verified'; ticket: VerifiedTicket }
  | { type: 'send' }
  | { type: 'failed' }
  | { type: 'done' }
  | { type: 'back' };

export const initialMerchantStep: MerchantStep = { step: 'ticket', busy: false };

export function merchantReducer(s: MerchantStep, a: MerchantAction): MerchantStep {
  switch (a.type) {
    case 'verify':
      return { step: 'ticket', busy: true };
    case 'verified':
      return { step: 'receiver', ticket: a.ticket, busy: false };
    case 'send':
      return s.step === 'receiver' ? { ...s, busy: true } : s;
    case 'failed':
      return { ...s, busy: false };
    case 'done':
    case 'back':
      return initialMerchantStep;
  }
}
