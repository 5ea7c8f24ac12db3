// A receipt SAT reports as cancelled is flagged on its row: the row model says so and
// both the table and the phone cards show 'Cancelada en el SAT' in words next to the status icon.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ticketRow, type NameLookups } from '../../../src/app/tickets/ticket-list-model';
import { TicketCards, TicketTable } from '../../../src/app/tickets/ticket-list';
import type { CategoryLists } from '../../../src/app/tickets/ticket-controls';
import { receipt, ticket } from './fixtures';

const lookups: NameLookups = { companies: new Map(), incomeCategories: new Map() };
const lists: CategoryLists = { expenseRows: [], expense: [], income: [] };
const row = (sat_status: string | null | undefined) =>
  ticketRow(ticket({ ticket_status_name: 'facturado', receipt: { ...receipt, sat_status } }), lookups);

describe('SAT status on the row', () => {
  it('flags only Cancelado', () => {
    expect(row('Cancelado').satCancelled).toBe(true);
    expect([row('Vigente'), row('No encontrado'), row(null), row(undefined)].map((r) => r.satCancelled)).toEqual([false, false, false, false]);
    expect(ticketRow(ticket(), lookups).satCancelled).toBe(false);
  });

  it('the table and the cards show the badge in words beside the status icon, only for the cancelled one', () => {
    const rows = [row('Cancelado'), { ...row('Vigente'), id: 'otro' }];
    for (const List of [TicketTable, TicketCards]) {
      const html = renderToStaticMarkup(<List rows={rows} lists={lists} caption="Movimientos" />);
      expect(html.match(/<span class="sat-badge">Cancelada en el SAT<\/span>/g)).toHaveLength(1);
      expect(html).toMatch(/class="status status--invoiced"[\s\S]*?<\/span><\/span><span class="sat-badge">/);
    }
  });
});
