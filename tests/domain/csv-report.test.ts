import { describe, expect, it } from 'vitest';
import { companyReportName, CSV_COLUMNS, csvRow, neutralizeCell, personalReportName } from '../../src/domain/csv-report';
import type { Ticket } from '../../src/domain/ticket';

const ticket: Ticket = {
  ticket_id: 't1', ticket_type_id: 2, ticket_status_name: 'facturado', received_at: '2026-11-10T12:00:00-06:00',
  company_short_name: 'manual', ticket_number: '', amount: '1234.5', tags: [{ tag_id: 4, tag_name: 'Gasolina' }],
  income_meta_tag_id: null, note: '=HYPERLINK("http://x")', include_ticket_image: false, ticket_image_text: '', user_area: '',
  username: 'demo', rfc: 'XIQB891116QE4',
  receipt: {
    receipt_id: 'r1', rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'XIQB891116QE4',
    emission_date: '2026-11-10', uuid: 'A1B2', imp_tras: '170.28', imp_ret: '0.00', metodo_pago: 'PUE', numctapago: '',
  },
};

describe('expense report CSV (spec §9)', () => {
  it('has exactly the spec columns in order and the spec file names', () => {
    expect(CSV_COLUMNS.join(',')).toBe(
      'rfcEmisor,nombreComercialEmisor,razonSocialEmisor,rfcReceptor,fechaEmision,monto,categoria,nota,uuid,impuestosTrasladados,impuestosRetenidos,metodoDePago,numeroDeCuenta',
    );
    expect(personalReportName(2026)).toBe('reporte-gastos-2026.csv');
    expect(companyReportName(11, 2026)).toBe('reporte-gastos-11-2026.csv');
  });
  it('fills a row from the ticket and its receipt', () => {
    expect(csvRow(ticket, 'Escuela Kemper')).toMatchObject({
      rfcEmisor: 'EKU9003173C9', nombreComercialEmisor: 'Escuela Kemper', razonSocialEmisor: 'ESCUELA KEMPER URGATE',
      rfcReceptor: 'XIQB891116QE4', fechaEmision: '2026-11-10', monto: '1234.50', categoria: 'Gasolina', uuid: 'A1B2',
      impuestosTrasladados: '170.28', metodoDePago: 'PUE',
    });
    expect(csvRow({ ...ticket, receipt: null, tags: [] }, 'Registro manual')).toMatchObject({ categoria: 'Sin Categoría', rfcEmisor: '', rfcReceptor: 'XIQB891116QE4' });
  });
  it('neutralises cells that would run as formulas', () => {
    expect(csvRow(ticket, '@SUM(1)').nota).toBe('\'=HYPERLINK("http://x")');
    for (const v of ['=1+1', '+1', '-1', '@A1', '\tx']) expect(neutralizeCell(v)).toBe(`'${v}`);
    expect(neutralizeCell('Gasolina')).toBe('Gasolina');
  });
});
