// The words for each CFDI type, payment state, seal check, finding and cancellation: what a row's one
// badge says and what the CFDI view lists, from the ticket JSON (every new field optional, none trusted).
import { describe, expect, it } from 'vitest';
import {
  badgeLabel, CFDI_TXT, cfdiFindings, cfdiRowInfo, cfdiState, cfdiTipo, cfdiView, foreignAmount, formatCurrencyAmount, signedAmount,
} from '../../src/domain/cfdi-label';
import type { Receipt, Ticket } from '../../src/domain/ticket';

const U1 = '5fb2822e-396d-4725-8521-cdc4bdd20ccf';
const U2 = 'a1b2c3d4-0000-4000-8000-000000000002';

const base: Receipt = {
  receipt_id: 'r1', rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'XIQB891116QE4',
  emission_date: '2025-03-14T10:00:00', uuid: U1, imp_tras: '16.00', imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
};

type T = Pick<Ticket, 'receipt' | 'currency' | 'original_amount' | 'amount' | 'ticket_type_id'> & { income: boolean };
const t = (r: Partial<Receipt> | null, over: Partial<T> = {}): T => ({
  receipt: r === null ? null : { ...base, ...r }, amount: '100.00', ticket_type_id: 2, income: false, ...over,
});

describe('amounts on a row', () => {
  it('signs income and negatives, never "+-"', () => {
    expect(signedAmount('1234', false)).toBe('$1,234.00');
    expect(signedAmount('1234', true)).toBe('+$1,234.00');
    expect(signedAmount('-1234', false)).toBe('-$1,234.00');
    expect(signedAmount('-1234.5', true)).toBe('-$1,234.50');
    expect(signedAmount('0', true)).toBe('$0.00');
    expect(signedAmount('basura', true)).toBe('$0.00');
  });

  it('shows a foreign currency with its code beside the pesos, not for MXN or without the original amount', () => {
    expect(foreignAmount({ currency: 'USD', original_amount: '12.5' })).toBe('12.50 USD');
    expect(foreignAmount({ currency: 'EUR', original_amount: '-1234' })).toBe('-1,234.00 EUR');
    expect(foreignAmount({ currency: 'MXN', original_amount: '12.5' })).toBeNull();
    expect(foreignAmount({ currency: 'USD', original_amount: null })).toBeNull();
    expect(foreignAmount({ currency: '<b>', original_amount: '1' })).toBeNull();
    expect(formatCurrencyAmount('1200', 'MXN')).toBe('$1,200.00');
  });
});

