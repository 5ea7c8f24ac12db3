// 'Where is my invoice?': the path solicitada → timbrada → enviada a {email} on the
// ticket's row and card, or the error in plain Spanish with 'Reintentar'; pending ones keep refreshing.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TicketInvoice } from '../../../src/domain/invoicing';
import { MSG } from '../../../src/domain/messages';
import { ticketRow, type NameLookups } from '../../../src/app/tickets/ticket-list-model';
import { invoicePath, INVOICE_PATH_TXT } from '../../../src/app/tickets/invoice-path-model';
import { TicketCards, TicketTable } from '../../../src/app/tickets/ticket-list';
import type { CategoryLists } from '../../../src/app/tickets/ticket-controls';
import { ticket } from './fixtures';

const inv = (over: Partial<TicketInvoice>): TicketInvoice => ({
  request_id: '3f1c2b9e-0000-4000-8000-000000000001', status: 'solicitada', email: 'ana@example.mx', error: null, updated_at: '2026-11-20T20:00:00Z', ...over,
});
const states = (i: TicketInvoice) => invoicePath(i)!.steps.map((s) => `${s.label}:${s.state}`);

describe('invoicePath', () => {
  it('no request, no path', () => {
    expect(invoicePath(null)).toBeNull();
    expect(invoicePath(undefined)).toBeNull();
  });

  it('marks the steps reached, the current one, and those still to come', () => {
    expect(states(inv({ status: 'solicitada' }))).toEqual(['Solicitada:current', 'Timbrada:todo', 'Enviada a ana@example.mx:todo']);
    expect(states(inv({ status: 'timbrada' }))).toEqual(['Solicitada:done', 'Timbrada:current', 'Enviada a ana@example.mx:todo']);
    expect(states(inv({ status: 'enviada' }))).toEqual(['Solicitada:done', 'Timbrada:done', 'Enviada a ana@example.mx:done']);
    expect(invoicePath(inv({ status: 'enviada' }))!.summary).toBe('Tu factura: Solicitada → Timbrada → Enviada a ana@example.mx');
  });

  it('only solicitada and timbrada are pending (refreshed); a failed request can be retried', () => {
    const flags = (['solicitada', 'timbrada', 'enviada', 'error', 'sustituida'] as const).map((status) => {
      const p = invoicePath(inv({ status, error: status === 'error' ? MSG.invoiceRejected : null }))!;
      return [status, p.pending, p.canRetry && p.failed];
    });
    expect(flags).toEqual([['solicitada', true, false], ['timbrada', true, false], ['enviada', false, false], ['error', false, true], ['sustituida', false, false]]);
  });

  it("a stamped invoice whose e-mail failed keeps its steps, shows the message and offers 'Reintentar'", () => {
    const p = invoicePath(inv({ status: 'timbrada', error: MSG.merchantSendFailed }))!;
    expect(p.error).toBe(MSG.merchantSendFailed);
    expect([p.failed, p.canRetry, p.pending]).toEqual([false, true, true]);
    expect(p.summary).toBe(`Tu factura: Solicitada → Timbrada. ${MSG.merchantSendFailed}`);
  });
});

describe('the path on the ticket', () => {
  const lookups: NameLookups = { companies: new Map(), incomeCategories: new Map() };
  const lists: CategoryLists = { expenseRows: [], expense: [], income: [] };
  const row = (invoice: TicketInvoice | null, id = 't1') => ticketRow({ ...ticket({ ticket_id: id }), invoice }, lookups);

  it('table and cards show the steps with the e-mail, and nothing for tickets never requested', () => {
    const rows = [row(inv({ status: 'enviada' })), row(null, 't2')];
    for (const List of [TicketTable, TicketCards]) {
      const html = renderToStaticMarkup(<List rows={rows} lists={lists} caption="Movimientos" />);
      expect(html.match(/class="invoice-path"/g)).toHaveLength(1);
      expect(html).toContain('aria-label="Tu factura: Solicitada → Timbrada → Enviada a ana@example.mx"');
      expect(html).toMatch(/invoice-path__step--done">Enviada a ana@example.mx</);
      expect(html).not.toContain(INVOICE_PATH_TXT.retry);
    }
  });

  it("a failed request shows the error in Spanish and 'Reintentar' instead of the steps", () => {
    const rows = [row(inv({ status: 'error', error: MSG.invoiceRejected }))];
    for (const List of [TicketTable, TicketCards]) {
      const html = renderToStaticMarkup(<List rows={rows} lists={lists} caption="Movimientos" />);
      expect(html).toContain(`<p class="invoice-path__error">${MSG.invoiceRejected}</p>`);
      expect(html).toMatch(/<button[^>]*>Reintentar<\/button>/);
      expect(html).not.toContain('invoice-path__steps');
    }
  });
});
