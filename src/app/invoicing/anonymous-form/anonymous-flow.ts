// Anonymous form (spec §4 'Anonymous flow'): ticket fields → verify → already invoiced (modal: reprint,
// resend, refacturar) or the receiver stage → RFC active check → invoice → fields cleared, stage hidden.
import { RFC_FOREIGN } from '../../../domain/rfc';
import type { ReceiverField, ReceiverForm } from '../../../domain/invoicing';
import type { FieldValue } from '../../../domain/merchant-fields';
import type { RefacturaProof, VerifiedTicket } from '../../api/invoicing';

/** `values`: what the ticket was verified with, kept because refacturar must show it again. */
export type AnonymousStage =
  | { stage: 'ticket'; busy: boolean }
  | { stage: 'invoiced'; ticket: VerifiedTicket; values: readonly FieldValue[]; busy: boolean }
  | { stage: 'receiver'; ticket: VerifiedTicket; values: readonly FieldValue[]; refactura: boolean; busy: boolean };

export type AnonymousAction =
  | { type: 'verify' }
  | { type: 'verified'; ticket: VerifiedTicket; values?: readonly FieldValue[] }
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
        ? { stage: 'invoiced', ticket: a.ticket, values: a.values ?? [], busy: false }
        : { stage: 'receiver', ticket: a.ticket, values: a.values ?? [], refactura: false, busy: false };
    case 'refacturar':
      return s.stage === 'invoiced' ? { stage: 'receiver', ticket: s.ticket, values: s.values, refactura: true, busy: false } : s;
    case 'busy':
      return { ...s, busy: true };
    case 'idle':
      return { ...s, busy: false };
    case 'done':
    case 'cancel':
      return initialAnonymous;
  }
}

/**
 * Refacturar proves the ticket beyond its ref: the check code printed on it (as its QR carries it), its
 * total, and the form values it was verified with. Signed in, the session goes with it and must be the
 * invoice owner's.
 */
export function refacturaProof(values: readonly FieldValue[], ticket: Pick<VerifiedTicket, 'total'>, check: string): RefacturaProof {
  return {
    refactura: 1,
    check: check.trim().toUpperCase(),
    total: ticket.total,
    ticket: values.map((v) => ({ form_configuration_id: v.form_configuration_id, value: v.value })),
  };
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