describe('the row badge, one per row', () => {
  it('an ordinary invoice, or a ticket without CFDI, says nothing', () => {
    expect(cfdiRowInfo(t({}))).toEqual({ tipo: 'I', badge: null, alarm: null, findings: 0, detail: null, noAmount: false, foreign: null, cancelled: false });
    expect(cfdiRowInfo(t(null)).tipo).toBeNull();
    expect(cfdiTipo({ ...base, tipo: 'X' as never })).toBe('I');
  });

  it('E is a credit note', () => {
    expect(cfdiRowInfo(t({ tipo: 'E' })).badge).toEqual({ text: 'Nota de crédito', tone: 'info' });
  });

  it('a PPD invoice says how it is paid, the balance in its own currency', () => {
    const ppd = (payment: Receipt['payment'], currency?: string) => cfdiRowInfo({ ...t({ metodo_pago: 'PPD', payment }), ...(currency ? { currency } : {}) }).badge;
    const ppdText = (payment: Receipt['payment'], currency?: string) => {
      const b = ppd(payment, currency);
      return b ? badgeLabel(b) : undefined;
    };
    expect(ppdText({ status: 'pagada', balance: '0.00' })).toBe('Pagada');
    expect(ppdText({ status: 'parcial', balance: '1200' })).toBe('Pago parcial ($1,200.00 por pagar)');
    expect(ppd({ status: 'parcial', balance: '1200' })).toEqual({ text: 'Pago parcial', note: '($1,200.00 por pagar)', tone: 'warning' });
    expect(ppdText({ status: 'parcial', balance: '1200' }, 'USD')).toBe('Pago parcial (1,200.00 USD por pagar)');
    expect(ppdText({ status: 'pendiente', balance: '5000.00' })).toBe('Pendiente de pago');
    expect(ppdText(null)).toBeUndefined();
    expect(ppdText({ status: 'parcial', balance: 'mucho' })).toBeUndefined();
  });

  it('P is a payment complement with what it paid, and no amount of its own', () => {
    const info = cfdiRowInfo(t({
      tipo: 'P',
      details: { pays: [
        { uuid: U2, amount: '19000.00', currency: 'MXN', balance: '0', installment: 1 },
        { uuid: U1, amount: '228.88', currency: 'MXN', balance: null, installment: null },
      ] },
    }));
    expect(info).toMatchObject({ badge: { text: 'Complemento de pago' }, detail: 'Monto pagado: $19,228.88', noAmount: true });
  });

  it('N is payroll with its period and net pay; T is a traslado without amount', () => {
    const n = cfdiRowInfo(t({ tipo: 'N', details: { payroll: { from: '2025-03-01', to: '2025-03-15', paid_on: '2025-03-15', net: '12000' } } }));
    expect(n).toMatchObject({ badge: { text: 'Nómina' }, detail: 'Del 2025-03-01 al 2025-03-15 · neto $12,000.00', noAmount: false });
    expect(cfdiRowInfo(t({ tipo: 'T' }))).toMatchObject({ badge: { text: 'Traslado', tone: 'neutral' }, noAmount: true });
  });

  it('a broken seal is said in full (the spec\'s words); a missing one too; SAT\'s unchecked seal is not an alarm', () => {
    expect(cfdiRowInfo(t({ seal: 'invalido' })).alarm).toBe('Sello inválido: el archivo fue alterado o no es auténtico');
    expect(cfdiRowInfo(t({ seal: 'valido', seal_sat: 'invalido' })).alarm).toBe(CFDI_TXT.sealInvalid);
    expect(cfdiRowInfo(t({ seal: 'sin_sello' })).alarm).toBe(CFDI_TXT.sealMissing);
    expect(cfdiRowInfo(t({ seal: 'valido', seal_sat: 'sin_verificar' })).alarm).toBeNull();
  });

  it('cancelled beats the type; SAT\'s own Cancelado keeps its existing badge alone', () => {
    expect(cfdiRowInfo(t({ tipo: 'E', cancel_status: 'cancelada' }))).toMatchObject({ badge: { text: 'Cancelada', tone: 'danger' }, cancelled: true });
    expect(cfdiRowInfo(t({ sat_status: 'Cancelado' })).cancelled).toBe(true);
    expect(cfdiRowInfo(t({ cancel_status: 'en_proceso' })).badge?.text).toBe('Cancelación en proceso');
    expect(cfdiRowInfo(t({ cancel_status: 'cancelada', sat_status: 'Cancelado' })).badge).toBeNull();
    expect(cfdiRowInfo(t({ tipo: 'E', cancel_status: 'rechazada' })).badge?.text).toBe('Nota de crédito');
  });

  it('counts findings, ignoring entries that are not findings', () => {
    const findings = [{ code: 'CFDI40108', message: 'El TipoDeComprobante no es válido.' }, 'x', null, { code: 3 }];
    expect(cfdiRowInfo(t({ findings: findings as never })).findings).toBe(1);
    expect(cfdiFindings({ ...base, findings: 'no' as never })).toEqual([]);
  });
});

