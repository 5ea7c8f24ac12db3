// Anonymous form (spec §4 'Anonymous flow'): ticket fields → verify → already invoiced (modal: reprint,
// resend, refacturar) or the receiver stage → RFC active check → invoice → fields cleared, stage hidden.
import { RFC_FOREIGN } from '../../../domain/rfc';
import type { ReceiverField, ReceiverForm } from '../../../domain/invoicing';
import type { VerifiedTicket } from '../../api/invoicing';

export type AnonymousStage =
  | { stage: 'ticket'; busy: boolean }
  | { stage: 'invoiced'; ticket: VerifiedTicket; busy: boolean }
  | { stage: 'receiver'; ticket: VerifiedTicket; refactura: boolean; busy: boolean };

export type AnonymousAction =
  | { type: 'verify' }
  | { type: 'verified'; ticket: VerifiedTicket }
  | { type: 'refacturar' }
  | { type: 'busy' }
  | { type: 'idle' }
  | { type: 'done' }
  | { type: 'cancel' };

export const initialAnonymous: AnonymousStage = { stage: 'ticket', busy: false };

export function anonymousReducer(s: AnonymousStage, a: AnonymousAction): AnonymousStage {
  switch (a.type) {
    case 'verify':
      return { stage: 'ticket', busy: true };
    case 'verified':
      return a.ticket.invoiced
        ? { stage: 'invoiced', ticket: a.ticket, busy: false }
        : { stage: 'receiver', ticket: a.ticket, refactura: false, busy: false };
    case 'refacturar':
      return s.stage === 'invoiced' ? { stage: 'receiver', ticket: s.ticket, refactura: true, busy: false } : s;
    case 'busy':
      return { ...s, busy: true };
    case 'idle':
      return { ...s, busy: false };
    case 'done':
    case 'cancel':
      return initialAnonymous;
  }
}

export const emptyReceiver = (): ReceiverForm => ({
  rfc: '', rfcConfirm: '', foreign: false, nombre: '', email: '', regime: '', uso: '', postalCode: '', residenciaFiscal: '', numRegIdTrib: '',
});

/** The foreign box locks both RFC fields to the generic foreign RFC; unchecking frees them. */
export function setForeign(f: ReceiverForm, foreign: boolean): ReceiverForm {
  return foreign
    ? { ...f, foreign: true, rfc: RFC_FOREIGN, rfcConfirm: RFC_FOREIGN, regime: '616' }
    : { ...f, foreign: false, rfc: '', rfcConfirm: '', regime: '', residenciaFiscal: '', numRegIdTrib: '' };
}

/**
 * Spec §4: "If a foreign RFC is entered without foreign fields shown, they are revealed first": the
 * form switches to foreign and asks for the country before any other check.
 */
export function revealForeignFirst(f: ReceiverForm): { form: ReceiverForm; focus: ReceiverField } | null {
  if (f.foreign) return null;
  if (f.rfc.trim().toUpperCase() !== RFC_FOREIGN && f.rfcConfirm.trim().toUpperCase() !== RFC_FOREIGN) return null;
  return { form: { ...setForeign(f, true), nombre: f.nombre, email: f.email, uso: f.uso, postalCode: f.postalCode }, focus: 'residenciaFiscal' };
}
