// Merchant form definitions and a verified ticket for the invoice-form tests.
import type { FormFieldDefinition } from '../../../src/domain/merchant-fields';
import type { VerifiedTicket } from '../../../src/app/api/invoicing';

const f = (id: number, name: string, type: number, extra: Partial<FormFieldDefinition> = {}): FormFieldDefinition => ({
  form_configuration_id: id, field_name: name, form_field_type_id: type, min_length: null, helper_image: null, options: [], ...extra,
});

export const FIELDS: FormFieldDefinition[] = [
  f(1, 'Número de ticket', 1, { helper_image: '/merchants/help/ticket.png' }),
  f(2, 'Folio', 2, { min_length: 6 }),
  f(3, 'Fecha', 4),
  f(4, 'Referencia de pago', 7),
  f(5, 'Sucursal', 8, { options: [{ option_id: 11, option_title: 'Centro' }, { option_id: 12, option_title: 'Valle' }] }),
  f(6, 'Importe', 9),
  f(7, 'Los datos vienen al pie de tu ticket', 11),
  f(8, 'XXX', 6),
];

export const TODAY = '2026/11/22';

export const ticket = (over: Partial<VerifiedTicket> = {}): VerifiedTicket => ({
  ref: 'ABCD1234EFGH5678',
  ticket_number: '100234',
  venue: 'Centro',
  issued_at: '2026-11-20T13:05:00-06:00',
  subtotal: '100.00',
  tax: '16.00',
  total: '116.00',
  forma_pago: '04',
  invoiced: false,
  invoice: null,
  ...over,
});
