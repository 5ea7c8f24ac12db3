import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { ArchiveQuery, checkShareForm, SHARE_MAX_RECEIPTS, ShareReceiptsBody, shareSummary, shareTotals, withReceipts } from '../../src/domain/receipt-share';
import { receiptParty, type Receipt } from '../../src/domain/ticket';

const receipt: Receipt = {
  receipt_id: 'r', rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'XIQB891116QE4', emission_date: '2026-11-05T09:30:00',
  uuid: 'U', imp_tras: '0.00', imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
};
const ID = '01935f2e-7c4a-7000-8000-000000000001';

describe('share form (spec §5)', () => {
  it('needs a recipient, a valid one, a short message and 1–50 receipts, in that order', () => {
    expect(checkShareForm({ email: '', message: '' }, 1)).toBe(MSG.shareEmailRequired);
    expect(checkShareForm({ email: '   ', message: 'x'.repeat(2000) }, 0)).toBe(MSG.shareEmailRequired);
    expect(checkShareForm({ email: 'contador@ejemplo', message: '' }, 1)).toBe(MSG.emailInvalid);
    expect(checkShareForm({ email: 'contador@ejemplo.mx', message: 'x'.repeat(1001) }, 1)).toBe(MSG.shareMessageTooLong);
    expect(checkShareForm({ email: 'contador@ejemplo.mx', message: '' }, 0)).toBe(MSG.archiveNoReceipts);
    expect(checkShareForm({ email: 'contador@ejemplo.mx', message: '' }, SHARE_MAX_RECEIPTS + 1)).toBe(MSG.shareTooMany);
    expect(checkShareForm({ email: ' Contador@Ejemplo.MX ', message: 'x'.repeat(1000) }, SHARE_MAX_RECEIPTS)).toBeNull();
  });

  it('keeps only the tickets with a receipt', () => {
    expect(withReceipts([{ receipt: null }, { receipt }, { receipt: undefined }])).toEqual([{ receipt }]);
  });

  it('reads the request body: address normalised, sender name kept off mail headers', () => {
    const body = v.parse(ShareReceiptsBody, { email: { email: ' A@B.MX ' }, tickets: [{ ticket_id: ID }], from: { name: 'Ana\r\nBcc: x@y.mx', message: 'Hola' } });
    expect(body.email.email).toBe('a@b.mx');
    expect(body.from.name).toBe('Ana Bcc: x@y.mx');
    expect(v.parse(ShareReceiptsBody, { email: { email: 'a@b.mx' }, tickets: [{ ticket_id: ID }] }).from).toEqual({ name: '', message: '' });
  });

  it('reads the archive query: one or many ids', () => {
    expect(v.parse(ArchiveQuery, { tickets: ID }).tickets).toEqual([ID]);
    expect(v.parse(ArchiveQuery, { tickets: [ID, ID] }).tickets).toEqual([ID, ID]);
    expect(v.safeParse(ArchiveQuery, { tickets: [] }).issues?.[0]?.message).toBe(MSG.archiveNoReceipts);
    expect(v.safeParse(ArchiveQuery, { tickets: Array(501).fill(ID) }).issues?.[0]?.message).toBe(MSG.archiveTooMany);
  });
});

describe('Compartir: spending and income apart', () => {
  const spend = (amount: string, r: Partial<Receipt> = {}) => ({ ticket_type_id: 2, amount, receipt: { ...receipt, ...r } });
  const earn = (amount: string, r: Partial<Receipt> = {}) => ({ ticket_type_id: 3, amount, receipt: { ...receipt, ...r } });

  it('never adds income to spending; credit notes subtract on their own side; moneyless documents add nothing', () => {
    const totals = shareTotals([
      spend('0.10'),
      spend('0.20'),
      spend('-0.05', { tipo: 'E' }),
      spend('19228.88', { tipo: 'P' }),
      spend('214.30', { cancel_status: 'cancelada' }),
      earn('1000.00'),
      earn('-100.01', { tipo: 'E' }),
      earn('0', { tipo: 'T' }),
    ]);
    expect(totals).toEqual({
      spending: { count: 3, total: '0.25' },
      income: { count: 2, total: '899.99' },
      noMoney: 3,
    });
  });

  it('turns a positive credit note (older data) negative', () => {
    expect(shareTotals([spend('50.00', { tipo: 'E' }), spend('80.00')]).spending).toEqual({ count: 2, total: '30.00' });
  });

  it('words the summary: a line per side that has receipts, and the moneyless ones apart', () => {
    const both = shareSummary(3, shareTotals([spend('1000'), spend('234.5'), earn('500')]));
    expect(both).toEqual({
      heading: '3 facturas seleccionadas',
      lines: [
        { label: 'Gastos', value: '$1,234.50 (2 facturas)' },
        { label: 'Ingresos', value: '$500.00 (1 factura)' },
      ],
      note: null,
    });
    expect(shareSummary(1, shareTotals([earn('-20', { tipo: 'E' })]))).toEqual({
      heading: '1 factura seleccionada',
      lines: [{ label: 'Ingresos', value: '-$20.00 (1 factura)' }],
      note: null,
    });
    expect(shareSummary(2, shareTotals([spend('10', { tipo: 'P' }), spend('5')])).note).toBe('1 comprobante sin importe (pago, traslado o cancelado) no suma en los totales.');
    expect(shareSummary(2, shareTotals([spend('10', { tipo: 'P' }), spend('5', { tipo: 'T' })]))).toEqual({
      heading: '2 facturas seleccionadas',
      lines: [],
      note: '2 comprobantes sin importe (pagos, traslados o cancelados) no suman en los totales.',
    });
  });
});

describe('receiptParty', () => {
  it("names the issuer of spending, the receiver of income, nobody without a CFDI", () => {
    expect(receiptParty({ receipt, ticket_type_id: 2 })).toBe('ESCUELA KEMPER URGATE');
    expect(receiptParty({ receipt: { ...receipt, name_issuer: '' }, ticket_type_id: 2 })).toBe('EKU9003173C9');
    expect(receiptParty({ receipt, ticket_type_id: 3 })).toBe('XIQB891116QE4');
    expect(receiptParty({ receipt: null, ticket_type_id: 2 })).toBeNull();
  });
});