describe('the CFDI view', () => {
  it('a credit note lists its related invoices by relation and shows its negative amount', () => {
    const v = cfdiView(t({ tipo: 'E', total: '1234.00', details: { related: [{ type: '01', uuids: [U2, 'no-es-uuid'] }] } }, { amount: '-1234.00' }));
    expect(v?.title).toBe('Nota de crédito');
    expect(v?.related).toEqual([{ label: 'Nota de crédito de los documentos relacionados', uuids: [U2.toUpperCase()] }]);
    expect(v?.facts).toContainEqual({ label: 'En tus cuentas', value: '-$1,234.00' });
    expect(v?.facts).toContainEqual({ label: 'Total del CFDI', value: '$1,234.00' });
  });

  it('a payment complement lists each invoice it pays with amount, installment and balance', () => {
    const v = cfdiView(t({ tipo: 'P', details: { pays: [{ uuid: U2, amount: '500', currency: 'USD', balance: '250', installment: 2 }] } }, { amount: '0' }));
    expect(v?.pays).toEqual([{ uuid: U2.toUpperCase(), amount: '500.00 USD', balance: '250.00 USD', installment: 2 }]);
    expect(v?.facts).toContainEqual({ label: 'Monto pagado', value: '500.00 USD' });
    expect(v?.facts.find((f) => f.label === 'En tus cuentas')?.value).toMatch(/^Sin monto/);
  });

  it('payroll shows its period, pay date and net pay', () => {
    const v = cfdiView(t({ tipo: 'N', details: { payroll: { from: '2025-03-01', to: '2025-03-15', paid_on: '2025-03-16', net: '8000.5' } } }, { income: true, amount: '8000.50' }));
    expect(v?.facts).toEqual(expect.arrayContaining([
      { label: 'Periodo de pago', value: 'Del 2025-03-01 al 2025-03-15' },
      { label: 'Fecha de pago', value: '2025-03-16' },
      { label: 'Pago neto', value: '$8,000.50' },
      { label: 'En tus cuentas', value: '+$8,000.50' },
    ]));
  });

  it('findings: the count in words (singular and plural) and each code and message', () => {
    const one = cfdiView(t({ findings: [{ code: 'CFDI40101', message: 'La fecha no es válida.' }] }));
    expect(one?.findingsTitle).toBe('Este CFDI tiene una observación');
    const two = cfdiView(t({ findings: [{ code: 'CFDI40101', message: 'a' }, { code: 'CFDI40102', message: 'b' }] }));
    expect(two?.findingsTitle).toBe('Este CFDI tiene 2 observaciones');
    expect(two?.findings.map((f) => f.code)).toEqual(['CFDI40101', 'CFDI40102']);
    expect(cfdiView(t({}))?.findingsTitle).toBeNull();
  });

  it('seals: a broken one is an alarm, SAT\'s unchecked one a plain note', () => {
    const v = cfdiView(t({ seal: 'valido', seal_sat: 'sin_verificar' }));
    expect(v?.alarm).toBeNull();
    expect(v?.seals).toEqual([{ text: 'Sello del emisor válido', tone: 'success' }, { text: 'Sello del SAT sin verificar', tone: 'neutral' }]);
    const bad = cfdiView(t({ seal: 'invalido', seal_sat: 'valido' }));
    expect(bad?.alarm).toBe(CFDI_TXT.sealInvalid);
    expect(bad?.seals[0]).toEqual({ text: 'Sello del emisor inválido', tone: 'danger' });
  });

  it('this CFDI and the one it replaced, each with its state', () => {
    const v = cfdiView(t({ replaces: [{ uuid: U2, cancel_status: 'cancelada' }] }));
    expect(v?.uuids).toEqual([
      { label: 'Este CFDI', uuid: U1.toUpperCase(), state: 'vigente' },
      { label: 'Sustituye a', uuid: U2.toUpperCase(), state: 'cancelada' },
    ]);
    const old = cfdiView(t({ cancel_status: 'cancelada', replaced_by: U2 }));
    expect(old?.uuids).toEqual([
      { label: 'Este CFDI', uuid: U1.toUpperCase(), state: 'cancelada' },
      { label: 'Sustituido por', uuid: U2.toUpperCase(), state: 'vigente' },
    ]);
    expect(cfdiState('en_proceso')).toBe('en proceso');
    expect(cfdiState(null, 'Cancelado')).toBe('cancelada');
    expect(cfdiState('rechazada')).toBe('vigente');
  });

  it('a PPD invoice says its payment state; no CFDI, no view', () => {
    const v = cfdiView(t({ metodo_pago: 'PPD', payment: { status: 'parcial', balance: '1200' } }));
    expect(v?.facts).toContainEqual({ label: 'Estado del pago', value: 'Pago parcial ($1,200.00 por pagar)' });
    expect(cfdiView(t(null))).toBeNull();
  });
});
