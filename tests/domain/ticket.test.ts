import { describe, expect, it } from 'vitest';
import {
  isSelectable, receivedAtFromDate, selectAllIds, statusDisplay, statusName, ticketMonth, TICKET_STATUS, type Ticket,
} from '../../src/domain/ticket';

const base: Ticket = {
  ticket_id: '0190a0b0-0000-7000-8000-000000000001', ticket_type_id: 2, ticket_status_name: 'facturado',
  received_at: '2026-11-10T12:00:00-06:00', company_short_name: 'manual', ticket_number: '', amount: '10.00', tags: [],
  income_meta_tag_id: null, note: '', include_ticket_image: false, ticket_image_text: '', user_area: '', username: 'demo',
  receipt: null, rfc: 'XIQB891116QE4',
};
const receipt = {
  receipt_id: 'r1', rfc_issuer: 'EKU9003173C9', name_issuer: 'X', rfc_receiver: 'XIQB891116QE4', emission_date: '2026-11-10',
  uuid: 'u', imp_tras: '0', imp_ret: '0', metodo_pago: 'PUE', numctapago: '',
};

describe('ticket statuses (spec §4)', () => {
  it('shows guardado, pendiente and Interno as pending', () => {
    for (const s of ['guardado', 'pendiente', 'Interno']) expect(statusDisplay(s)).toBe('pending');
    expect(statusDisplay('facturado')).toBe('invoiced');
    expect(statusDisplay('recibido via qr')).toBe('qr');
    expect(statusDisplay('ingreso no facturable')).toBe('income-not-invoiceable');
  });
  it('sends manual spending as status 3 and income as 9', () => {
    expect(statusName(3)).toBe('no facturable');
    expect(statusName(9)).toBe('ingreso no facturable');
    expect(Object.values(TICKET_STATUS)).toHaveLength(10);
  });
});

describe('row selection (spec §4)', () => {
  it('needs a receipt and a status not ending in qr, or status no facturable', () => {
    expect(isSelectable({ ...base, receipt })).toBe(true);
    expect(isSelectable({ ...base, receipt: null })).toBe(false);
    expect(isSelectable({ ...base, receipt, ticket_status_name: 'recibido via qr' })).toBe(false);
    expect(isSelectable({ ...base, receipt: null, ticket_status_name: 'no facturable' })).toBe(true);
    expect(isSelectable({ ...base, receipt: null, ticket_status_name: 'ingreso no facturable' })).toBe(false);
  });
  it('select-all picks only selectable rows among the filtered ones', () => {
    const rows = [
      { ...base, ticket_id: 'a', receipt },
      { ...base, ticket_id: 'b' },
      { ...base, ticket_id: 'c', ticket_status_name: 'no facturable' },
      { ...base, ticket_id: 'd', receipt, ticket_status_name: 'recibido via qr' },
    ];
    expect(selectAllIds(rows)).toEqual(['a', 'c']);
  });
});

describe('months on the Mexico City calendar', () => {
  it('puts an early-UTC instant in the previous local month', () => {
    expect(ticketMonth('2026-12-01T03:00:00Z')).toBe('2026-11');
    expect(ticketMonth('2026-12-01T07:00:00Z')).toBe('2026-12');
  });
  it('turns a yyyy/mm/dd date into noon Mexico City time', () => {
    expect(receivedAtFromDate('2026/11/22')).toBe('2026-11-22T12:00:00-06:00');
    expect(ticketMonth(receivedAtFromDate('2026/01/01'))).toBe('2026-01');
  });
});
