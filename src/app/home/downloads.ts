// Files the dashboard hands to the browser's downloads: the CSV report (built here, papaparse loaded on
// click) and the CFDI archive (streamed by the server, spec §5).
import { personalReportName } from '../../domain/csv-report';
import { withReceipts } from '../../domain/receipt-share';
import { MSG } from '../../domain/messages';
import { db } from '../../offline/db';
import { fetchReceiptArchive } from '../api/receipts';
import { ApiError } from '../api/api-error';

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

/** 'Exportar': the selected tickets from Dexie as the CSV report. */
export async function exportTickets(ids: readonly string[], companies: ReadonlyMap<string, string>, year: number): Promise<void> {
  const [{ ticketsCsv }, found] = await Promise.all([import('./export-csv'), db.tickets.bulkGet([...ids])]);
  const tickets = found.filter((t) => t !== undefined);
  downloadFile(ticketsCsv(tickets, companies), personalReportName(year), 'text/csv;charset=utf-8');
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
