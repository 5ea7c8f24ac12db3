// Receipt calls of the dashboard toolbar (DESIGN §3, spec §7): the CFDI archive and sharing by e-mail.
import type { ShareForm } from '../../domain/receipt-share';
import { api } from './client';

/** GET /api/v3/receipts/archive?tickets[]=…: the zip of the PDF and XML of those tickets' receipts. */
export function fetchReceiptArchive(ticketIds: readonly string[]): Promise<Blob> {
  const q = new URLSearchParams();
  for (const id of ticketIds) q.append('tickets[]', id);
  return api.blob('/api/v3/receipts/archive', q);
}

/** POST /api/v2/send_receipt_email with the body the spec names (the token also goes in the header). */
export function sendReceiptsByEmail(token: string, ticketIds: readonly string[], form: ShareForm, senderName: string): Promise<{ sent: true }> {
  return api.post('/api/v2/send_receipt_email', {
    user: { token },
    email: { email: form.email.trim() },
    tickets: ticketIds.map((ticket_id) => ({ ticket_id })),
    from: { name: senderName, message: form.message.trim() },
  });
}
