// 'Exportar' (spec §2 toolbar, §9 CSV): the selected spending as the expense report CSV, with a BOM so
// Excel reads the accents; the company view's month report adds who spent and the review. Loaded only
// when the button is clicked, never with the dashboard.
import Papa from 'papaparse';
import {
  COMPANY_REPORT_COLUMNS, companyCsvRow, csvRow, REPORT_COLUMNS, spendingReport, UTF8_BOM, type SpendingReport,
} from '../../domain/csv-report';
import { CFDI_COMPANY_SHORT_NAME, type Ticket } from '../../domain/ticket';

/** nombreComercialEmisor: the supported company's name; for a ticket made from a CFDI file, its issuer's name. */
export function tradeNameOf(t: Ticket, companies: ReadonlyMap<string, string>): string {
  if (t.company_short_name === CFDI_COMPANY_SHORT_NAME && t.receipt) return t.receipt.name_issuer;
  return companies.get(t.company_short_name) ?? t.receipt?.name_issuer ?? '';
}

/** A built report: the file's text (BOM first) and what the user is told about it. */
export type CsvReport = Omit<SpendingReport<unknown>, 'rows'> & { rows: number; csv: string };

const newestFirst = (tickets: readonly Ticket[]) => [...tickets].sort((a, b) => b.received_at.localeCompare(a.received_at));

function build<R extends object>(tickets: readonly Ticket[], toRow: (t: Ticket) => R, columns: readonly string[]): CsvReport {
  const report = spendingReport(newestFirst(tickets), toRow);
  const csv = UTF8_BOM + Papa.unparse(report.rows, { columns: [...columns], newline: '\r\n' });
  return { rows: report.rows.length, total: report.total, omitted: report.omitted, csv };
}

/** The personal report ('reporte-gastos-{year}.csv'): spending only, newest ticket first. */
export function ticketsReport(tickets: readonly Ticket[], companies: ReadonlyMap<string, string>): CsvReport {
  return build(tickets, (t) => csvRow(t, tradeNameOf(t, companies)), REPORT_COLUMNS);
}

/** The company's month report ('reporte-gastos-{month}-{year}.csv'): the personal columns, then colaborador, departamento, estado, motivoDeRechazo. */
export function companyReport(tickets: readonly Ticket[], companies: ReadonlyMap<string, string>): CsvReport {
  return build(tickets, (t) => companyCsvRow(t, tradeNameOf(t, companies)), COMPANY_REPORT_COLUMNS);
}
