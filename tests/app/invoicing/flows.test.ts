// The forms' state machines and messages (spec §4 flows, §8 messages).
import { describe, expect, it } from 'vitest';
import { followInvoiceRequest, verifyQuery, type InvoiceRequestView } from '../../../src/app/api/invoicing';
import { anonymousReducer, emptyReceiver, initialAnonymous, refacturaProof, revealForeignFirst, setForeign } from '../../../src/app/invoicing/anonymous-form/anonymous-flow';
import { initialMerchantStep, merchantReducer } from '../../../src/app/invoicing/merchant-form/merchant-flow';
import { addEntry, checkList, listTotal, MULTI_MAX, MULTI_TOO_FEW, MULTI_TOO_MANY, removeEntry, type MultiEntry } from '../../../src/app/invoicing/multi-form/multi-list';
import { invoiceOutcome } from '../../../src/app/invoicing/form-parts/invoice-outcome';
import { checkReceiver, normalizeReceiver, regimesFor } from '../../../src/domain/invoicing';
import { MSG } from '../../../src/domain/messages';
import { RFC_FOREIGN } from '../../../src/domain/rfc';
import { ticket } from './fixtures';

describe('merchant form (verify, then receiver, then cleared)', () => {
  it('goes ticket → receiver → back to an empty ticket step on success', () => {
    let s = merchantReducer(initialMerchantStep, { type: 'verify' });
    expect(s).toEqual({ step: 'ticket', busy: true });
    s = merchantReducer(s, { type: 'failed' });
    expect(s).toEqual({ step: 'ticket', busy: false });
    s = merchantReducer(s, { type: 'verified', ticket: ticket() });
    expect(s.step).toBe('receiver');
    s = merchantReducer(s, { type: 'send' });
    expect(s.busy).toBe(true);
    expect(merchantReducer(s, { type: 'failed' })).toMatchObject({ step: 'receiver', busy: false });
    expect(merchantReducer(s, { type: 'done' })).toEqual(initialMerchantStep);
  });
});

describe('anonymous form', () => {
  it('an invoiced ticket opens the reprint modal; refacturar leads to the receiver stage flagged', () => {
    const invoiced = ticket({ invoiced: true, invoice: { request_id: 'r1', status: 'enviada', email_masked: 'a***@x.mx', uuid: 'U' } });
    let s = anonymousReducer(anonymousReducer(initialAnonymous, { type: 'verify' }), { type: 'verified', ticket: invoiced });
    expect(s.stage).toBe('invoiced');
    s = anonymousReducer(s, { type: 'refacturar' });
    expect(s).toMatchObject({ stage: 'receiver', refactura: true, busy: false });
    expect(anonymousReducer(s, { type: 'done' })).toEqual(initialAnonymous);
  });

  it('refacturar shows the ticket again: its check code, its total and the values it was verified with', () => {
    const invoiced = ticket({ invoiced: true, total: '410.50', invoice: { request_id: 'r1', status: 'enviada', email_masked: 'a***@x.mx', uuid: 'U' } });
    const values = [{ form_configuration_id: 7002, value: '1234 5678 9012 3456 7890 1234' }, { form_configuration_id: 7004, value: '410.50' }];
    let s = anonymousReducer(initialAnonymous, { type: 'verified', ticket: invoiced, values });
    s = anonymousReducer(s, { type: 'refacturar' });
    expect(s).toMatchObject({ stage: 'receiver', refactura: true, values });
    if (s.stage !== 'receiver') throw new Error('receiver stage expected');
    expect(refacturaProof(s.values, s.ticket, ' qrk9x2 ')).toEqual({ refactura: 1, check: 'QRK9X2', total: '410.50', ticket: values });
  });

  it('a ticket not invoiced goes to the receiver stage; cancel hides it again', () => {
    const s = anonymousReducer(initialAnonymous, { type: 'verified', ticket: ticket() });
    expect(s).toMatchObject({ stage: 'receiver', refactura: false });
    expect(anonymousReducer(s, { type: 'cancel' })).toEqual(initialAnonymous);
    // refacturar means nothing outside the modal
    expect(anonymousReducer(s, { type: 'refacturar' })).toBe(s);
  });

  it('"Soy extranjero" locks both RFC fields to XEXX010101000 and offers only regime 616', () => {
    const f = setForeign({ ...emptyReceiver(), rfc: 'GODE561231GR8' }, true);
    expect(f).toMatchObject({ foreign: true, rfc: RFC_FOREIGN, rfcConfirm: RFC_FOREIGN, regime: '616' });
    expect(regimesFor(f.rfc).map((r) => r.code)).toEqual(['616']);
    expect(setForeign(f, false)).toMatchObject({ foreign: false, rfc: '', rfcConfirm: '', residenciaFiscal: '' });
  });

  it('a foreign RFC typed without the box reveals the foreign fields first, keeping what was typed', () => {
    const typed = { ...emptyReceiver(), rfc: 'xexx010101000', rfcConfirm: 'XEXX010101000', nombre: 'ACME LTD', email: 'a@b.com', uso: 'S01', postalCode: '64000' };
    const r = revealForeignFirst(typed);
    expect(r?.focus).toBe('residenciaFiscal');
    expect(r?.form).toMatchObject({ foreign: true, rfc: RFC_FOREIGN, nombre: 'ACME LTD', email: 'a@b.com', uso: 'S01', postalCode: '64000' });
    expect(revealForeignFirst(r!.form)).toBeNull();
    expect(revealForeignFirst({ ...typed, rfc: 'GODE561231GR8', rfcConfirm: 'GODE561231GR8' })).toBeNull();
  });

  it('checks in the spec order with its exact messages', () => {
    const ok = normalizeReceiver({ ...emptyReceiver(), rfc: 'gode561231gr8', rfcConfirm: 'GODE561231GR8', nombre: 'Juan', email: 'JUAN@Example.com', regime: '612', uso: 'G03', postalCode: '64000' });
    expect(checkReceiver(ok)).toBeNull();
    expect(ok.email).toBe('juan@example.com');
    expect(checkReceiver({ ...ok, rfcConfirm: 'GODE561231GR9' })).toEqual({ field: 'rfcConfirm', message: MSG.rfcConfirmMismatch });
    expect(checkReceiver({ ...ok, rfc: 'XYZ', rfcConfirm: 'XYZ' })).toEqual({ field: 'rfc', message: MSG.rfcPatternInvalid });
    expect(checkReceiver({ ...ok, email: 'juan@' })).toEqual({ field: 'email', message: MSG.receiverEmailInvalid });
    expect(checkReceiver({ ...ok, regime: '605' })).toEqual({ field: 'uso', message: MSG.regimeOnlyS01 });
    expect(checkReceiver({ ...ok, regime: '605', uso: 'S01' })).toBeNull();
  });
});

