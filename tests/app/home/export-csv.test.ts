import { describe, expect, it } from 'vitest';
import { ticketsCsv, tradeNameOf } from '../../../src/app/home/export-csv';
import { CSV_COLUMNS, UTF8_BOM } from '../../../src/domain/csv-report';
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

describe('ticketsCsv', () => {
  const csv = ticketsCsv(
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

  it('starts with the UTF-8 BOM and the exact header', () => {
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const rows = parseCsv(csv.slice(UTF8_BOM.length));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(3);
    expect(csv.slice(1).split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
  });

  it('writes rows newest first with amounts, names, accents and neutralised formulas', () => {
    const [, newest, oldest] = parseCsv(csv.slice(UTF8_BOM.length)).map((r) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]])));
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
    });
    expect(oldest).toMatchObject({ monto: '99.50', nota: 'Café, pan y "dulces"', fechaEmision: '2026-11-02', rfcEmisor: '', rfcReceptor: 'LOVA850101AB1' });
  });

  it('takes the trade name from the companies table, else the receipt issuer', () => {
    expect(tradeNameOf(ticket({ company_short_name: 'oxxo' }), companies)).toBe('OXXO Tiendas');
    expect(tradeNameOf(ticket({ company_short_name: 'otra', receipt }), companies)).toBe('OXXO');
    expect(tradeNameOf(ticket({ company_short_name: 'manual' }), companies)).toBe('');
  });
});
