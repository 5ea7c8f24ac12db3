import { describe, expect, it } from 'vitest';
import {
  COMPANY_REPORT_COLUMNS, companyCsvRow, companyReportName, CSV_COLUMNS, csvRow, exportedText, neutralizeCell, omittedText,
  personalReportName, REPORT_COLUMNS, spendingKind, spendingReport,
} from '../../src/domain/csv-report';
import type { Receipt, Ticket } from '../../src/domain/ticket';

const receipt: Receipt = {
  receipt_id: 'r1', rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'XIQB891116QE4',
  emission_date: '2026-11-10', uuid: 'A1B2', imp_tras: '170.28', imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
};
const ticket: Ticket = {
  ticket_id: 't1', ticket_type_id: 2, ticket_status_name: 'facturado', received_at: '2026-11-10T12:00:00-06:00',
  company_short_name: 'cfdi', ticket_number: '', amount: '1234.5', tags: [{ tag_id: 4, tag_name: 'Gasolina' }],
  income_meta_tag_id: null, note: '=HYPERLINK("http://x")', include_ticket_image: false, ticket_image_text: '', user_area: '',
  username: 'demo', rfc: 'XIQB891116QE4', receipt,
};
const withReceipt = (r: Partial<Receipt>, t: Partial<Ticket> = {}): Ticket => ({ ...ticket, ...t, receipt: { ...receipt, ...r } });

describe('expense report CSV (spec §9)', () => {
  it('has exactly the spec columns in order and the spec file names', () => {
    expect(CSV_COLUMNS.join(',')).toBe(
      'rfcEmisor,nombreComercialEmisor,razonSocialEmisor,rfcReceptor,fechaEmision,monto,categoria,nota,uuid,impuestosTrasladados,impuestosRetenidos,metodoDePago,numeroDeCuenta',
    );
    expect(personalReportName(2026)).toBe('reporte-gastos-2026.csv');
    expect(companyReportName(11, 2026)).toBe('reporte-gastos-11-2026.csv');
  });

  it('keeps the spec columns first and in order, then tipo, then the company columns', () => {
    expect(REPORT_COLUMNS).toEqual([...CSV_COLUMNS, 'tipo']);
    expect(COMPANY_REPORT_COLUMNS).toEqual([...CSV_COLUMNS, 'tipo', 'colaborador', 'departamento', 'estado', 'motivoDeRechazo']);
  });

  it('fills a row from the ticket and its receipt', () => {
    expect(csvRow(ticket, 'Escuela Kemper')).toEqual({
      rfcEmisor: 'EKU9003173C9', nombreComercialEmisor: 'Escuela Kemper', razonSocialEmisor: 'ESCUELA KEMPER URGATE',
      rfcReceptor: 'XIQB891116QE4', fechaEmision: '2026-11-10', monto: '1234.50', categoria: 'Gasolina', nota: '\'=HYPERLINK("http://x")',
      uuid: 'A1B2', impuestosTrasladados: '170.28', impuestosRetenidos: '0.00', metodoDePago: 'PUE', numeroDeCuenta: '', tipo: 'Factura',
    });
    expect(csvRow({ ...ticket, company_short_name: 'manual', receipt: null, tags: [] }, 'Registro manual')).toMatchObject({
      categoria: 'Sin Categoría', rfcEmisor: '', rfcReceptor: 'XIQB891116QE4', tipo: 'Gasto manual',
    });
  });

  it('rounds monto to the cent exactly (half away from zero), never through a float', () => {
    expect(csvRow({ ...ticket, amount: '1.005' }, '').monto).toBe('1.01');
    expect(csvRow({ ...ticket, amount: '6078640.235' }, '').monto).toBe('6078640.24');
    expect(csvRow({ ...ticket, amount: 'NaN' }, '').monto).toBe('');
  });

  it('writes a credit note with a negative monto that stays a number (not neutralised)', () => {
    const note = withReceipt({ tipo: 'E' }, { amount: '-120' });
    expect(csvRow(note, '')).toMatchObject({ monto: '-120.00', tipo: 'Nota de crédito' });
    // A positive amount on a credit note (older data) still subtracts.
    expect(csvRow(withReceipt({ tipo: 'E' }, { amount: '120' }), '').monto).toBe('-120.00');
  });

  it('says next to the kind when the CFDI\'s seal did not verify, never counting it silently', () => {
    expect(csvRow(withReceipt({ seal: 'invalido' }), '').tipo).toBe('Factura (sello inválido)');
    expect(csvRow(withReceipt({ seal: 'valido', seal_sat: 'invalido' }), '').tipo).toBe('Factura (sello inválido)');
    expect(csvRow(withReceipt({ tipo: 'E', seal: 'sin_sello' }, { amount: '-1' }), '').tipo).toBe('Nota de crédito (sin sello)');
    expect(csvRow(withReceipt({ seal: 'valido', seal_sat: 'sin_verificar' }), '').tipo).toBe('Factura');
  });

  it('neutralises cells that would run as formulas', () => {
    expect(csvRow(ticket, '@SUM(1)').nota).toBe('\'=HYPERLINK("http://x")');
    expect(csvRow(ticket, '@SUM(1)').nombreComercialEmisor).toBe("'@SUM(1)");
    for (const v of ['=1+1', '+1', '-1', '@A1', '\tx']) expect(neutralizeCell(v)).toBe(`'${v}`);
    expect(neutralizeCell('Gasolina')).toBe('Gasolina');
  });
});

