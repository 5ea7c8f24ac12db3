// The expense report CSV (spec §9): file names and columns exactly as the spec lists them, one row
// per ticket, with cells that a spreadsheet would run as a formula neutralised (CSV injection).
import type { Ticket } from './ticket';
import { categoryOf } from './ticket';
import { UNCATEGORIZED_LABEL } from './categories';

export const CSV_COLUMNS = [
  'rfcEmisor', 'nombreComercialEmisor', 'razonSocialEmisor', 'rfcReceptor', 'fechaEmision', 'monto', 'categoria', 'nota',
  'uuid', 'impuestosTrasladados', 'impuestosRetenidos', 'metodoDePago', 'numeroDeCuenta',
] as const;
export type CsvRow = Record<(typeof CSV_COLUMNS)[number], string>;

/** Excel opens UTF-8 with accents correctly only with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';

export function personalReportName(year: number): string {
  return `reporte-gastos-${year}.csv`;
}

export function companyReportName(month: number, year: number): string {
  return `reporte-gastos-${month}-${year}.csv`;
}

/** A cell starting with = + - @ (or a tab/CR) would be a formula: prefix it with an apostrophe. */
export function neutralizeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvRow(t: Ticket, tradeName: string): CsvRow {
  const r = t.receipt;
  const row: CsvRow = {
    rfcEmisor: r?.rfc_issuer ?? '',
    nombreComercialEmisor: tradeName,
    razonSocialEmisor: r?.name_issuer ?? '',
    rfcReceptor: r?.rfc_receiver ?? t.rfc,
    fechaEmision: r?.emission_date ?? t.received_at.slice(0, 10),
    monto: Number(t.amount).toFixed(2),
    categoria: categoryOf(t)?.tag_name ?? UNCATEGORIZED_LABEL,
    nota: t.note,
    uuid: r?.uuid ?? '',
    impuestosTrasladados: r?.imp_tras ?? '',
    impuestosRetenidos: r?.imp_ret ?? '',
    metodoDePago: r?.metodo_pago ?? '',
    numeroDeCuenta: r?.numctapago ?? '',
  };
  for (const k of CSV_COLUMNS) row[k] = neutralizeCell(row[k]);
  return row;
}
