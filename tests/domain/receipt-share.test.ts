import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { ArchiveQuery, checkShareForm, SHARE_MAX_RECEIPTS, ShareReceiptsBody, withReceipts } from '../../src/domain/receipt-share';
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

describe('receiptParty', () => {
  it("names the issuer of spending, the receiver of income, nobody without a CFDI", () => {
    expect(receiptParty({ receipt, ticket_type_id: 2 })).toBe('ESCUELA KEMPER URGATE');
    expect(receiptParty({ receipt: { ...receipt, name_issuer: '' }, ticket_type_id: 2 })).toBe('EKU9003173C9');
    expect(receiptParty({ receipt, ticket_type_id: 3 })).toBe('XIQB891116QE4');
    expect(receiptParty({ receipt: null, ticket_type_id: 2 })).toBeNull();
  });
});