describe('what a spending report holds', () => {
  it.each([
    ['an invoice received (I)', withReceipt({ tipo: 'I' }), { kind: 'Factura' }],
    ['an invoice of an older server (no tipo)', ticket, { kind: 'Factura' }],
    ['a credit note (E)', withReceipt({ tipo: 'E' }, { amount: '-10' }), { kind: 'Nota de crédito' }],
    ['payroll paid by the user (N, spending)', withReceipt({ tipo: 'N' }), { kind: 'Nómina' }],
    ['a manual expense', { ...ticket, receipt: null, company_short_name: 'manual' }, { kind: 'Gasto manual' }],
    ['a merchant ticket not invoiced yet', { ...ticket, receipt: null, company_short_name: 'oxxo' }, { kind: 'Ticket sin factura' }],
    ['an issued invoice (income, type 3)', withReceipt({ tipo: 'I' }, { ticket_type_id: 3 }), { omit: 'income' }],
    ['payroll received (N, income)', withReceipt({ tipo: 'N' }, { ticket_type_id: 3 }), { omit: 'income' }],
    ['a manual income (type 4)', { ...ticket, receipt: null, ticket_type_id: 4 }, { omit: 'income' }],
    ['a payment complement (P)', withReceipt({ tipo: 'P' }, { amount: '0' }), { omit: 'noMoney' }],
    ['a traslado (T)', withReceipt({ tipo: 'T' }, { amount: '0' }), { omit: 'noMoney' }],
    ['a CFDI we cancelled', withReceipt({ tipo: 'I', cancel_status: 'cancelada' }), { omit: 'noMoney' }],
    ['a CFDI SAT reports cancelled', withReceipt({ sat_status: 'Cancelado' }), { omit: 'noMoney' }],
  ] as const)('%s', (_name, t, expected) => {
    expect(spendingKind(t)).toEqual(expected);
  });

  it('a cancellation still in process counts until SAT cancels it', () => {
    expect(spendingKind(withReceipt({ cancel_status: 'en_proceso' }))).toEqual({ kind: 'Factura' });
    expect(spendingKind(withReceipt({ cancel_status: 'rechazada' }))).toEqual({ kind: 'Factura' });
  });

  it('leaves income and moneyless documents out, counts them, and totals the rows in exact cents', () => {
    const tickets: Ticket[] = [
      { ...ticket, ticket_id: 'a', amount: '0.10' },
      { ...ticket, ticket_id: 'b', amount: '0.20' },
      withReceipt({ tipo: 'E' }, { ticket_id: 'c', amount: '-0.05' }),
      withReceipt({ tipo: 'I' }, { ticket_id: 'd', ticket_type_id: 3, amount: '5000.00' }),
      { ...ticket, ticket_id: 'e', ticket_type_id: 4, receipt: null, amount: '10.00' },
      withReceipt({ tipo: 'P' }, { ticket_id: 'f', amount: '19228.88' }),
      withReceipt({ cancel_status: 'cancelada' }, { ticket_id: 'g', amount: '214.30' }),
    ];
    const report = spendingReport(tickets, (t) => t.ticket_id);
    expect(report.rows).toEqual(['a', 'b', 'c']);
    expect(report.total).toBe('0.25'); // 0.1 + 0.2 - 0.05 in floats is 0.25000000000000006
    expect(report.omitted).toEqual({ income: 2, noMoney: 2 });
  });

  it('sums large amounts to the cent', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ ...ticket, ticket_id: String(i), amount: '9999999.99' }));
    expect(spendingReport(many, (t) => t).total).toBe('9999999990.00');
  });
});

