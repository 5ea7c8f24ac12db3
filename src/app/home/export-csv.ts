// 'Exportar' (spec §2 toolbar, §9 CSV): the selected tickets as the expense report CSV, with a BOM
// so Excel reads the accents. Loaded only when the button is clicked, never with the dashboard.
import Papa from 'papaparse';
import { CSV_COLUMNS, csvRow, UTF8_BOM } from '../../domain/csv-report';
import { CFDI_COMPANY_SHORT_NAME, type Ticket } from '../../domain/ticket';

/** nombreComercialEmisor: the supported company's name; for a ticket made from a CFDI file, its issuer's name. */
export function tradeNameOf(t: Ticket, companies: ReadonlyMap<string, string>): string {
  if (t.company_short_name === CFDI_COMPANY_SHORT_NAME && t.receipt) return t.receipt.name_issuer;
  return companies.get(t.company_short_name) ?? t.receipt?.name_issuer ?? '';
}

/** Tickets → the CSV file's text, BOM first, newest ticket first. */
export function ticketsCsv(tickets: readonly Ticket[], companies: ReadonlyMap<string, string>): string {
  const sorted = [...tickets].sort((a, b) => b.received_at.localeCompare(a.received_at));
  const rows = sorted.map((t) => csvRow(t, tradeNameOf(t, companies)));
  return UTF8_BOM + Papa.unparse(rows, { columns: [...CSV_COLUMNS], newline: '\r\n' });
}
