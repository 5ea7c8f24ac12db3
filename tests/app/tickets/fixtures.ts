import type { Ticket } from '../../../src/domain/ticket';

export function ticket(over: Partial<Ticket> = {}): Ticket {
  return {
    ticket_id: over.ticket_id ?? '019a0000-0000-7000-8000-000000000001',
    ticket_type_id: 2,
    ticket_status_name: 'no facturable',
    received_at: '2026-11-20T12:00:00-06:00',
    company_short_name: 'manual',
    ticket_number: '',
    amount: '120.50',
    tags: [{ tag_id: 1, tag_name: 'Alimentos y bebidas' }],
    income_meta_tag_id: null,
    note: '',
    include_ticket_image: false,
    ticket_image_text: '',
    user_area: '',
    username: 'demo',
    receipt: null,
    rfc: 'LOVA850101AB1',
    ...over,
  };
}

export const receipt = {
  receipt_id: 'r-1',
  rfc_issuer: 'OXX970814HS9',
  name_issuer: 'OXXO',
  rfc_receiver: 'LOVA850101AB1',
  emission_date: '2026-11-20',
  uuid: 'ABC',
  imp_tras: '16.00',
  imp_ret: '0.00',
  metodo_pago: 'PUE',
  numctapago: '',
};
