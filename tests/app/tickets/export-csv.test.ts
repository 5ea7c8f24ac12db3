import { describe, expect, it } from 'vitest';
import { companyReport, ticketsReport, tradeNameOf } from '../../../src/app/tickets/export-csv';
import { COMPANY_REPORT_COLUMNS, CSV_COLUMNS, REPORT_COLUMNS, UTF8_BOM } from '../../../src/domain/csv-report';
import { receipt, ticket } from './fixtures';

/** A strict RFC 4180 reader for the test (quoted cells, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  row.push(cell);
  rows.push(row);
  return rows;
}

const companies = new Map([['oxxo', 'OXXO Tiendas']]);

describe('ticketsReport (reporte-gastos-{year}.csv)', () => {
  const report = ticketsReport(
    [
      ticket({ ticket_id: 'a', received_at: '2026-11-02T10:00:00-06:00', amount: '99.5', note: 'Café, pan y "dulces"' }),
      ticket({
        ticket_id: 'b',
        received_at: '2026-11-20T10:00:00-06:00',
        company_short_name: 'oxxo',
        amount: '1234.567',
        note: '=HYPERLINK("http://x")',
        receipt,
        tags: [{ tag_id: 3, tag_name: 'Educación' }],
      }),
    ],
    companies,
  );
  const csv = report.csv;

  it('starts with the UTF-8 BOM and the exact header: the spec columns first and in order, then tipo', () => {
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const rows = parseCsv(csv.slice(UTF8_BOM.length));
    expect(rows[0]).toEqual([...REPORT_COLUMNS]);
    expect(rows[0]!.slice(0, CSV_COLUMNS.length)).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(3);
    expect(csv.slice(1).split('\r\n')[0]).toBe(`${CSV_COLUMNS.join(',')},tipo`);
  });

  it('writes rows newest first with amounts, names, accents and neutralised formulas', () => {
    const [, newest, oldest] = parseCsv(csv.slice(UTF8_BOM.length)).map((r) => Object.fromEntries(REPORT_COLUMNS.map((c, i) => [c, r[i]])));
    expect(newest).toMatchObject({
      rfcEmisor: 'OXX970814HS9',
      nombreComercialEmisor: 'OXXO Tiendas',
      razonSocialEmisor: 'OXXO',
      rfcReceptor: 'LOVA850101AB1',
      fechaEmision: '2026-11-20',
      monto: '1234.57',
      categoria: 'Educación',
      nota: `'=HYPERLINK("http://x")`,
      uuid: 'ABC',
      impuestosTrasladados: '16.00',
      impuestosRetenidos: '0.00',
      metodoDePago: 'PUE',
      tipo: 'Factura',
    });
    expect(oldest).toMatchObject({ monto: '99.50', nota: 'Café, pan y "dulces"', fechaEmision: '2026-11-02', rfcEmisor: '', rfcReceptor: 'LOVA850101AB1', tipo: 'Gasto manual' });
    expect(report).toMatchObject({ rows: 2, total: '1334.07', omitted: { income: 0, noMoney: 0 } });
  });

  it('holds spending only: income left out and counted, a credit note negative, a payment complement left out', () => {
    const mixed = ticketsReport(
      [
        ticket({ ticket_id: 'i', received_at: '2026-11-01T10:00:00-06:00', amount: '1000.00' }),
        ticket({ ticket_id: 'e', received_at: '2026-11-03T10:00:00-06:00', amount: '-116.00', receipt: { ...receipt, uuid: 'NC1', tipo: 'E' as const } }),
        ticket({ ticket_id: 'x', received_at: '2026-11-04T10:00:00-06:00', ticket_type_id: 3, amount: '5000.00', receipt: { ...receipt, uuid: 'ING' } }),
        ticket({ ticket_id: 'y', received_at: '2026-11-05T10:00:00-06:00', ticket_type_id: 4, amount: '300.00' }),
        ticket({ ticket_id: 'p', received_at: '2026-11-06T10:00:00-06:00', amount: '0.00', receipt: { ...receipt, uuid: 'PAGO', tipo: 'P' as const } }),
      ],
      companies,
    );
    expect(mixed.csv).toBe(
      UTF8_BOM +
        'rfcEmisor,nombreComercialEmisor,razonSocialEmisor,rfcReceptor,fechaEmision,monto,categoria,nota,uuid,impuestosTrasladados,impuestosRetenidos,metodoDePago,numeroDeCuenta,tipo\r\n' +
        'OXX970814HS9,OXXO,OXXO,LOVA850101AB1,2026-11-20,-116.00,Alimentos y bebidas,,NC1,16.00,0.00,PUE,,Nota de crédito\r\n' +
        ',,,LOVA850101AB1,2026-11-01,1000.00,Alimentos y bebidas,,,,,,,Gasto manual',
    );
    expect(mixed).toMatchObject({ rows: 2, total: '884.00', omitted: { income: 2, noMoney: 1 } });
  });

  it('takes the trade name from the companies table, else the receipt issuer', () => {
    expect(tradeNameOf(ticket({ company_short_name: 'oxxo' }), companies)).toBe('OXXO Tiendas');
    expect(tradeNameOf(ticket({ company_short_name: 'otra', receipt }), companies)).toBe('OXXO');
    expect(tradeNameOf(ticket({ company_short_name: 'manual' }), companies)).toBe('');
  });
});

describe('companyReport (reporte-gastos-{month}-{year}.csv)', () => {
  it('adds colaborador, departamento, estado and motivo de rechazo after the spec columns and tipo', () => {
    const report = companyReport(
      [
        ticket({
          ticket_id: 'r', received_at: '2026-03-10T10:00:00-06:00', amount: '450.00', username: 'ana.ruiz', user_area: 'Ventas', receipt: { ...receipt, uuid: 'R1' },
          review: { decision: 'rechazado', reason: 'Sin comprobante, "viaje" personal' },
        }),
        ticket({ ticket_id: 'a', received_at: '2026-03-12T10:00:00-06:00', amount: '200.10', username: 'luis', review: { decision: 'aprobado', reason: null } }),
        ticket({ ticket_id: 'n', received_at: '2026-03-14T10:00:00-06:00', amount: '-50.05', username: 'luis', receipt: { ...receipt, uuid: 'N1', tipo: 'E' as const } }),
        ticket({ ticket_id: 't', received_at: '2026-03-15T10:00:00-06:00', amount: '0', username: 'luis', receipt: { ...receipt, uuid: 'T1', tipo: 'T' as const } }),
      ],
      companies,
    );
    expect(report.csv).toBe(
      UTF8_BOM +
        `${CSV_COLUMNS.join(',')},tipo,colaborador,departamento,estado,motivoDeRechazo\r\n` +
        'OXX970814HS9,OXXO,OXXO,LOVA850101AB1,2026-11-20,-50.05,Alimentos y bebidas,,N1,16.00,0.00,PUE,,Nota de crédito,luis,Sin departamento,Por revisar,\r\n' +
        ',,,LOVA850101AB1,2026-03-12,200.10,Alimentos y bebidas,,,,,,,Gasto manual,luis,Sin departamento,Aprobado,\r\n' +
        'OXX970814HS9,OXXO,OXXO,LOVA850101AB1,2026-11-20,450.00,Alimentos y bebidas,,R1,16.00,0.00,PUE,,Factura,ana.ruiz,Ventas,Rechazado,"Sin comprobante, ""viaje"" personal"',
    );
    expect(parseCsv(report.csv.slice(1))[0]).toEqual([...COMPANY_REPORT_COLUMNS]);
    expect(report).toMatchObject({ rows: 3, total: '600.05', omitted: { income: 0, noMoney: 1 } });
  });
});