describe('the company report row', () => {
  it('adds colaborador, departamento, estado and motivo de rechazo after tipo', () => {
    const rejected = { ...ticket, username: 'ana.ruiz', user_area: 'Ventas', review: { decision: 'rechazado' as const, reason: 'Sin comprobante fiscal' } };
    const row = companyCsvRow(rejected, 'Escuela Kemper');
    expect(Object.keys(row)).toEqual([...COMPANY_REPORT_COLUMNS]);
    expect(row).toMatchObject({ tipo: 'Factura', colaborador: 'ana.ruiz', departamento: 'Ventas', estado: 'Rechazado', motivoDeRechazo: 'Sin comprobante fiscal' });
  });

  it('says Aprobado with no reason, Por revisar when not reviewed, Sin departamento when there is none', () => {
    expect(companyCsvRow({ ...ticket, review: { decision: 'aprobado', reason: null } }, '')).toMatchObject({ estado: 'Aprobado', motivoDeRechazo: '', departamento: 'Sin departamento' });
    expect(companyCsvRow({ ...ticket, review: null }, '')).toMatchObject({ estado: 'Por revisar', motivoDeRechazo: '' });
    // A status of 'rechazado' without the review row still reads as rejected.
    expect(companyCsvRow({ ...ticket, ticket_status_name: 'rechazado' }, '').estado).toBe('Rechazado');
  });

  it('neutralises a hostile reason, name or department', () => {
    const row = companyCsvRow({ ...ticket, username: '@x', user_area: '=CMD()', review: { decision: 'rechazado', reason: '+1' } }, '');
    expect(row).toMatchObject({ colaborador: "'@x", departamento: "'=CMD()", motivoDeRechazo: "'+1" });
  });
});

describe('what the user is told', () => {
  it('says how many were left out, singular and plural', () => {
    expect(omittedText({ income: 0, noMoney: 0 })).toBeNull();
    expect(omittedText({ income: 1, noMoney: 0 })).toBe('Se omitió 1 ingreso del reporte de gastos');
    expect(omittedText({ income: 2, noMoney: 0 })).toBe('Se omitieron 2 ingresos del reporte de gastos');
    expect(omittedText({ income: 0, noMoney: 1 })).toBe('Se omitió 1 comprobante sin importe (pago, traslado o cancelado) del reporte de gastos');
    expect(omittedText({ income: 1, noMoney: 3 })).toBe(
      'Se omitieron 1 ingreso y 3 comprobantes sin importe (pagos, traslados o cancelados) del reporte de gastos',
    );
  });

  it('states the rows and their total, then what was left out', () => {
    expect(exportedText({ rows: 1, total: '1234.50', omitted: { income: 0, noMoney: 0 } })).toBe('Se exportó 1 comprobante al reporte de gastos por $1,234.50.');
    expect(exportedText({ rows: 3, total: '-20.00', omitted: { income: 2, noMoney: 0 } })).toBe(
      'Se exportaron 3 comprobantes al reporte de gastos por un total de -$20.00. Se omitieron 2 ingresos del reporte de gastos.',
    );
    expect(exportedText({ rows: 0, total: '0.00', omitted: { income: 1, noMoney: 0 } })).toBe(
      'Ninguno de los comprobantes seleccionados es un gasto: no se descargó el reporte. Se omitió 1 ingreso del reporte de gastos.',
    );
  });
});
