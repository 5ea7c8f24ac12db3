// Files the dashboard hands to the browser's downloads: the CSV report (built here, papaparse loaded on
// click) and the CFDI archive (streamed by the server, spec §5).
import { exportedText, personalReportName } from '../../domain/csv-report';
import { withReceipts } from '../../domain/receipt-share';
import { MSG } from '../../domain/messages';
import { db } from '../../offline/db';
import { fetchReceiptArchive } from '../api/receipts';
import { ApiError } from '../../offline/http';

/** Hands a file to the browser's downloads through a Blob URL and an <a download>. */
export function downloadFile(data: Blob | string, name: string, type: string): void {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What an export did, for the toast: rows written (0 = no file), what was left out and why. */
export interface Exported {
  rows: number;
  /** Selected tickets that are not spending. */
  left: number;
  text: string;
}

/** 'Exportar': the selected spending from Dexie as the CSV report; a selection with no spending downloads nothing. */
export async function exportTickets(ids: readonly string[], companies: ReadonlyMap<string, string>, year: number): Promise<Exported> {
  const [{ ticketsReport }, found] = await Promise.all([import('./export-csv'), db.tickets.bulkGet([...ids])]);
  const report = ticketsReport(found.filter((t) => t !== undefined), companies);
  if (report.rows > 0) downloadFile(report.csv, personalReportName(year), 'text/csv;charset=utf-8');
  return { rows: report.rows, left: report.omitted.income + report.omitted.noMoney, text: exportedText(report) };
}

/** The selected tickets that have a CFDI (spec §5): only those go into an archive or an e-mail. */
export async function selectedWithReceipts(ids: readonly string[]) {
  const found = await db.tickets.bulkGet([...ids]);
  return withReceipts(found.filter((t) => t !== undefined));
}

/** 'Descargar': the zip of the selected receipts, or the spec's message when none has one. */
export async function downloadArchive(ids: readonly string[]): Promise<void> {
  const tickets = await selectedWithReceipts(ids);
  if (tickets.length === 0) throw new ApiError(MSG.archiveNoReceipts, 404);
  const zip = await fetchReceiptArchive(tickets.map((t) => t.ticket_id));
  const date = new Date().toISOString().slice(0, 10);
  downloadFile(zip, `facturas-${date}.zip`, 'application/zip');
}