describe('multi-ticket list', () => {
  const entry = (ref: string, number: string, total = '116.00'): MultiEntry => ({
    values: [{ form_configuration_id: 1, value: number }],
    ticket: ticket({ ref, ticket_number: number, total }),
  });

  it('adds tickets one by one and refuses a duplicate with the spec message', () => {
    const one = addEntry([], entry('R1', '1'));
    expect('list' in one && one.list).toHaveLength(1);
    const list = (one as { list: MultiEntry[] }).list;
    expect(addEntry(list, entry('R1', '9'))).toEqual({ error: MSG.multiDuplicate });
    expect(addEntry(list, entry('R2', '1'))).toEqual({ error: MSG.multiDuplicate });
    expect(MSG.multiDuplicate).toBe('Ese ticket ya está incluido en la lista de ticekts para facturar.');
  });

  it('needs 2 to 10 tickets; remove takes one out; the total adds up in cents', () => {
    let list: MultiEntry[] = [entry('R1', '1', '0.10')];
    expect(checkList(list)).toBe(MULTI_TOO_FEW);
    list = [...list, entry('R2', '2', '0.20')];
    expect(checkList(list)).toBeNull();
    expect(listTotal(list)).toBe(0.3);
    expect(removeEntry(list, 'R1').map((e) => e.ticket.ref)).toEqual(['R2']);
    const full = Array.from({ length: MULTI_MAX }, (_, i) => entry(`R${i}`, String(i)));
    expect(addEntry(full, entry('RX', 'X'))).toEqual({ error: MULTI_TOO_MANY });
  });
});

describe('invoice request outcome', () => {
  const view = (status: InvoiceRequestView['status'], error: string | null = null): InvoiceRequestView => ({
    request_id: 'r', status, error, email: 'j***@x.mx', uuid: null, pdf_url: null,
  });

  it('sent → "Factura enviada exitosamente."; on its way → arrives within 24 h; error → its message', () => {
    expect(invoiceOutcome(view('enviada'))).toEqual({ kind: 'success', message: 'Factura enviada exitosamente.' });
    expect(invoiceOutcome(view('timbrada'))).toEqual({ kind: 'success', message: MSG.invoiceGenerated });
    expect(invoiceOutcome(view('solicitada'), true)).toEqual({ kind: 'success', message: MSG.refacturaGenerated });
    expect(invoiceOutcome(view('error', MSG.invoiceRejected))).toEqual({ kind: 'error', message: MSG.invoiceRejected });
    expect(invoiceOutcome(view('error'))).toEqual({ kind: 'error', message: MSG.merchantSendFailed });
  });

  it('follows the request until it is sent, polling the status', async () => {
    const seen: string[] = ['solicitada', 'timbrada', 'enviada'];
    let calls = 0;
    const result = await followInvoiceRequest('r', {
      get: async () => view(seen[Math.min(calls++, 2)] as InvoiceRequestView['status']),
      sleep: async () => undefined,
    });
    expect(result.status).toBe('enviada');
    expect(calls).toBe(3);
  });

  it('stops following at the time-out with the last state', async () => {
    let calls = 0;
    const result = await followInvoiceRequest('r', { get: async () => (calls++, view('solicitada')), sleep: async () => undefined, timeoutMs: 0 });
    expect(result.status).toBe('solicitada');
    expect(calls).toBe(1);
  });
});

describe('verify query (bracketed, DESIGN §3)', () => {
  it('sends values by form_configuration_id, or the QR triple', () => {
    expect(verifyQuery(3, [{ form_configuration_id: 301, value: 'A1' }, { form_configuration_id: 302, value: '11' }], 'form')).toEqual({
      'company[id]': 3, flow: 'form', 'values[301]': 'A1', 'values[302]': '11',
    });
    expect(verifyQuery(3, { ref: 'R', check: 'C', total: '116.00' }, 'merchant')).toEqual({
      'company[id]': 3, flow: 'merchant', ref: 'R', check: 'C', total: '116.00',
    });
  });
});
